// Loaded with `node --import` when /usr/bin/time is not available: the process writes its own
// peak RSS (kB) and CPU time (user, system; µs) to $BENCH_MAXRSS_FILE as it exits, whichever way it exits (return or process.exit).
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAXRSS_FILE;
if (file) {
  // Not inherited by anything the CLI might spawn.
  delete process.env.BENCH_MAXRSS_FILE;
  process.on('exit', () => {
    try {
      const usage = process.resourceUsage();
      writeFileSync(file, `${usage.maxRSS} ${usage.userCPUTime} ${usage.systemCPUTime}\n`);
    } catch {
      // the bench reports the figure as missing
    }
  });
}
