// Open a file the CLI owns, safely (issue 26, docs/THREAT-MODEL.md). Whoever can write where the CLI
// writes (a shared export directory, a cron job's log directory) can plant a symbolic or hard link, a
// FIFO, a device or a forged file at a name the CLI will use. So every file the CLI creates is made
// with O_CREAT|O_EXCL|O_NOFOLLOW and its final mode (never 0644 first, chmodded later), and every file
// it opens again (a resumed partial, a checkpoint, a lock, an audit log, the config) is opened with
// O_NOFOLLOW|O_NONBLOCK and checked on the open descriptor: a regular file, owned by the current user,
// with one link, not writable by others. Anything else is one UnsafeFileError (exit 2) naming it.
// Reads are bounded by the bytes actually read, never by st_size (a FIFO or /dev/zero has none).
// Over 300 lines because creating, re-opening, checking and reading bounded are one policy; split, a
// caller could pick a step and skip the checks that make it safe.
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { lstat, open, stat, type FileHandle } from 'node:fs/promises';
import { LocalEnvironmentError } from './errors.js';
import { shellWord } from './shell-word.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const { O_RDONLY, O_WRONLY, O_RDWR, O_APPEND, O_CREAT, O_EXCL } = constants;

/** A file at a name the CLI uses is not one it can trust: exit 2, naming the file. */
export class UnsafeFileError extends LocalEnvironmentError {
  override readonly name: string = 'UnsafeFileError';
  constructor(
    readonly path: string,
    readonly problem: string,
    hint?: string,
  ) {
    super(`${path} ${problem}; refusing to use it`, { hint: hint ?? hintFor(path, problem) });
  }
}

/**
 * How to fix what ownedFileProblem found, in one line. A command in it holds the path as one shell
 * word: a hint is pasted as it is, and `chmod 600 /srv/my dir/secret` changes three other names.
 */
function hintFor(path: string, problem: string): string {
  const file = path.replace(/^--[a-z-]+ /, '');
  if (problem.includes('read by other users')) return `run \`chmod 600 ${shellWord(file)}\` if it is yours, else remove it`;
  if (problem.includes('written by other users')) return `run \`chmod go-w ${shellWord(file)}\` if it is yours, else remove it`;
  if (problem.includes('owned by another user')) return `remove ${file}, or give it to this user (\`chown\`), then run the command again`;
  // Most often a slip of the user's (a directory where a file's name belongs), not a planted one.
  if (problem.startsWith('is a directory')) return 'give the path of a file, not of a directory';
  return `this CLI did not make it so: remove ${file} (or find out who put it there), then run the command again`;
}

export interface OwnedRules {
  /** No permission bits for group or others at all (key files). Default: only no write for them. */
  private?: boolean;
  /** Shown in messages instead of the path. */
  display?: string;
}

/** The current user's uid; undefined where there is none to compare (Windows). */
function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

function kindOf(info: Stats): string {
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** What is wrong with a file the CLI owns, from its stat; undefined when nothing is. */
export function ownedFileProblem(info: Stats, rules: OwnedRules = {}): string | undefined {
  if (info.isSymbolicLink()) return 'is a symbolic link';
  if (!info.isFile()) return `is ${kindOf(info)}, not a regular file`;
  const uid = currentUid();
  if (uid !== undefined && info.uid !== uid) return `is owned by another user (uid ${info.uid})`;
  if (info.nlink !== 1) return `has ${info.nlink} hard links (another name points at the same file)`;
  if (process.platform === 'win32') return undefined;
  const mode = info.mode & 0o777;
  if (rules.private && (mode & 0o077) !== 0) return `can be read by other users (mode ${mode.toString(8).padStart(3, '0')})`;
  if ((mode & 0o022) !== 0) return `can be written by other users (mode ${mode.toString(8).padStart(3, '0')})`;
  return undefined;
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** An open error that means "this is not a plain file at this name", as an UnsafeFileError. */
function openRefusal(error: unknown, shown: string): UnsafeFileError | undefined {
  const code = errno(error);
  // ELOOP: the last component is a symbolic link (O_NOFOLLOW). ENXIO: a FIFO without a reader, or a
  // socket, opened for writing with O_NONBLOCK. EISDIR: a directory opened for writing.
  if (code === 'ELOOP' || code === 'EMLINK') return new UnsafeFileError(shown, 'is a symbolic link');
  if (code === 'ENXIO') return new UnsafeFileError(shown, 'is a FIFO or socket, not a regular file');
  if (code === 'EISDIR') return new UnsafeFileError(shown, 'is a directory, not a regular file');
  return undefined;
}

export type ReopenMode = 'read' | 'append' | 'update';

const REOPEN_FLAGS: Record<ReopenMode, number> = {
  read: O_RDONLY,
  append: O_WRONLY | O_APPEND,
  update: O_RDWR,
};

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Open an existing file the CLI made: undefined when there is none; UnsafeFileError when the name is
 * not a regular file of ours with one link (checked before the open with lstat — a device is never
 * opened — and again on the descriptor, so a swap in between is caught too).
 */
export async function openOwned(path: string, how: ReopenMode, rules: OwnedRules = {}): Promise<FileHandle | undefined> {
  const shown = rules.display ?? path;
  let before: Stats;
  try {
    before = await lstat(path);
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw error;
  }
  const early = ownedFileProblem(before, rules);
  if (early !== undefined) throw new UnsafeFileError(shown, early);
  let handle: FileHandle;
  try {
    handle = await open(path, REOPEN_FLAGS[how] | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw openRefusal(error, shown) ?? error;
  }
  try {
    const info = await handle.stat();
    const problem = ownedFileProblem(info, rules) ?? (sameFile(before, info) ? undefined : 'was replaced while being opened');
    if (problem !== undefined) throw new UnsafeFileError(shown, problem);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  return handle;
}

/** openOwned, synchronously (the config and its lock are read synchronously). Returns a descriptor. */
export function openOwnedSync(path: string, how: ReopenMode, rules: OwnedRules = {}): number | undefined {
  const shown = rules.display ?? path;
  let before: Stats;
  try {
    before = lstatSync(path);
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw error;
  }
  const early = ownedFileProblem(before, rules);
  if (early !== undefined) throw new UnsafeFileError(shown, early);
  let fd: number;
  try {
    fd = openSync(path, REOPEN_FLAGS[how] | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw openRefusal(error, shown) ?? error;
  }
  try {
    const info = fstatSync(fd);
    const problem = ownedFileProblem(info, rules) ?? (sameFile(before, info) ? undefined : 'was replaced while being opened');
    if (problem !== undefined) throw new UnsafeFileError(shown, problem);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

export interface CreateOptions extends OwnedRules {
  /** The file's mode from its first instant; default 0600. */
  mode?: number;
  /** Open for appending instead of writing from the start. */
  append?: boolean;
  /** Open for reading too. */
  read?: boolean;
}

function createFlags(options: CreateOptions): number {
  const access = options.read ? O_RDWR : O_WRONLY;
  return O_CREAT | O_EXCL | O_NOFOLLOW | access | (options.append ? O_APPEND : 0);
}

/**
 * Create a new file with O_EXCL (EEXIST when the name is taken, whatever it is: a link is never
 * followed) and its final mode: created with it, then set exactly on the descriptor (the umask may
 * have taken bits away) — never a wider mode at any moment.
 */
export async function createOwned(path: string, options: CreateOptions = {}): Promise<FileHandle> {
  const mode = options.mode ?? 0o600;
  const handle = await open(path, createFlags(options), mode);
  if (process.platform !== 'win32') {
    try {
      await handle.chmod(mode);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }
  return handle;
}

/** createOwned, synchronously. Returns a descriptor. */
export function createOwnedSync(path: string, options: CreateOptions = {}): number {
  const mode = options.mode ?? 0o600;
  const fd = openSync(path, createFlags(options), mode);
  if (process.platform !== 'win32') {
    try {
      fchmodSync(fd, mode);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }
  return fd;
}

/**
 * At most `maxBytes` of an open descriptor, counted as they are read (a FIFO, /dev/zero or a growing
 * file reports no useful st_size). `over` is true when there was more.
 */
export function readAtMostSync(fd: number, maxBytes: number): { bytes: Buffer; over: boolean } {
  const buffer = Buffer.alloc(maxBytes + 1);
  let length = 0;
  while (length < buffer.length) {
    let read: number;
    try {
      read = readSync(fd, buffer, length, buffer.length - length, null);
    } catch (error) {
      if (errno(error) === 'EAGAIN') break; // an empty FIFO opened with O_NONBLOCK
      throw error;
    }
    if (read === 0) break;
    length += read;
  }
  return { bytes: buffer.subarray(0, Math.min(length, maxBytes)), over: length > maxBytes };
}

/** readAtMostSync for a FileHandle. */
export async function readAtMost(handle: FileHandle, maxBytes: number): Promise<{ bytes: Buffer; over: boolean }> {
  const buffer = Buffer.alloc(maxBytes + 1);
  let length = 0;
  while (length < buffer.length) {
    let read: number;
    try {
      ({ bytesRead: read } = await handle.read(buffer, length, buffer.length - length, null));
    } catch (error) {
      if (errno(error) === 'EAGAIN') break;
      throw error;
    }
    if (read === 0) break;
    length += read;
  }
  return { bytes: buffer.subarray(0, Math.min(length, maxBytes)), over: length > maxBytes };
}

/**
 * The text of a small file the CLI owns (a lock's pid, the config, a state file): undefined when
 * there is none; UnsafeFileError when it is not ours (see openOwned), or longer than `maxBytes` with
 * `refuseLonger` (else the first `maxBytes` only).
 */
export function readOwnedSync(path: string, maxBytes: number, rules: OwnedRules & { refuseLonger?: boolean } = {}): string | undefined {
  const fd = openOwnedSync(path, 'read', rules);
  if (fd === undefined) return undefined;
  try {
    const { bytes, over } = readAtMostSync(fd, maxBytes);
    if (over && rules.refuseLonger) throw new UnsafeFileError(rules.display ?? path, `is larger than ${maxBytes} bytes`);
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** readOwnedSync, asynchronously. */
export async function readOwned(
  path: string,
  maxBytes: number,
  rules: OwnedRules & { refuseLonger?: boolean } = {},
): Promise<string | undefined> {
  const handle = await openOwned(path, 'read', rules);
  if (handle === undefined) return undefined;
  try {
    const { bytes, over } = await readAtMost(handle, maxBytes);
    if (over && rules.refuseLonger) throw new UnsafeFileError(rules.display ?? path, `is larger than ${maxBytes} bytes`);
    return bytes.toString('utf8');
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** What `look` (lstat, or stat through links) says of `path`; undefined when there is nothing to look at. */
async function statIfThere(path: string, look: typeof lstat): Promise<Stats | undefined> {
  try {
    return await look(path);
  } catch {
    return undefined;
  }
}

/**
 * A symbolic link another user made at `path`, for a file another program opens there itself
 * (DuckDB's database and its `.wal` beside it, which the CLI cannot open with O_NOFOLLOW for it):
 * writing through it would write into whatever file it points at. A link of the current user's own is
 * theirs to make. UnsafeFileError naming it; nothing when there is none.
 */
export async function refuseOthersLink(path: string, display: string): Promise<void> {
  const info = await statIfThere(path, lstat);
  const uid = currentUid();
  if (info?.isSymbolicLink() && uid !== undefined && info.uid !== uid)
    throw new UnsafeFileError(
      display,
      `is a symbolic link another user made (uid ${info.uid}): writing through it would write into the file it points at`,
    );
}

/**
 * DuckDB's log beside a database (`PATH.wal`), which DuckDB replays into the database when it opens
 * it (a read-only open too, in memory), then removes. One another user left there (a file of theirs,
 * made in a directory both can write, or a hard link to a file of ours) had its statements run in
 * the user's database: tables dropped, rows forged, and the log gone after. Refused unless it is the
 * current user's, with one link; a link of their own is theirs (refuseOthersLink). Not its mode: a
 * log DuckDB wrote under umask 002 is group-writable and still the user's.
 */
export async function refuseOthersLog(path: string, display: string): Promise<void> {
  const info = await statIfThere(path, lstat);
  if (info === undefined) return;
  const uid = currentUid();
  if (info.isSymbolicLink() || uid === undefined) return refuseOthersLink(path, display);
  const hint = `DuckDB replays a .wal into the database: remove ${shellWord(path)} unless you know it is yours (a sync of yours that was killed leaves one), then run the command again`;
  if (info.uid !== uid)
    throw new UnsafeFileError(display, `is owned by another user (uid ${info.uid}): DuckDB would replay it into the database`, hint);
  if (info.isFile() && info.nlink !== 1)
    throw new UnsafeFileError(display, `has ${info.nlink} hard links (another name points at the same file)`, hint);
}

/**
 * A FIFO or socket at `path` (or where a link there points), for a file another program opens
 * itself (DuckDB's database and its `.wal`): DuckDB's open of a FIFO waits for a writer forever, and
 * no signal ends it. One planted at the default `appraisal.duckdb` of a shared directory hung every
 * sync run there. UnsafeFileError naming it; nothing otherwise.
 */
export async function refuseSpecialFile(path: string, display: string): Promise<void> {
  const info = await statIfThere(path, stat);
  // A device opens at once (the full-disk test links the .wal to /dev/full): only these block.
  if (info !== undefined && (info.isFIFO() || info.isSocket()))
    throw new UnsafeFileError(display, `is ${kindOf(info)}, not a regular file`);
}

/** What is wrong with a directory the CLI keeps private (0700, ours, not a link); undefined when nothing. */
export function privateDirProblem(info: Stats): string | undefined {
  if (info.isSymbolicLink()) return 'is a symbolic link';
  if (!info.isDirectory()) return `is ${kindOf(info)}, not a directory`;
  const uid = currentUid();
  if (uid !== undefined && info.uid !== uid) return `is owned by another user (uid ${info.uid})`;
  if (process.platform !== 'win32' && (info.mode & 0o777) !== 0o700) {
    return `has mode ${(info.mode & 0o777).toString(8).padStart(3, '0')}, not 700`;
  }
  return undefined;
}

let umaskCache: number | undefined;

/**
 * The mode a new export file ends with when it replaces nothing: 0644 less the umask, as this CLI
 * always made them. It is written 0600 and given this mode only once complete.
 */
export function defaultFileMode(): number {
  return 0o644 & ~currentUmask();
}

/** The mode a finished directory gets (a snapshot, built 0700): 0755 less the umask. */
export function defaultDirMode(): number {
  return 0o755 & ~currentUmask();
}

function currentUmask(): number {
  // process.umask() without an argument only reads it (DEP0139 is documentation-only).
  umaskCache ??= process.platform === 'win32' ? 0o022 : process.umask();
  return umaskCache;
}

/**
 * What is wrong with a directory whose files the CLI trusts (the config dir, as ssh checks ~/.ssh):
 * it must be a directory owned by the current user (or root) that no one else can write to.
 * `info` comes from stat: a link to such a directory is fine, the directory itself is checked.
 */
export function trustedDirProblem(info: Stats): string | undefined {
  if (!info.isDirectory()) return `is ${kindOf(info)}, not a directory`;
  const uid = currentUid();
  if (uid !== undefined && info.uid !== uid && info.uid !== 0) return `is owned by another user (uid ${info.uid})`;
  if (process.platform !== 'win32' && (info.mode & 0o022) !== 0) {
    return `can be written by other users (mode ${(info.mode & 0o777).toString(8).padStart(3, '0')})`;
  }
  return undefined;
}
