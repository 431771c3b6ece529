// The CLI's environment, with its credential variables out of reach of the processes it starts
// (issue 37 §2). On one Unix user any process may read another's /proc/PID/environ: a `keys lease`
// child reading its parent's found the pipeline's APPRAISAL_API_KEY. That file shows the block the
// process was started with (strings above the initial stack), which deleting from process.env does
// not change (unsetenv only drops the pointer). So the CLI copies its environment for itself, deletes
// the credential variables from process.env, and on Linux overwrites their values in that block with
// NUL bytes through /proc/self/mem — a process may always write its own memory, so no native addon is
// needed (PR_SET_DUMPABLE, the other way to hide the file, is not reachable from Node without one).
// Measured: about 0.1 ms, once, only when such a variable is set. Where it cannot be done (no /proc,
// macOS, Windows) the copy and the delete still keep the key out of every child's environment; what
// remains readable is said in docs/THREAT-MODEL.md.
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

/** The fields of /proc/self/stat after the command name, from field 3 on (proc(5)). */
function statFields(): string[] {
  const stat = readFileSync('/proc/self/stat', 'latin1');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Overwrite the values of `names` in this process's initial environment block; how many it cleared. */
export function clearInitialEnvironment(names: readonly string[]): number {
  const fields = statFields();
  // env_start and env_end are fields 50 and 51 (Linux 3.5+).
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return 0;
  const fd = openSync('/proc/self/mem', 'r+');
  try {
    const block = Buffer.alloc(end - start);
    readSync(fd, block, 0, block.length, start);
    let cleared = 0;
    for (const name of names) {
      const prefix = Buffer.from(`${name}=`, 'latin1');
      for (let at = 0; at < block.length; at = block.indexOf(0, at) + 1 || block.length) {
        if (!block.subarray(at, at + prefix.length).equals(prefix)) continue;
        const from = at + prefix.length;
        const to = block.indexOf(0, from) < 0 ? block.length : block.indexOf(0, from);
        block.fill(0, from, to);
        writeSync(fd, block, from, to - from, start + from);
        cleared += 1;
      }
    }
    return cleared;
  } finally {
    closeSync(fd);
  }
}

/**
 * A copy of process.env for the CLI; `names` (its credential variables) are then deleted from
 * process.env and, on Linux, cleared from the initial environment block as well.
 */
export function ownEnvironment(names: readonly string[]): NodeJS.ProcessEnv {
  const present = names.filter((name) => process.env[name] !== undefined);
  // Windows: process.env's names ignore case (PATH is Path), a copy's would not; and there is no
  // /proc to clear. Children never get these variables anyway (core/child-env.ts).
  if (present.length === 0 || process.platform === 'win32') return process.env;
  const env = { ...process.env };
  for (const name of present) delete process.env[name];
  if (process.platform === 'linux') {
    try {
      clearInitialEnvironment(present);
    } catch {
      // /proc not mounted, or /proc/self/mem refused by a hardened kernel: process.env is cleared.
    }
  }
  return env;
}
