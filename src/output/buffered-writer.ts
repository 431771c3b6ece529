// The one buffered file writer behind every export file: `--out` (destination.ts), the partial file
// of a resumable export (resumable.ts) and the parts of a split export (split.ts). Text is gathered
// up to FLUSH_BYTES and written as one Buffer (one syscall per 64 KiB, not one per record), one such
// write in flight while the next gathers; `bytes`
// counts everything handed in, so a caller can note exact byte offsets at record boundaries before
// they reach the disk. A failed write is a LocalEnvironmentError naming the path as the user gave it.
import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { LocalEnvironmentError } from '../core/errors.js';
import { fileErrorWords } from '../core/file-error-words.js';

export const FLUSH_BYTES = 64 * 1024;

/** A failed write to an export file, named for the user (a full disk, a quota, an I/O error). */
export function writeFailure(displayPath: string, error: unknown): LocalEnvironmentError {
  if (error instanceof LocalEnvironmentError) return error;
  return new LocalEnvironmentError(`could not write ${displayPath}: ${fileErrorWords(error)}`, { cause: error });
}

export interface BufferedWriterOptions {
  /** Bytes already in the file before this writer's first byte (a resumed partial file): writing starts there. */
  position?: number;
  /** Keep a sha256 of what this writer writes (split parts, snapshot files). */
  hash?: boolean;
}

export class BufferedFileWriter {
  private pending: string[] = [];
  private pendingBytes = 0;
  /** The file's size once every write started so far is done. */
  private position: number;
  /** The write in flight, if any. */
  private writing: Promise<void> | undefined;
  private readonly hasher: Hash | undefined;
  private open = true;

  constructor(
    private readonly handle: FileHandle,
    private readonly displayPath: string,
    options: BufferedWriterOptions = {},
  ) {
    this.position = options.position ?? 0;
    this.hasher = options.hash ? createHash('sha256') : undefined;
  }

  /** Bytes in the file once everything handed in so far is flushed. */
  get bytes(): number {
    return this.position + this.pendingBytes;
  }

  async write(text: string): Promise<void> {
    if (text === '') return;
    this.pending.push(text);
    this.pendingBytes += Buffer.byteLength(text, 'utf8');
    if (this.pendingBytes < FLUSH_BYTES) return;
    // One write in flight while the next 64 KiB gather: the records after it are encoded while the
    // file system writes, and at most two buffers are held.
    if (this.writing) await this.writing;
    this.writing = this.writeOut();
  }

  /** Everything handed in so far is written (not yet fsynced), whoever else is writing meanwhile. */
  async flush(): Promise<void> {
    if (this.pendingBytes > 0) this.writing = this.writeOut();
    await this.writing;
  }

  /**
   * Write what is pending at the writer's own position (a file cut back and continued — a resumed
   * partial, a journal — needs no second open for appending), after the write before it: the last
   * write started is done only when every earlier one is, so a flush (and the fsync of a checkpoint
   * taken while records keep coming) covers every byte handed in before it. A failure is kept in the
   * returned promise, and in every later one, for the next write, flush or sync to throw, never left
   * unhandled.
   */
  private writeOut(): Promise<void> {
    const data = Buffer.from(this.pending.join(''), 'utf8');
    const position = this.position;
    const before = this.writing;
    this.pending = [];
    this.pendingBytes = 0;
    this.hasher?.update(data);
    this.position += data.length;
    const written = (async () => {
      await before;
      try {
        let offset = 0;
        while (offset < data.length)
          offset += (await this.handle.write(data, offset, data.length - offset, position + offset)).bytesWritten;
      } catch (error) {
        throw writeFailure(this.displayPath, error);
      }
    })();
    written.catch(() => undefined);
    return written;
  }

  /** Flush and fsync: every byte counted by `bytes` is on disk. */
  async sync(): Promise<void> {
    await this.flush();
    try {
      await this.handle.sync();
    } catch (error) {
      throw writeFailure(this.displayPath, error);
    }
  }

  /** Flush, fsync, give the file `mode` (when set) and close it. */
  async complete(mode?: number): Promise<void> {
    await this.sync();
    try {
      if (mode !== undefined) await this.handle.chmod(mode);
    } catch (error) {
      throw writeFailure(this.displayPath, error);
    }
    await this.close();
  }

  /** sha256 (hex) of what this writer wrote; only with `hash`, after the last flush. */
  sha256(): string {
    if (!this.hasher) throw new Error('BufferedFileWriter: created without hash');
    return this.hasher.digest('hex');
  }

  /** Drop what is not written yet (a failed export). */
  drop(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Close the file; idempotent, never throws. */
  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.writing?.catch(() => undefined);
    await this.handle.close().catch(() => undefined);
  }
}
