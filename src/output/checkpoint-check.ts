// Before a resumed export trusts its checkpoint (issue 26 §14), the numbers it records are checked
// against the partial file they vouch for: the page is within the pages, the byte at `bytes-1` ends a
// record, and the records counted in the kept bytes equal `written`. A forged or damaged checkpoint
// ("page 10^12 of 10", a byte count in the middle of a record) is refused with exit 9 and the file
// is kept as it is. Counting reads the kept bytes once, in chunks; the formats are the streaming
// encoders' (json.ts: one record per line after `[`; ndjson.ts: one per line; csv.ts: a header row,
// then rows ending in CRLF, quoted fields may hold line breaks).
import type { FileHandle } from 'node:fs/promises';
import { CheckpointMismatchError } from '../core/errors.js';
import type { CheckpointEntry } from './checkpoint.js';

const CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;

/** The last byte of a complete record in each resumable format. */
const RECORD_END: Readonly<Record<string, number>> = { ndjson: NEWLINE, csv: NEWLINE, json: CLOSE_BRACE };

/** Records in the first `bytes` bytes of a partial file in `format`. */
async function countRecords(handle: FileHandle, format: string, bytes: number): Promise<number> {
  const buffer = Buffer.alloc(Math.min(CHUNK, Math.max(bytes, 1)));
  let lines = 0;
  let quoted = false;
  for (let position = 0; position < bytes;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, bytes - position), position);
    if (bytesRead === 0) break;
    for (let i = 0; i < bytesRead; i++) {
      const byte = buffer[i];
      if (format === 'csv' && byte === QUOTE) quoted = !quoted;
      else if (byte === NEWLINE && !quoted) lines++;
    }
    position += bytesRead;
  }
  // csv: the header row is a line but no record. json: every record is preceded by one line break.
  return format === 'csv' ? Math.max(lines - 1, 0) : lines;
}

async function byteAt(handle: FileHandle, position: number): Promise<number | undefined> {
  const one = Buffer.alloc(1);
  const { bytesRead } = await handle.read(one, 0, 1, position);
  return bytesRead === 1 ? one[0] : undefined;
}

/**
 * Refuse (CheckpointMismatchError, exit 9) a checkpoint entry that the partial file open as `handle`
 * does not bear out. `shown` names the partial for the message.
 */
export async function checkCheckpointAgainstFile(handle: FileHandle, format: string, entry: CheckpointEntry, shown: string): Promise<void> {
  const refuse = (why: string) =>
    new CheckpointMismatchError(`--resume: the checkpoint of ${shown} is inconsistent (${why}); it was not resumed and is kept as it is`, {
      hint: 'look at it if it matters; pass --restart to start the export from the beginning',
    });
  if (entry.page < 1 || entry.page > entry.pages) throw refuse(`page ${entry.page} of ${entry.pages}`);
  if (entry.written > entry.records) throw refuse(`${entry.written} records written of ${entry.records} read`);
  const end = RECORD_END[format];
  if (end === undefined) throw refuse(`format ${format} is not resumable`);
  if (entry.bytes > 0 && (await byteAt(handle, entry.bytes - 1)) !== end) {
    throw refuse(`byte ${entry.bytes} is not the end of a record`);
  }
  const counted = await countRecords(handle, format, entry.bytes);
  if (counted !== entry.written) throw refuse(`it says ${entry.written} records, the file holds ${counted}`);
}
