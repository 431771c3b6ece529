// `--out PATH` written atomically: to a hidden temp file beside PATH, renamed over it only once
// everything was written and synced. A failed or interrupted export never leaves a file at PATH that
// looks complete, and never a stray temp file. The temp file is also what split.ts writes each part to.
import { randomBytes } from 'node:crypto';
import { rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDirectory } from '../core/atomic-file.js';
import { UsageError } from '../core/errors.js';
import { createOwned, defaultFileMode } from '../core/owned-file.js';
import type { OutTarget } from '../core/out-path.js';
import type { OutputPlan } from '../core/output-plan.js';
import { trackTempFile, untrackTempFile } from '../core/temp-files.js';
import { BufferedFileWriter, writeFailure, type BufferedWriterOptions } from './buffered-writer.js';
import type { Destination } from './destination.js';
import { fileErrorWords } from '../core/file-error-words.js';

function describeCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
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
    throw new UsageError(`--out ${out}: cannot create a file in ${dir} (${fileErrorWords(error)})`);
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

/**
 * A file written atomically, as a Destination: a temp file beside `path` (created with `mode`, else
 * 0600), fsynced and renamed over `path` by finish() with `mode` (else the default), the directory
 * then synced. `display` is the path as the user gave it.
 */
export async function atomicFile(path: string, display: string, mode?: number): Promise<Destination> {
  const temp = await createTempBeside(path, display, { mode });
  return {
    displayPath: display,
    async write(text) {
      await temp.writer.write(text);
      return true;
    },
    async finish() {
      try {
        await temp.writer.complete(finalMode({ mode }));
        await rename(temp.path, path);
      } catch (error) {
        throw writeFailure(display, error);
      }
      temp.placed();
      await syncDirectory(dirname(path));
    },
    async discard() {
      await temp.remove();
    },
  };
}

/** The plan's `--out` file as a Destination (the plan checked the path, once). */
export async function atomicOutFile(plan: OutputPlan): Promise<Destination> {
  const target = (await plan.target())!;
  return atomicFile(target.path, plan.outPath!, target.mode);
}
