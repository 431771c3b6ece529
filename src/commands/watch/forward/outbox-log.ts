// Reading the outbox log back (outbox.ts describes its lines): at start, each line checked and
// applied in order, a torn last line dropped. Apart from outbox.ts, which writes the log, so that
// each file holds one side of the format.
import type { FileHandle } from 'node:fs/promises';
import { LocalEnvironmentError, UsageError } from '../../../core/errors.js';
import { openOwned, UnsafeFileError } from '../../../core/owned-file.js';

export const HEADER = 'appraisal-watch-outbox 1\n';
const READ_CHUNK = 1024 * 1024;

export interface OutboxEntry {
  readonly id: string;
  /** Events with the same key (one record) are delivered in order, never side by side. */
  readonly key: string;
  readonly offset: number;
  readonly length: number;
  body: string | undefined;
  /** When the first attempt was made (ms since the epoch), across restarts. */
  firstAttemptAt: number | undefined;
  /**
   * When its --retry-for window opened, when before its first attempt (it waited behind a receiver
   * that was failing already: forwarder.ts); undefined: at its first attempt.
   */
  retryFrom: number | undefined;
  attempts: number;
}

function damaged(path: string, line: number, why: string): UsageError {
  return new UsageError(`the outbox ${path} is damaged at line ${line}: ${why}`, {
    hint: 'it holds the events not yet delivered: restore it, or remove it (and those events with it) to go on',
  });
}

/** Read a log, line by line, dropping a torn last line. Bodies are kept (they are written again). */
export async function load(path: string): Promise<{ entries: Map<string, { entry: OutboxEntry; body: string }>; recent: Set<string> }> {
  const entries = new Map<string, { entry: OutboxEntry; body: string }>();
  const recent = new Set<string>();
  let handle: FileHandle | undefined;
  try {
    handle = await openOwned(path, 'read');
  } catch (error) {
    if (error instanceof UnsafeFileError) throw error;
    throw new LocalEnvironmentError(`cannot read the outbox ${path}: ${(error as Error).message}`);
  }
  if (handle === undefined) return { entries, recent };
  try {
    let carry = Buffer.alloc(0);
    let number = 0;
    const chunk = Buffer.alloc(READ_CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      let data = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      let newline: number;
      while ((newline = data.indexOf(10)) >= 0) {
        number++;
        readLine(data.subarray(0, newline).toString('utf8'), number, path, entries, recent);
        data = data.subarray(newline + 1);
      }
      carry = Buffer.from(data);
    }
    // What is left after the last newline is a write a crash cut short: the event was not yet
    // appended (its poll's state was not saved either, so the poll finds it again).
  } finally {
    await handle.close().catch(() => undefined);
  }
  return { entries, recent };
}

function readLine(
  line: string,
  number: number,
  path: string,
  entries: Map<string, { entry: OutboxEntry; body: string }>,
  recent: Set<string>,
): void {
  if (number === 1) {
    if (`${line}\n` !== HEADER) throw damaged(path, 1, 'it is not an appraisal watch outbox (no header)');
    return;
  }
  const kind = line[0];
  const rest = line.slice(2);
  if (kind === 'A' && line[1] === ' ') {
    const first = rest.indexOf(' ');
    const second = rest.indexOf(' ', first + 1);
    if (first <= 0 || second <= first + 1) throw damaged(path, number, 'an event line without id, key and body');
    const id = rest.slice(0, first);
    let key: string;
    try {
      key = decodeURIComponent(rest.slice(first + 1, second));
    } catch {
      throw damaged(path, number, 'an event line with an unreadable key');
    }
    const body = rest.slice(second + 1);
    // An event done before and appended again (watch --redeliver) waits again.
    recent.delete(id);
    entries.set(id, {
      entry: { id, key, offset: 0, length: 0, body: undefined, firstAttemptAt: undefined, retryFrom: undefined, attempts: 0 },
      body,
    });
    return;
  }
  if (kind === 'T' && line[1] === ' ') {
    // A fourth field (since 2026-11-29), when the --retry-for window opened, is ignored by older CLIs.
    const [id = '', first = '', attempts = '', from] = rest.split(' ');
    const found = entries.get(id);
    if (!/^\d+$/.test(first) || !/^\d+$/.test(attempts)) throw damaged(path, number, 'an attempt line without a time and a count');
    if (from !== undefined && !/^\d+$/.test(from)) throw damaged(path, number, 'an attempt line with an unreadable window');
    if (found) {
      found.entry.firstAttemptAt = Number(first);
      found.entry.retryFrom = from === undefined ? undefined : Number(from);
      found.entry.attempts = Number(attempts);
    }
    return;
  }
  if (kind === 'D' && line[1] === ' ') {
    entries.delete(rest);
    recent.add(rest);
    return;
  }
  if (line === 'S') {
    recent.clear();
    return;
  }
  throw damaged(path, number, `unknown line "${line.slice(0, 20)}"`);
}
