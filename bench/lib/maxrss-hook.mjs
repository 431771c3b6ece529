// Loaded with `node --import` when /usr/bin/time is not available: the process writes its own
// peak RSS (kB) to $BENCH_MAXRSS_FILE as it exits, whichever way it exits (return or process.exit).
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAXRSS_FILE;
if (file) {
  // Not inherited by anything the CLI might spawn.
  delete process.env.BENCH_MAXRSS_FILE;
  process.on('exit', () => {
    try {
      writeFileSync(file, `${process.resourceUsage().maxRSS}\n`);
    } catch {
      // the bench reports the figure as missing
    }
  });
}
