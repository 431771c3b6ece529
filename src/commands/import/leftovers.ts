// The temp files a killed import left beside its results and failed files. Each file is written to a
// hidden temp beside it (output/atomic-out-file.ts: `.NAME.PID.RANDOM.tmp`) and renamed into place at
// the end; the exit hook removes it on any ending but one no process survives (`kill -9`, a power
// cut), after which it stays for good, empty or half. The next run of the same command removes them.
import { basename, dirname } from 'node:path';
import escapeStringRegexp from 'escape-string-regexp';
import { removeDeadTemps as removeDead } from '../../core/dead-temps.js';

/**
 * Remove the leftover temp files of `targets` (the results and failed paths): those whose name is
 * exactly the one createTempBeside gives a temp of that target (`.` + the target's name + `.PID.` +
 * 12 hex digits + `.tmp`, so another input's, or another program's, never matches) and whose
 * process is gone (core/dead-temps.ts). Never throws.
 */
export async function removeDeadTemps(targets: ReadonlyArray<string | undefined>): Promise<void> {
  for (const target of targets) {
    if (target === undefined) continue;
    await removeDead(dirname(target), new RegExp(`^\\.${escapeStringRegexp(basename(target))}\\.(\\d+)\\.[0-9a-f]{12}\\.tmp$`));
  }
}
