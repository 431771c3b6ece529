// Which character separates a CSV input's fields, read from its header line: a comma, or — where the
// header holds none — a semicolon (what Excel saves as "CSV" where the comma is the decimal mark:
// most of Europe and South America) or a tab (a spreadsheet's "tab-separated" text). A header is
// field paths, which hold none of the three, so its line tells without guessing from the data. The
// byte scan (input-scan.ts) and the reader (csv-input.ts) ask the same bytes: the line's first
// 64 KiB, so they always agree. The results and failed files are written with the same character.
import { Readable } from 'node:stream';
import type { CsvDelimiter } from '../../core/csv-style.js';

export type { CsvDelimiter };

/** How much of the header line is looked at (a header is far shorter: at most 1,000 columns). */
export const HEADER_PEEK_BYTES = 64 * 1024;

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const CANDIDATES = [0x2c, 0x3b, 0x09] as const;

/** The header line's delimiter, and whether its line end (outside quotes) is among these bytes. */
function readHeaderLine(first: Buffer): { delimiter: CsvDelimiter; complete: boolean } {
  const counts = [0, 0, 0];
  let quoted = false;
  let complete = false;
  const end = Math.min(first.length, HEADER_PEEK_BYTES);
  for (let at = 0; at < end; at++) {
    const byte = first[at]!;
    if (byte === QUOTE) quoted = !quoted;
    else if (quoted) continue;
    else if (byte === LF || byte === CR) {
      complete = true;
      break;
    } else {
      const index = (CANDIDATES as readonly number[]).indexOf(byte);
      if (index >= 0) counts[index]! += 1;
    }
  }
  const delimiter = counts[0]! > 0 || (counts[1]! === 0 && counts[2]! === 0) ? ',' : counts[1]! >= counts[2]! ? ';' : '\t';
  return { delimiter, complete };
}

/** The delimiter of the CSV whose first bytes these are: counted outside quotes, up to the header's line end. */
export function csvDelimiter(first: Buffer): CsvDelimiter {
  return readHeaderLine(first).delimiter;
}

/**
 * The stream's bytes up to its header's line end (or HEADER_PEEK_BYTES), left for the reader: put back
 * at the front of the stream; or, when the stream ended first (a header without a line end), a
 * stream of just those bytes in its place.
 */
export async function peekHeaderLine(bytes: Readable): Promise<{ head: Buffer; bytes: Readable }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const seen = () => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  for (;;) {
    const chunk = bytes.read() as Buffer | string | null;
    if (chunk !== null) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
      chunks.push(buffer);
      size += buffer.length;
      if (size >= HEADER_PEEK_BYTES || ((buffer.indexOf(LF) >= 0 || buffer.indexOf(CR) >= 0) && readHeaderLine(seen()).complete)) {
        const head = seen();
        bytes.unshift(head);
        return { head, bytes };
      }
      continue;
    }
    if (bytes.readableEnded) return { head: seen(), bytes: Readable.from(size > 0 ? [seen()] : []) };
    // Nothing buffered: wait for more, or for the end ('end' comes only after a read() found none:
    // the listeners are on before it can).
    const ended = await new Promise<boolean>((resolve, reject) => {
      const settle = (value: boolean | Error) => {
        bytes.off('readable', onReadable).off('end', onEnd).off('error', onError);
        if (value instanceof Error) reject(value);
        else resolve(value);
      };
      const onReadable = () => settle(false);
      const onEnd = () => settle(true);
      const onError = (error: Error) => settle(error);
      bytes.on('readable', onReadable).on('end', onEnd).on('error', onError);
    });
    if (ended) return { head: seen(), bytes: Readable.from(size > 0 ? [seen()] : []) };
  }
}
