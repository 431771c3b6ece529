// This process's identity and what another process is, for commands (which never touch `process`
// themselves): `keys lease` names its key after the host and pid that hold it, `keys audit` asks
// whether that pid is still alive, and `sync` tells another sync from another program holding its
// database.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export function ownProcess(): { pid: number; host: string } {
  return { pid: process.pid, host: hostname() };
}

export function thisHost(): string {
  return hostname();
}

/** Whether a process with this pid runs on this machine (signal 0 probes without signalling). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The command line another process was started with (Linux's /proc/PID/cmdline), or undefined where
 * it cannot be read: another system, a process gone, or one hidden from this user (hidepid).
 */
export function commandLineOf(pid: number): string[] | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (words.at(-1) === '') words.pop();
    return words.length === 0 ? undefined : words;
  } catch {
    return undefined;
  }
}
