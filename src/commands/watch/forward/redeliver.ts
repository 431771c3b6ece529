// watch --redeliver: the dead-lettered events back into the outbox, once the receiver is fixed, so
// that nobody writes a replay script of their own. Each goes out again with its own webhook-id (the
// receiver's deduplication key) and body, byte for byte, after what already waits, with a new retry
// window. The whole file is checked before anything moves: a line that is not a dead letter of this
// watch is one error naming it, and nothing changes. Then the events are appended to the outbox and
// fsynced, and only then is the dead-letter file removed: a crash in between leaves them in both, and
// the next --redeliver finds them waiting already (delivery is at-least-once, as everywhere here).
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { syncDirectory } from '../../../core/atomic-file.js';
import { LocalEnvironmentError, UsageError } from '../../../core/errors.js';
import { openOwned, UnsafeFileError } from '../../../core/owned-file.js';
import type { Outbox } from './outbox.js';

/** What dead-letter.ts writes before the body: `"event":` is the line's last member. */
const EVENT_MEMBER = ',"event":';
/** The webhook-ids this CLI makes (signature.ts): nothing else goes into an outbox line. */
const WEBHOOK_ID = /^msg_[0-9a-f]{32}$/;

export interface Redelivery {
  /** Events put back into the outbox. */
  requeued: number;
  /** Dead letters whose event waited in the outbox already (a --redeliver that a crash cut short). */
  waiting: number;
}

interface Letter {
  id: string;
  key: string;
  body: string;
}

function notALetter(path: string, line: number, why: string): UsageError {
  return new UsageError(`${path} line ${line} is not a dead letter of this watch: ${why}; nothing was redelivered`, {
    hint: 'each line is as watch wrote it ({"webhookId":…,"event":{…}}); remove or correct that line, then run again',
  });
}

function cutShort(path: string, line: number): UsageError {
  return new UsageError(
    `${path} line ${line} is not a dead letter of this watch: cut short (no newline at its end); nothing was redelivered`,
    {
      hint: 'if a watch was killed while writing it, its event still waits in the outbox and goes with the next run: remove that line (or complete it), then run again',
    },
  );
}

/** One line read back: its webhook-id, its record (the outbox's order key) and the body as it was sent. */
function readLetter(text: string, line: number, path: string, family: string): Letter {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw notALetter(path, line, 'not JSON');
  }
  const letter = parsed as { webhookId?: unknown; event?: { id?: unknown; family?: unknown } | null };
  if (typeof letter !== 'object' || letter === null || typeof letter.webhookId !== 'string' || !WEBHOOK_ID.test(letter.webhookId))
    throw notALetter(path, line, 'no webhookId of the form msg_ and 32 hex digits');
  const event = letter.event;
  if (typeof event !== 'object' || event === null || typeof event.id !== 'string' || event.id === '')
    throw notALetter(path, line, 'no event with an id');
  if (event.family !== family) throw notALetter(path, line, `an event of ${String(event.family)}, and this watch forwards ${family}`);
  // The body as it was sent, byte for byte (numbers beyond 2^53 included), where the line is as
  // watch wrote it; a line another tool rewrote gives its event as JSON writes it.
  const at = text.indexOf(EVENT_MEMBER);
  let body = at >= 0 && text.endsWith('}') ? text.slice(at + EVENT_MEMBER.length, -1) : undefined;
  if (body !== undefined) {
    try {
      if (!isDeepStrictEqual(JSON.parse(body), event)) body = undefined;
    } catch {
      body = undefined;
    }
  }
  return { id: letter.webhookId, key: event.id, body: body ?? JSON.stringify(event) };
}

/**
 * Every letter of the file in order. A torn last line (no newline at its end) is refused like any
 * other bad line, naming it: left out, it went with the file when it was removed, and a line cut
 * short by something else than a crash while watch wrote it (an edit, a copy cut short) was an
 * event lost without a word. Refused, nothing moves until someone looks at that line.
 */
async function* letters(path: string, family: string): AsyncGenerator<Letter> {
  let handle;
  try {
    handle = await openOwned(path, 'read');
  } catch (error) {
    if (error instanceof UnsafeFileError) throw error;
    throw new LocalEnvironmentError(`cannot read the dead-letter file ${path}: ${(error as Error).message}`);
  }
  if (handle === undefined) return;
  try {
    const { size } = await handle.stat();
    const last = Buffer.alloc(1);
    if (size > 0) await handle.read(last, 0, 1, size - 1);
    // Written whole and fsynced before the outbox lets go of its event: a last line without its
    // newline is, from watch, a write a crash cut short, and that event still waits in the outbox.
    const torn = size > 0 && last[0] !== 0x0a;
    const lines = handle.readLines({ autoClose: false });
    let number = 0;
    let pending: string | undefined;
    for await (const text of lines) {
      if (pending !== undefined) yield readLetter(pending, number, path, family);
      number++;
      pending = text.trim() === '' ? undefined : text;
    }
    if (pending !== undefined && torn) throw cutShort(path, number);
    if (pending !== undefined) yield readLetter(pending, number, path, family);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Read the whole file (bodies not kept: it may be large): the error of its first bad line, if any. */
export async function checkDeadLetters(path: string, family: string): Promise<void> {
  for await (const letter of letters(path, family)) void letter;
}

/** Put the dead letters at `path` back into the outbox (fsynced), then remove the file. */
export async function redeliverDeadLetters(outbox: Outbox, path: string, family: string): Promise<Redelivery> {
  // Checked whole first, so that a bad line changes nothing.
  await checkDeadLetters(path, family);
  const result: Redelivery = { requeued: 0, waiting: 0 };
  for await (const letter of letters(path, family)) {
    if (outbox.requeue(letter.id, letter.key, letter.body)) result.requeued++;
    else result.waiting++;
  }
  await outbox.flush(true);
  try {
    await rm(path, { force: true });
    await syncDirectory(dirname(path));
  } catch (error) {
    throw new LocalEnvironmentError(
      `cannot remove the dead-letter file ${path} after its events were put back: ${(error as Error).message}`,
    );
  }
  return result;
}
