// Whether a process still runs, for tests that check nothing is left behind.
import { readFileSync } from 'node:fs';

/** Gone, or a zombie nobody has reaped yet (in a container with no init it may stay one): it runs no more either way. */
export function processGone(pid: number): boolean {
  try {
    // The state field follows the command name in parentheses: "123 (sleep) S …".
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}
