// Where output goes: stdout (with backpressure, ending quietly when the reader goes away, as with
// `| head`), or `--out PATH`, written to a temp file beside PATH and renamed over it only once
// everything was written and synced. A failed or interrupted export never leaves a file at PATH
// that looks complete, and never a stray temp file.
import { randomBytes } from 'node:crypto';
import { lstat, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Context } from '../core/context.js';
import { syncDirectory } from '../core/atomic-file.js';
import { UsageError } from '../core/errors.js';
import { createOwned, defaultFileMode } from '../core/owned-file.js';
import { trackTempFile, untrackTempFile } from '../core/temp-files.js';
import { BufferedFileWriter, writeFailure, type BufferedWriterOptions } from './buffered-writer.js';
import { stdoutDestination, type Destination, type StdoutOptions } from './stdout-destination.js';

export type { Destination, StdoutOptions } from './stdout-destination.js';
export { stdoutDestination } from './stdout-destination.js';
export { writeFailure } from './buffered-writer.js';

// ---- --out PATH -----------------------------------------------------------------------------

function describeCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export interface OutTarget {
  /** Absolute path the file is renamed to (symlinks resolved to their target). */
  path: string;
  /** Mode of the file being replaced, kept on the new one. */
  mode: number | undefined;
}

/**
 * Check `--out` before any work: the parent directory exists and PATH is not a directory or a
 * device. Resolves to the absolute target; UsageError (exit 2) otherwise.
 */
export async function checkOutPath(ctx: Context, out: string): Promise<OutTarget> {
  if (out.trim() === '') throw new UsageError('--out needs a file path');
  const path = resolve(ctx.cwd, out);
  if (/[\\/]$/.test(out)) throw new UsageError(`--out ${out} names a directory; give a file path`);
  // A symbolic link at PATH is refused: writing through it would silently replace whatever file it
  // points at (another user's, a config file…), and replacing the link would surprise whoever made it.
  const link = await lstat(path).catch(() => undefined);
  if (link?.isSymbolicLink()) {
    const target = await realpath(path).catch(() => undefined);
    throw new UsageError(`--out ${out} is a symbolic link${target ? ` to ${target}` : ' (dangling)'}; refusing to write through it`, {
      hint: target
        ? `write to the file itself (--out ${target}), or remove the link first`
        : 'remove the link first, or choose another path',
    });
  }
  let existing;
  try {
    existing = await stat(path);
  } catch (error) {
    const code = describeCode(error);
    if (code === 'EACCES') throw new UsageError(`--out ${out}: permission denied`);
    if (code === 'ENOTDIR') throw new UsageError(`--out ${out}: ${dirname(out)} is not a directory`);
    if (code !== 'ENOENT') throw new UsageError(`--out ${out}: cannot use this path (${code ?? 'unknown error'})`);
  }
  if (existing?.isDirectory()) throw new UsageError(`--out ${out} is a directory; give a file path`);
  if (existing && !existing.isFile()) throw new UsageError(`--out ${out} is not a regular file`);
  const dir = dirname(path);
  try {
    const dirStat = await stat(dir);
    if (!dirStat.isDirectory()) throw new UsageError(`--out ${out}: ${dir} is not a directory`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = describeCode(error);
    if (code === 'ENOENT') throw new UsageError(`--out ${out}: directory ${dir} does not exist`);
    if (code === 'ENOTDIR') throw new UsageError(`--out ${out}: ${dir} is not a directory`);
    if (code === 'EACCES') throw new UsageError(`--out ${out}: permission denied for ${dir}`);
    throw new UsageError(`--out ${out}: cannot use directory ${dir} (${code ?? 'unknown error'})`);
  }
  return { path, mode: existing ? existing.mode & 0o7777 : undefined };
}

export interface TempFile {
  path: string;
  writer: BufferedFileWriter;
  /** The file was renamed into place: the exit hook no longer removes it. */
  placed(): void;
  /** Close and remove it (a failed export). Never throws. */
  remove(): Promise<void>;
}

/** The mode a finished export file gets: the one of the file it replaces, else the default. */
export function finalMode(target: OutTarget | { mode?: number | undefined }): number {
  return target.mode ?? defaultFileMode();
}

/**
 * A new hidden temp file beside `target` (`.NAME.PID.RANDOM.tmp`), removed by an exit hook if the
 * process ends before it is renamed into place or removed. Created with O_EXCL|O_NOFOLLOW and `mode`
 * (default 0600: private while it is written; give the replaced file's mode to keep it narrower).
 * UsageError (exit 2) when the directory takes no new file. `out` is the path as the user gave it.
 */
export async function createTempBeside(
  target: string,
  out: string,
  options: BufferedWriterOptions & { mode?: number | undefined } = {},
): Promise<TempFile> {
  const dir = dirname(target);
  const path = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle;
  try {
    handle = await createOwned(path, { mode: options.mode ?? 0o600 });
  } catch (error) {
    const code = describeCode(error);
    if (code === 'EACCES' || code === 'EPERM') throw new UsageError(`--out ${out}: cannot create files in ${dir} (permission denied)`);
    if (code === 'EROFS') throw new UsageError(`--out ${out}: ${dir} is on a read-only file system`);
    throw new UsageError(`--out ${out}: cannot create a file in ${dir} (${code ?? 'unknown error'})`);
  }
  trackTempFile(path);
  const writer = new BufferedFileWriter(handle, out, options);
  return {
    path,
    writer,
    placed: () => untrackTempFile(path),
    async remove() {
      writer.drop();
      await writer.close();
      await unlink(path).catch(() => undefined);
      untrackTempFile(path);
    },
  };
}

export async function fileDestination(ctx: Context, out: string): Promise<Destination> {
  const target = await checkOutPath(ctx, out);
  const temp = await createTempBeside(target.path, out, { mode: target.mode });
  return {
    displayPath: out,
    async write(text) {
      await temp.writer.write(text);
      return true;
    },
    async finish() {
      try {
        await temp.writer.complete(finalMode(target));
        await rename(temp.path, target.path);
      } catch (error) {
        throw writeFailure(out, error);
      }
      temp.placed();
      await syncDirectory(dirname(target.path));
    },
    async discard() {
      await temp.remove();
    },
  };
}

/** The file `--out` names; undefined for stdout (no --out, or `--out -`). */
export function outPath(ctx: Context): string | undefined {
  const out = ctx.globals.out;
  return out === '-' ? undefined : out;
}

/** The destination for this command: `--out PATH` when given, else stdout. */
export async function openDestination(ctx: Context, options: StdoutOptions = {}): Promise<Destination> {
  const out = outPath(ctx);
  return out === undefined ? stdoutDestination(ctx.io.stdout, options) : fileDestination(ctx, out);
}
