// Replace a small file all at once: write a temp file beside it (created with the final mode),
// fsync, rename. A reader — or a crash — sees the old file or the new one, never half of either.
// Streams (exports, downloads) have their own writers in output/destination.ts and files/download.ts.
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, lstatSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { LocalEnvironmentError } from './errors.js';
import { chmod, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Final mode of the file; default 0600 (most of what we write is private). */
  mode?: number;
}

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const mode = options.mode ?? 0o600;
  const temp = tempPathFor(path);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; chmod makes the mode exact whatever the umask.
    await chmod(temp, mode);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Make a rename in `dir` durable. Not every platform lets a directory be opened: best effort. */
export async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The file is written and renamed; only crash-durability of the rename is not guaranteed.
  }
}

export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const mode = options.mode ?? 0o600;
  const temp = tempPathFor(path);
  try {
    const fd = openSync(temp, 'wx', mode);
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;
/** How long to wait for another holder before giving up (exit 2). Bounded, so Ctrl-C is seen soon. */
const LOCK_WAIT_MS = 5_000;

/** Why the lock at `lockPath` can be taken over, or undefined while a live holder may own it. */
function staleness(lockPath: string): string | undefined {
  let info;
  try {
    info = lstatSync(lockPath);
  } catch {
    return 'released'; // Gone meanwhile: try again at once.
  }
  // A symlink is not a lock this CLI made (following a dangling one is what used to spin forever).
  if (info.isSymbolicLink()) return 'a symbolic link';
  // Anything else that is not a file (a directory…) is left for the user: reported at the deadline.
  if (!info.isFile()) return undefined;
  if (Date.now() - info.mtimeMs > STALE_LOCK_MS) return 'left behind';
  const pid = Number.parseInt(readLockOwner(lockPath) ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) return 'its process is gone';
  return undefined;
}

function readLockOwner(lockPath: string): string | undefined {
  try {
    return readFileSync(lockPath, { encoding: 'utf8', flag: 'r' }).slice(0, 32);
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Run `work` while holding `lockPath` (created exclusively with O_EXCL, which never follows a
 * symlink; it holds our pid; removed afterwards). Waits for another holder up to LOCK_WAIT_MS, then
 * fails with exit 2 naming the lock. A lock whose process is gone, an old one, or anything at the
 * path that is a symlink is recognised as stale and removed (rm removes a link, not its target). Every wait sleeps: the loop never spins.
 */
export function withFileLock<T>(lockPath: string, work: () => T): T {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const stale = staleness(lockPath);
      if (stale !== undefined && stale !== 'released') {
        try {
          rmSync(lockPath, { force: true });
        } catch {
          // Not ours to remove (permissions): reported at the deadline.
        }
      }
      if (Date.now() > deadline) {
        const owner = readLockOwner(lockPath)?.trim();
        throw new LocalEnvironmentError(`${lockPath} is held by another appraisal process${owner ? ` (pid ${owner})` : ''}; gave up after ${LOCK_WAIT_MS / 1000} s`, {
          hint: `wait for that command to finish and run this again; if no appraisal command is running, remove ${lockPath}`,
        });
      }
      // Synchronous callers (config writes) wait without spinning the CPU; a stale lock was just
      // removed, so the first retry after it is immediate.
      if (stale === undefined || attempt > 20) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lockPath, { force: true });
  }
}

/**
 * Take `lockPath` for a long asynchronous run (an export), without waiting: created exclusively
 * with our pid in it. Resolves to the function that releases it, or to the pid of the live process
 * holding it (0: unknown). A lock whose process is gone (`kill -9`) is taken over.
 */
export async function takeRunLock(lockPath: string): Promise<(() => Promise<void>) | number> {
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o644);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readLockOwner(lockPath) ?? '', 10);
      const owner = Number.isInteger(pid) && pid > 0 ? pid : 0;
      // Taken again by someone else since the stale one was removed: theirs.
      if ((owner > 0 && isAlive(owner)) || attempt > 0) return owner;
      await rm(lockPath, { force: true });
    }
  }
}
