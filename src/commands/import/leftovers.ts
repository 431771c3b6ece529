// The temp files a killed import left beside its results and failed files. Each file is written to a
// hidden temp beside it (output/atomic-out-file.ts: `.NAME.PID.RANDOM.tmp`) and renamed into place at
// the end; the exit hook removes it on any ending but one no process survives (`kill -9`, a power
// cut), after which it stays for good, empty or half. The next run of the same command removes them.
import { lstat, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ownedFileProblem } from '../../core/owned-file.js';
import { processAlive } from '../../core/process-facts.js';

/** What is regex-special in a file name, escaped. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Remove the leftover temp files of `targets` (the results and failed paths). A file is recognised as
 * a leftover of ours, and dead, when all of these hold: its name is exactly the one createTempBeside
 * gives a temp of that target (`.` + the target's name + `.PID.` + 12 hex digits + `.tmp`, so another
 * input's, or another program's, never matches); it is a regular file of this user's with one name
 * (ownedFileProblem); and no process with its PID runs on this machine (processAlive: a live run's
 * pid, this process's included, keeps its file). Never throws: a file that cannot be looked at or
 * removed stays, as it did before.
 */
export async function removeDeadTemps(targets: ReadonlyArray<string | undefined>): Promise<void> {
  for (const target of targets) {
    if (target === undefined) continue;
    const dir = dirname(target);
    const ours = new RegExp(`^\\.${escape(basename(target))}\\.(\\d+)\\.[0-9a-f]{12}\\.tmp$`);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const pid = ours.exec(name)?.[1];
      if (pid === undefined || processAlive(Number(pid))) continue;
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (info === undefined || ownedFileProblem(info) !== undefined) continue;
      await unlink(path).catch(() => undefined);
    }
  }
}
