// This process's identity and whether another process still runs, for commands (which never touch
// `process` themselves): `keys lease` names its key after the host and pid that hold it, and
// `keys audit` asks whether that pid is still alive.
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
