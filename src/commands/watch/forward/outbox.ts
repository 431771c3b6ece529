// The events waiting for the webhook receiver, on disk beside the state file (`<state-file>.outbox`),
// so that neither a receiver that is down for a day nor a kill -9 loses one. An append-only log of
// lines, one job each:
//   appraisal-watch-outbox 1          the header
//   A <webhook-id> <key> <body>       an event to deliver (<key>: its record id, URI-encoded); after a D
//                                     of the same id (watch --redeliver), to deliver again
//   T <webhook-id> <first-ms> <n> [<from-ms>]
//                                     n attempts failed so far, the first at <first-ms>; its
//                                     --retry-for window open since <from-ms> when that is earlier
//   D <webhook-id>                    delivered or dead-lettered: done with it
//   S                                 the state file was saved: nothing before it can be found again
// An event is appended (and fsynced, flush(true)) before the state file moves past its change, and
// marked done only once delivered or dead-lettered, so every event the state has passed is either
// done or still here. The ids marked done since the last S are remembered: a poll cut short by a
// crash finds those changes again, and they are not sent a second time. A torn last line (a crash in
// the middle of a write) is dropped when the log is read; it is then rewritten with only what is
// still waiting (compacted), and emptied whenever nothing waits and the state is saved. Bodies stay
// on disk: memory holds ~100 bytes per waiting event (the first thousand keep their body at hand).
import { ftruncateSync, writeSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { syncDirectory } from '../../../core/atomic-file.js';
import { LocalEnvironmentError } from '../../../core/errors.js';
import { createOwned, openOwned, UnsafeFileError } from '../../../core/owned-file.js';
import { HEADER, load, type OutboxEntry } from './outbox-log.js';

export type { OutboxEntry } from './outbox-log.js';

const HEADER_BYTES = Buffer.byteLength(HEADER);
/** Waiting events whose body is kept in memory; the rest are read back from the file when sent. */
const BODIES_IN_MEMORY = 1_000;

function attemptLine(entry: OutboxEntry): string {
  const from = entry.retryFrom === undefined ? '' : ` ${entry.retryFrom}`;
  return `T ${entry.id} ${entry.firstAttemptAt ?? 0} ${entry.attempts}${from}\n`;
}

export class Outbox {
  private buffered: string[] = [];
  private bufferedBytes = 0;
  /** Bytes in the file, written or buffered before `buffered`. */
  private size: number;
  /** The fsyncs, one after another. */
  private syncing: Promise<void> = Promise.resolve();
  private failure: LocalEnvironmentError | undefined;

  private constructor(
    readonly path: string,
    private handle: FileHandle,
    size: number,
    private readonly waiting: Map<string, OutboxEntry>,
    private readonly recent: Set<string>,
  ) {
    this.size = size;
  }

  /** Open (or create) the outbox at `path`, compacted to what still waits. */
  static async open(path: string): Promise<Outbox> {
    const { entries, recent } = await load(path);
    const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
    const waiting = new Map<string, OutboxEntry>();
    let size = 0;
    try {
      const handle = await createOwned(temp, { mode: 0o600 });
      try {
        const lines: string[] = [HEADER];
        size = HEADER_BYTES;
        for (const { entry, body } of entries.values()) {
          const prefix = `A ${entry.id} ${encodeURIComponent(entry.key)} `;
          const offset = size + Buffer.byteLength(prefix);
          const length = Buffer.byteLength(body);
          const kept: OutboxEntry = { ...entry, offset, length, body: waiting.size < BODIES_IN_MEMORY ? body : undefined };
          waiting.set(entry.id, kept);
          lines.push(`${prefix}${body}\n`);
          size = offset + length + 1;
          if (entry.firstAttemptAt !== undefined) {
            const tried = attemptLine(entry);
            lines.push(tried);
            size += Buffer.byteLength(tried);
          }
          if (lines.length >= 1024) await handle.write(lines.splice(0).join(''));
        }
        for (const id of recent) {
          const done = `D ${id}\n`;
          lines.push(done);
          size += Buffer.byteLength(done);
        }
        await handle.write(lines.join(''));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
      await syncDirectory(dirname(path));
    } catch (error) {
      await rm(temp, { force: true });
      if (error instanceof UnsafeFileError) throw error;
      throw new LocalEnvironmentError(`cannot write the outbox ${path}: ${(error as Error).message}`);
    }
    const handle = await openOwned(path, 'append');
    if (handle === undefined) throw new LocalEnvironmentError(`the outbox ${path} disappeared while it was being opened`);
    return new Outbox(path, handle, size, waiting, recent);
  }

  /** What waits, in order. */
  entries(): IterableIterator<OutboxEntry> {
    return this.waiting.values();
  }

  get count(): number {
    return this.waiting.size;
  }

  /** Append an event; false (nothing appended) when that webhook-id waits already or was just done. */
  add(id: string, key: string, body: string): OutboxEntry | undefined {
    if (this.recent.has(id)) return undefined;
    return this.requeue(id, key, body);
  }

  /**
   * Append an event to be delivered again even though it was done (a dead letter, watch --redeliver);
   * false when that webhook-id waits already. Its retry window starts again.
   */
  requeue(id: string, key: string, body: string): OutboxEntry | undefined {
    if (this.waiting.has(id)) return undefined;
    this.recent.delete(id);
    const prefix = `A ${id} ${encodeURIComponent(key)} `;
    const prefixBytes = Buffer.byteLength(prefix);
    const offset = this.size + this.bufferedBytes + prefixBytes;
    const length = Buffer.byteLength(body);
    const entry: OutboxEntry = {
      id,
      key,
      offset,
      length,
      body: this.waiting.size < BODIES_IN_MEMORY ? body : undefined,
      firstAttemptAt: undefined,
      retryFrom: undefined,
      attempts: 0,
    };
    this.waiting.set(id, entry);
    this.append(`${prefix}${body}\n`, prefixBytes + length + 1);
    return entry;
  }

  /** A failed attempt, remembered so that --retry-for counts from the first attempt across restarts. */
  tried(entry: OutboxEntry): void {
    this.append(attemptLine(entry));
  }

  /** Delivered or dead-lettered. */
  done(entry: OutboxEntry): void {
    this.waiting.delete(entry.id);
    this.recent.add(entry.id);
    this.append(`D ${entry.id}\n`);
  }

  /** The event's body, from memory or read back from the file. */
  async body(entry: OutboxEntry): Promise<string> {
    if (entry.body !== undefined) return entry.body;
    await this.flush(false);
    const buffer = Buffer.alloc(entry.length);
    const reader = await openOwned(this.path, 'read');
    if (reader === undefined) throw new LocalEnvironmentError(`the outbox ${this.path} disappeared`);
    try {
      await reader.read(buffer, 0, entry.length, entry.offset);
    } finally {
      await reader.close();
    }
    return buffer.toString('utf8');
  }

  /**
   * Write what is buffered, at once (before this returns its promise); with `durable`, fsync it too
   * (before the state file moves past it). The lines are appended with one synchronous write: a few
   * lines cost ~5 µs that way, an asynchronous write ~50 µs of this thread plus a pool thread's, for
   * every event delivered. Only the fsync, which waits for the disk, goes to the pool.
   */
  async flush(durable: boolean): Promise<void> {
    this.write();
    if (!durable) return;
    this.syncing = this.syncing.then(async () => {
      if (this.failure) throw this.failure;
      try {
        await this.handle.sync();
      } catch (error) {
        throw this.failed(error);
      }
    });
    await this.syncing;
  }

  /**
   * The state file was saved: the changes before it cannot be found again. With nothing waiting the
   * log is emptied (back to its header); else an S line says so.
   */
  async stateSaved(): Promise<void> {
    this.recent.clear();
    if (this.waiting.size > 0) {
      this.append('S\n');
      return;
    }
    this.buffered = [];
    this.bufferedBytes = 0;
    this.size = HEADER_BYTES;
    if (this.failure) throw this.failure;
    try {
      ftruncateSync(this.handle.fd, HEADER_BYTES);
    } catch (error) {
      throw this.failed(error);
    }
  }

  async close(): Promise<void> {
    await this.flush(true).catch(() => undefined);
    await this.handle.close().catch(() => undefined);
  }

  private append(line: string, bytes = Buffer.byteLength(line)): void {
    this.buffered.push(line);
    this.bufferedBytes += bytes;
  }

  /** Append the buffered lines to the file (O_APPEND: at its end, whatever a truncation did). */
  private write(): void {
    if (this.failure) throw this.failure;
    if (this.buffered.length === 0) return;
    const data = Buffer.from(this.buffered.length === 1 ? this.buffered[0]! : this.buffered.join(''));
    this.buffered = [];
    this.size += this.bufferedBytes;
    this.bufferedBytes = 0;
    try {
      for (let at = 0; at < data.length;) at += writeSync(this.handle.fd, data, at);
    } catch (error) {
      throw this.failed(error);
    }
  }

  /** A write or fsync failed: every later one fails the same way (the log may have a gap). */
  private failed(error: unknown): LocalEnvironmentError {
    this.failure ??= new LocalEnvironmentError(`cannot write the outbox ${this.path}: ${(error as Error).message}`);
    return this.failure;
  }
}
