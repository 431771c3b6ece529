// Lock files. withFileLock: for changes that must not interleave across processes (config.json's
// profiles); the wait for another holder is asynchronous, has a deadline, recognises a stale lock,
// and ends at once on Ctrl-C (the context's signal) instead of after the deadline, as a blocking
// wait did. takeRunLock: one long run at a time (an export to a directory), without waiting.
// A lock is read with lstat first and then through owned-file.ts (O_NOFOLLOW|O_NONBLOCK, a few bytes
// at most): a FIFO, a device or a link planted at its name never hangs the CLI nor fills its memory.
import { closeSync, lstatSync, rmSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { InterruptedError, LocalEnvironmentError, UsageError } from './errors.js';
import { createOwned, createOwnedSync, ownedFileProblem, readOwnedSync, UnsafeFileError } from './owned-file.js';
import { fileErrorWords } from './file-error-words.js';

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;
/** How long to wait for another holder before giving up (exit 2). */
export const LOCK_WAIT_MS = 5_000;
/** A wait this long is worth a line on stderr, so a pause is not a mystery. */
const NOTICE_AFTER_MS = 250;
const RETRY_MS = 20;

export interface LockWaitOptions {
  /** Ctrl-C: the wait ends at once with InterruptedError (exit 130); the lock is not taken. */
  signal?: AbortSignal | undefined;
  /** Told once, when the wait has lasted NOTICE_AFTER_MS: who holds the lock (a pid), if known. */
  onWait?: ((holder: string | undefined) => void) | undefined;
}

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
  // A FIFO, a device, another user's file, a hard link: not ours to read, wait for or remove.
  const problem = ownedFileProblem(info);
  if (problem !== undefined) throw new UnsafeFileError(lockPath, problem);
  if (Date.now() - info.mtimeMs > STALE_LOCK_MS) return 'left behind';
  const pid = Number.parseInt(readLockOwner(lockPath) ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) return 'its process is gone';
  return undefined;
}

/** The pid a lock holds (its first few bytes); undefined when unreadable or not a lock of ours. */
function readLockOwner(lockPath: string): string | undefined {
  try {
    return readOwnedSync(lockPath, 32)?.trim() || undefined;
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

/** Create the lock with O_EXCL (which never follows a symlink), holding our pid; false when it exists. */
function tryCreate(lockPath: string): boolean {
  let fd: number;
  try {
    fd = createOwnedSync(lockPath, { mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function interrupted(signal: AbortSignal): InterruptedError {
  return signal.reason instanceof InterruptedError ? signal.reason : new InterruptedError();
}

/** Wait until the lock is ours: another holder for at most LOCK_WAIT_MS, Ctrl-C at any moment. */
async function acquire(lockPath: string, options: LockWaitOptions): Promise<void> {
  const { signal } = options;
  const started = Date.now();
  let told = false;
  for (;;) {
    // A free lock is taken even after Ctrl-C (a rollback may need it); only a wait is interrupted.
    if (tryCreate(lockPath)) return;
    const stale = staleness(lockPath);
    if (stale !== undefined && stale !== 'released') {
      try {
        rmSync(lockPath, { force: true }); // rm removes a link, not its target
        continue;
      } catch {
        // Not ours to remove (permissions): reported at the deadline.
      }
    }
    if (stale === 'released') continue;
    const waited = Date.now() - started;
    if (waited > LOCK_WAIT_MS) {
      const owner = readLockOwner(lockPath);
      throw new LocalEnvironmentError(
        `${lockPath} is held by another appraisal process${owner ? ` (pid ${owner})` : ''}; gave up after ${LOCK_WAIT_MS / 1000} s`,
        {
          hint: `wait for that command to finish and run this again; if no appraisal command is running, remove ${lockPath}`,
        },
      );
    }
    if (!told && waited >= NOTICE_AFTER_MS) {
      told = true;
      options.onWait?.(readLockOwner(lockPath));
    }
    try {
      await sleep(RETRY_MS, undefined, { signal });
    } catch (error) {
      if (signal?.aborted) throw interrupted(signal);
      throw error;
    }
  }
}

/**
 * Run `work` while holding `lockPath` (removed afterwards). A lock whose process is gone, an old one,
 * or a symlink at the path is stale and taken over; a live holder is waited for (see acquire).
 */
export async function withFileLock<T>(lockPath: string, work: () => T | Promise<T>, options: LockWaitOptions = {}): Promise<T> {
  await acquire(lockPath, options);
  try {
    return await work();
  } finally {
    rmSync(lockPath, { force: true });
  }
}

/**
 * Take `lockPath` for a long asynchronous run (an export), without waiting: created exclusively
 * with our pid in it. Resolves to the function that releases it, or to the pid of the live process
 * holding it (0: unknown). A lock whose process is gone (`kill -9`) is taken over. Anything at the
 * name that is not a regular file of ours with one link (a symlink, a FIFO, another user's file) is
 * an UnsafeFileError (exit 2), never read, waited for or removed.
 */
export async function takeRunLock(lockPath: string): Promise<(() => Promise<void>) | number> {
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await createOwned(lockPath, { mode: 0o600 });
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const info = (() => {
        try {
          return lstatSync(lockPath);
        } catch {
          return undefined; // removed meanwhile: try again
        }
      })();
      if (info === undefined) continue;
      const problem = ownedFileProblem(info);
      if (problem !== undefined) throw new UnsafeFileError(lockPath, problem);
      const pid = Number.parseInt(readLockOwner(lockPath) ?? '', 10);
      const owner = Number.isInteger(pid) && pid > 0 ? pid : 0;
      // Taken again by someone else since the stale one was removed: theirs.
      if ((owner > 0 && isAlive(owner)) || attempt > 0) return owner;
      await rm(lockPath, { force: true });
    }
  }
}

/** How a run names the lock it could not take: as its command line names the target. */
export interface RunLockWords {
  /** The target as the user gave it, for a lock that cannot be created: `--out x.csv`, `--dir snap`. */
  target: string;
  /** What a live holder is doing to it: `--out x.csv is being written by another appraisal export`. */
  busy: string;
  /** What to do meanwhile, before "if none is running, remove LOCK" (default: wait for it to finish). */
  meanwhile?: string;
}

/**
 * takeRunLock for a command: a live holder is exit 2 at once (its pid named, the lock to remove if
 * none runs), a lock that cannot be created is exit 2 naming why; the release it resolves to may be
 * called more than once. The one wrapper every long run (export, import, watch) takes its lock with.
 */
export async function holdRunLock(lockPath: string, words: RunLockWords): Promise<() => Promise<void>> {
  let taken;
  try {
    taken = await takeRunLock(lockPath);
  } catch (error) {
    if (error instanceof UnsafeFileError) throw error;
    throw new UsageError(`${words.target}: cannot create the lock ${lockPath} (${fileErrorWords(error)})`);
  }
  if (typeof taken === 'number') {
    throw new UsageError(`${words.busy}${taken > 0 ? ` (pid ${taken})` : ''}`, {
      hint: `${words.meanwhile ?? 'wait for it to finish'}; if none is running, remove ${lockPath}`,
    });
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await taken().catch(() => undefined);
  };
}
