// Where an event goes when it cannot be delivered (a 4xx other than 408/409/425/429, a redirect, or
// --retry-for spent): one NDJSON line each, appended and fsynced before the outbox lets go of it.
// `event` is the body exactly as it was sent, so a line can be replayed as it is.
import type { FileHandle } from 'node:fs/promises';
import { LocalEnvironmentError } from '../../../core/errors.js';
import { createOwned, openOwned, UnsafeFileError } from '../../../core/owned-file.js';

export interface DeadLetter {
  webhookId: string;
  /** The last answer's status; null when the last attempt got none (timeout, connection refused). */
  status: number | null;
  error: string;
  attempts: number;
  firstAttemptAt: string;
  deadLetteredAt: string;
}

export interface DeadLetterFile {
  readonly path: string;
  write(letter: DeadLetter, body: string): Promise<void>;
  close(): Promise<void>;
}

/** The file ends in a line without its newline: a write a crash cut short. */
async function endsCutShort(path: string): Promise<boolean> {
  const reader = await openOwned(path, 'read');
  if (reader === undefined) return false;
  try {
    const { size } = await reader.stat();
    const last = Buffer.alloc(1);
    if (size > 0) await reader.read(last, 0, 1, size - 1);
    return size > 0 && last[0] !== 0x0a;
  } finally {
    await reader.close();
  }
}

async function openForAppend(path: string): Promise<FileHandle> {
  const existing = await openOwned(path, 'append');
  if (existing) {
    // The next letter starts on a line of its own: joined to the torn one, it would be one bad line,
    // and removing that line (as --redeliver's refusal asks) would take a whole letter with it.
    if (await endsCutShort(path)) await existing.write('\n');
    return existing;
  }
  try {
    return await createOwned(path, { mode: 0o600, append: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return openForAppend(path);
    throw error;
  }
}

/** The file is opened at the first dead letter: a run that delivers everything leaves none behind. */
export function deadLetterFile(path: string): DeadLetterFile {
  let handle: Promise<FileHandle> | undefined;
  return {
    path,
    async write(letter, body) {
      // The body is one JSON line already: placed as it is, byte for byte.
      const line = `{"webhookId":${JSON.stringify(letter.webhookId)},"status":${letter.status ?? 'null'},"error":${JSON.stringify(letter.error)},"attempts":${letter.attempts},"firstAttemptAt":${JSON.stringify(letter.firstAttemptAt)},"deadLetteredAt":${JSON.stringify(letter.deadLetteredAt)},"event":${body}}\n`;
      try {
        const file = await (handle ??= openForAppend(path));
        await file.write(line);
        await file.sync();
      } catch (error) {
        handle = undefined;
        if (error instanceof UnsafeFileError) throw error;
        throw new LocalEnvironmentError(`cannot write the dead-letter file ${path}: ${(error as Error).message}`);
      }
    },
    async close() {
      if (handle) await (await handle.catch(() => undefined))?.close();
    },
  };
}
