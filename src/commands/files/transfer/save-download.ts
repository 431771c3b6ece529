// Receiving a file's bytes: hashed as they stream, checked against what the metadata promised, and
// for a file on disk written to a temp file beside the target (`.NAME.<random>.part`) that becomes
// the target only once it is complete, verified and synced. A failed or interrupted download
// leaves no file at the target and no temp file; an existing file there stays as it was. One
// killed outright (kill -9) cannot clean up: the next download to the same target removes its
// temp file (sweepDeadParts).
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import type { DownloadResponse } from '../../../core/api-client.js';
import { AppError, ContractError, InterruptedError, LocalEnvironmentError, NetworkError } from '../../../core/errors.js';
import { contentMismatch, type Content, type ExpectedContent } from './content.js';
import { trackTempFile, untrackTempFile } from '../../../core/temp-files.js';
import { createOwned, defaultFileMode } from '../../../core/owned-file.js';
import { fileErrorWords } from '../../../core/file-error-words.js';
import { ownProcess } from '../../../core/process-facts.js';
import escapeStringRegexp from 'escape-string-regexp';
import { removeDeadTemps } from '../../../core/dead-temps.js';

export type ByteBody = DownloadResponse['body'];

export interface ReceiveOptions {
  expected: ExpectedContent;
  /** For messages: "file 3f2b…". */
  what: string;
  signal: AbortSignal;
  onProgress?: ((received: number) => void) | undefined;
}

/** Read the whole body through `write`, hashing it. Maps failures to the error hierarchy. */
async function receive(body: ByteBody, write: (chunk: Uint8Array) => Promise<void>, options: ReceiveOptions): Promise<Content> {
  const { signal } = options;
  const hash = createHash('sha256');
  let size = 0;
  // A stalled read must end on Ctrl-C too, not only at the next chunk.
  const onAbort = () => body.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of body) {
      signal.throwIfAborted();
      size += chunk.byteLength;
      // The record promised a size: a byte past it is a broken contract, not more file (an endless
      // answer would otherwise fill the disk). Nothing of the chunk that crosses it is written.
      const promised = options.expected.size;
      if (promised !== undefined && size > promised) {
        throw new ContractError(`the service sent more than the ${promised} bytes the record of ${options.what} promises; stopped reading`);
      }
      hash.update(chunk);
      try {
        await write(chunk);
      } catch (error) {
        // Our side failed (a full disk, a closed pipe), not the connection: exit 2, not 3.
        throw new LocalEnvironmentError(`could not write ${options.what}: ${fileErrorWords(error)}`, { cause: error });
      }
      options.onProgress?.(size);
    }
    signal.throwIfAborted();
  } catch (error) {
    body.destroy();
    if (signal.aborted) throw new InterruptedError();
    if (error instanceof AppError) throw error;
    throw new NetworkError(`the download of ${options.what} broke off after ${size} bytes: ${(error as Error).message}`, { cause: error });
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  return { size, sha256: hash.digest('hex') };
}

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset);
    offset += bytesWritten;
  }
}

/** About what one write to the file carries: the body arrives in 16 KiB chunks. */
const WRITE_BYTES = 1024 * 1024;

/**
 * Writes the body to the file in ~1 MiB writes with one in flight while the next one fills:
 * 32,768 awaited 16 KiB writes for 512 MiB cost a context switch each (issue 19). A failed write
 * is reported by the next write() or by end().
 */
function coalescingWriter(handle: FileHandle, fail: (error: unknown) => Error) {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let inFlight: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  const start = (): void => {
    if (pendingBytes === 0) return;
    const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    inFlight = writeAll(handle, data).catch((error: unknown) => {
      failure ??= fail(error);
    });
  };
  return {
    async write(chunk: Uint8Array): Promise<void> {
      if (failure) throw failure;
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      if (pendingBytes < WRITE_BYTES) return;
      await inFlight;
      if (failure) throw failure;
      start();
    },
    async end(): Promise<void> {
      await inFlight;
      start();
      await inFlight;
      if (failure) throw failure;
    },
  };
}

function localFailure(shown: string, error: unknown): LocalEnvironmentError {
  return new LocalEnvironmentError(`could not write ${shown}: ${fileErrorWords(error)}`, { cause: error });
}

export interface FileTarget {
  /** Absolute path the file is renamed to. */
  path: string;
  /** Mode of a file being replaced, kept on the new one. */
  mode?: number | undefined;
  /** The path as the user gave it, for messages. */
  shown: string;
}

/** A host name as a short tag in a file name (a name may be long or hold any character). */
function hostTag(host: string): string {
  return createHash('sha256').update(host).digest('hex').slice(0, 8);
}

/**
 * The temp file of a download to `targetPath`: `.NAME.<random>.<pid>-<host tag>.part`, so that a
 * later download can tell whose it is and whether that process still runs.
 */
export function partPathFor(targetPath: string, owner: { pid: number; host: string } = ownProcess()): string {
  return join(dirname(targetPath), `.${basename(targetPath)}.${randomBytes(6).toString('hex')}.${owner.pid}-${hostTag(owner.host)}.part`);
}

/**
 * Remove the temp files earlier downloads to this target left when they were killed outright
 * (core/dead-temps.ts: a plain file of this user's whose process is gone). Only names partPathFor
 * makes for this target are looked at, and only those made on this machine (its host tag: a process
 * on another machine sharing the directory cannot be asked whether it runs). Temp files named
 * before the pid was in the name (`.NAME.<random>.part`) cannot be judged and are left.
 */
function sweepDeadParts(targetPath: string): Promise<void> {
  const names = new RegExp(
    `^\\.${escapeStringRegexp(basename(targetPath))}\\.[0-9a-f]{12}\\.([1-9][0-9]*)-${hostTag(ownProcess().host)}\\.part$`,
  );
  return removeDeadTemps(dirname(targetPath), names);
}

/** Stream `body` to `target` atomically, verified against `options.expected` before the rename. */
export async function receiveToFile(body: ByteBody, target: FileTarget, options: ReceiveOptions): Promise<Content> {
  const temp = partPathFor(target.path);
  let handle: FileHandle;
  try {
    // Private while it is written (or the replaced file's mode, never wider): created through the one
    // safe opener, O_EXCL|O_NOFOLLOW; the final mode is given once it is complete.
    handle = await createOwned(temp, { mode: target.mode ?? 0o600 });
  } catch (error) {
    body.destroy();
    throw localFailure(target.shown, error);
  }
  trackTempFile(temp);
  // Before the bytes arrive: a dead download's temp file may be as big as this one will be.
  await sweepDeadParts(target.path);
  let renamed = false;
  try {
    const writer = coalescingWriter(handle, (error) => localFailure(target.shown, error));
    const content = await receive(body, (chunk) => writer.write(chunk), options);
    try {
      await writer.end();
    } catch (error) {
      throw new LocalEnvironmentError(`could not write ${options.what}: ${fileErrorWords(error)}`, { cause: error });
    }
    const mismatch = contentMismatch(content, options.expected);
    if (mismatch) throw new ContractError(`${options.what} arrived with ${mismatch}; nothing was written to ${target.shown}`);
    try {
      await handle.sync();
      await handle.chmod(target.mode ?? defaultFileMode());
      await handle.close();
      await rename(temp, target.path);
    } catch (error) {
      throw localFailure(target.shown, error);
    }
    renamed = true;
    return content;
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
    }
    untrackTempFile(temp);
  }
}

/** Stream `body` to `out` with backpressure, then verify. A mismatch is found only after the bytes went out. */
export async function receiveToStream(body: ByteBody, out: Writable, options: ReceiveOptions): Promise<Content> {
  const content = await receive(
    body,
    async (chunk) => {
      if (!out.write(chunk)) await once(out, 'drain', { signal: options.signal });
    },
    options,
  );
  const mismatch = contentMismatch(content, options.expected);
  if (mismatch) throw new ContractError(`${options.what} arrived with ${mismatch}; the bytes already written to stdout are not the file`);
  return content;
}
