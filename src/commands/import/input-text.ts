// Text out of an import file's bytes, and the bounds on what one row may hold. The bytes are decoded
// by the platform's decoder (TextDecoder, fatal) in the encoding the user names — UTF-8 by default,
// windows-1252 (what Excel's plain "CSV" saves on Windows), or latin1 (which the WHATWG Encoding
// standard, and so the decoder, reads as windows-1252: the two differ only in 0x80–0x9F, controls in
// ISO-8859-1) — never guessed and never replaced: a byte that is not text in that encoding, or a NUL
// byte, is refused with one line naming the row and column (exit 2). The bounds keep memory flat
// whatever the file holds (a million columns, a 50 MiB cell): past one, the run ends the same way.
import { Transform, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import { UsageError } from '../../core/errors.js';
import { formatBytes } from '../../core/size.js';
import { formatCount } from '../../output/index.js';

export const INPUT_ENCODINGS = ['utf-8', 'windows-1252', 'latin1'] as const;
export type InputEncoding = (typeof INPUT_ENCODINGS)[number];

/** The most one input row may hold (README "Import limits"). */
export const INPUT_LIMITS = {
  /** One CSV cell, in bytes. */
  cellBytes: 64 * 1024,
  /** One CSV record or one NDJSON line, in bytes. */
  rowBytes: 1024 * 1024,
  /** Columns of the CSV header (and cells of any row). */
  columns: 1000,
  /** A JSON array, which is read whole (NDJSON and CSV stream). */
  jsonBytes: 16 * 1024 * 1024,
} as const;

const NON_ASCII = /[^\x00-\x7f]/;
/** A NUL byte or any byte past ASCII: what a cell needs checked or decoded. */
const NOT_PLAIN = /[^\x01-\x7f]/;
export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const EURO = Buffer.from([0x80]);

/**
 * The platform's decoder for `encoding`. Node.js from 20.18.3 and 22.13 decodes windows-1252 as
 * ISO-8859-1 through a Latin-1 fast path (nodejs/node#56542, #60888: 0x80 gives U+0080, not €); the
 * fix proposed upstream turns that path off so the ICU converter decodes (nodejs/node#60737), and so
 * does this, on this one decoder, checked: a decoder that still gets 0x80 wrong is refused, never used.
 */
function platformDecoder(encoding: InputEncoding): TextDecoder {
  const decoder = new TextDecoder(encoding, { fatal: true });
  if (decoder.encoding !== 'windows-1252' || decoder.decode(EURO) === '€') return decoder;
  const fastPath = Object.getOwnPropertySymbols(decoder).find((symbol) => symbol.description === 'kLatin1FastPath');
  if (fastPath !== undefined) (decoder as unknown as Record<symbol, unknown>)[fastPath] = false;
  if (decoder.decode(EURO) === '€') return decoder;
  throw new UsageError(`--encoding ${encoding}: this Node.js decodes windows-1252 as ISO-8859-1 (nodejs/node#60888)`, {
    hint: 'save the file as CSV UTF-8 and import it without --encoding',
  });
}

/** Where a problem is, for the one line that names it: "row 3, column city", "line 2, column 17". */
export type Place = string;

export class InputText {
  private readonly decoder: TextDecoder;

  constructor(
    readonly encoding: InputEncoding,
    readonly display: string,
  ) {
    this.decoder = platformDecoder(encoding);
  }

  /** A file that starts with a UTF-8 byte-order mark says it is UTF-8: read as another encoding, its text would be garbled. */
  refuseUtf8Bom(starts: Uint8Array): void {
    if (this.encoding === 'utf-8' || !UTF8_BOM.equals(starts.subarray(0, 3))) return;
    throw new UsageError(`${this.display}: starts with a UTF-8 byte-order mark, so it is UTF-8, not ${this.encoding}`, {
      hint: 'import it without --encoding',
    });
  }

  /**
   * A cell of ASCII text without NUL, within the bound (most cells): it is the same text in every
   * encoding offered and has nothing to name, so its reader makes no closure naming its place.
   */
  static plain(raw: string): boolean {
    return raw.length <= INPUT_LIMITS.cellBytes && !NOT_PLAIN.test(raw);
  }

  /**
   * A CSV cell as the parser gave it — read as latin1, one character per byte, so its bytes are
   * exactly the file's — decoded in the input's encoding.
   */
  cell(raw: string, place: () => Place): string {
    if (raw.length > INPUT_LIMITS.cellBytes)
      throw new UsageError(
        `${this.display}: ${place()}: the cell is over ${formatBytes(INPUT_LIMITS.cellBytes)} (the most one cell may hold)`,
      );
    // NUL is byte 0 and only byte 0 in every encoding offered.
    if (raw.includes('\0')) throw this.nul(place());
    // ASCII is the same text in every encoding offered: most cells need no decoding.
    if (!NON_ASCII.test(raw)) return raw;
    try {
      return this.decoder.decode(Buffer.from(raw, 'latin1'));
    } catch {
      throw this.notText(place());
    }
  }

  /** Bytes decoded whole (an NDJSON line, a JSON file); `place` names the line and column of a problem within them. */
  text(bytes: Uint8Array, place: (line: number, column: number) => Place): string {
    this.refuseUtf8Bom(bytes);
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      const valid = this.validPrefix(bytes);
      const nul = valid.indexOf('\0');
      if (nul >= 0) throw this.nul(place(...position(valid, nul)));
      throw this.notText(place(...position(valid, valid.length)));
    }
    const nul = text.indexOf('\0');
    if (nul >= 0) throw this.nul(place(...position(text, nul)));
    return text;
  }

  /** The text before the first byte that is not text: the longest prefix the decoder takes (binary search, error path only). */
  private validPrefix(bytes: Uint8Array): string {
    const decodes = (length: number) => {
      try {
        platformDecoder(this.encoding).decode(bytes.subarray(0, length), { stream: true });
        return true;
      } catch {
        return false;
      }
    };
    let low = 0;
    let high = bytes.length;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (decodes(middle)) low = middle;
      else high = middle - 1;
    }
    return platformDecoder(this.encoding).decode(bytes.subarray(0, low), { stream: true });
  }

  private notText(place: Place): UsageError {
    if (this.encoding !== 'utf-8') return new UsageError(`${this.display}: ${place}: not ${this.encoding} text`);
    return new UsageError(`${this.display}: ${place}: not UTF-8 text`, {
      hint: 'a file Excel saved as plain "CSV" on Windows is --encoding windows-1252 (or save it as "CSV UTF-8")',
    });
  }

  private nul(place: Place): UsageError {
    return new UsageError(`${this.display}: ${place}: holds a NUL byte, which is never text`, {
      hint: 'a file saved as UTF-16 ("Unicode Text") has one in every character: save it as CSV UTF-8',
    });
  }
}

/** Line and column (both from 1, columns in characters) of `index` in `text`. */
function position(text: string, index: number): [number, number] {
  const before = text.slice(0, index);
  const lineStart = before.lastIndexOf('\n') + 1;
  const line = before.length - before.replaceAll('\n', '').length + 1;
  return [line, Array.from(before.slice(lineStart)).length + 1];
}

/** A row over the bounds, as one line. */
export function rowTooLarge(display: string, what: string): UsageError {
  return new UsageError(`${display}: ${what} is over ${formatBytes(INPUT_LIMITS.rowBytes)} (the most one row may hold)`);
}

export function tooManyColumns(display: string, what: string): UsageError {
  return new UsageError(`${display}: ${what} has over ${formatCount(INPUT_LIMITS.columns)} columns (the most a row may have)`);
}

/** What ended a CSV record early: too many cells, or too many bytes. */
export type Overflow = 'cells' | 'bytes';

/** The last cell of a record RecordGuard cut short: a NUL, which no record the reader accepts holds. */
export const OVERFLOW_MARK = '\0';

/**
 * The CSV bytes passed on unchanged while each record's size and cells (commas outside quotes) are
 * counted — a line of a million commas is a million empty cells, which no bound on text sees. Past a
 * bound the record is closed there with a last cell holding OVERFLOW_MARK and nothing more is passed
 * on (the source waits until the reader, at that record, ends the reading): no more than the bound is
 * read, and the reader names the record's own row. An error instead would discard the records the
 * parser has made but the reader not yet taken, and with them the row number.
 */
export class RecordGuard extends Transform {
  overflow: Overflow | undefined;
  /** The first bytes, kept for InputText.refuseUtf8Bom; a UTF-8 BOM is not passed on. */
  starts: Buffer | undefined;
  constructor(readonly display: string) {
    super();
  }
  private quoted = false;
  private cells = 1;
  private bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.overflow !== undefined) return;
    if (this.starts === undefined) {
      this.starts = chunk.subarray(0, 3);
      if (UTF8_BOM.equals(this.starts)) chunk = chunk.subarray(3);
    }
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index];
      if (++this.bytes > INPUT_LIMITS.rowBytes) return this.cut(chunk, index, 'bytes');
      // A doubled quote inside quotes toggles twice: the state comes out right without lookahead.
      if (byte === 0x22) this.quoted = !this.quoted;
      else if (this.quoted) continue;
      else if (byte === 0x2c) {
        if (++this.cells > INPUT_LIMITS.columns) return this.cut(chunk, index, 'cells');
      } else if (byte === 0x0a || byte === 0x0d) {
        this.cells = 1;
        this.bytes = 0;
      }
    }
    done(null, chunk);
  }

  /** The record so far, closed with the mark, then the end; `done` is never called again, so nothing more is read. */
  private cut(chunk: Buffer, index: number, overflow: Overflow): void {
    this.overflow = overflow;
    this.push(chunk.subarray(0, index));
    this.push(Buffer.from(`${this.quoted ? '"' : ''},${OVERFLOW_MARK}\n`));
    // The end, so the parser gives the record now (it waits for a byte past a line end otherwise).
    this.push(null);
  }
}

/** Thrown by boundedLines for a line longer than the bound: the reader names its row. */
export class LineTooLong extends Error {}

/**
 * The lines of a byte stream (LF or CRLF), as bytes, each at most `maxBytes`: a longer one throws
 * LineTooLong once the bound is passed, so no more than the bound is ever held.
 */
export async function* boundedLines(chunks: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const take = (tail: Buffer): Buffer => {
    const line = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    return line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line;
  };
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(0x0a); end >= 0; end = bytes.indexOf(0x0a, start)) {
      if (pendingBytes + end - start > maxBytes + 1) throw new LineTooLong();
      yield take(bytes.subarray(start, end));
      start = end + 1;
    }
    if (start < bytes.length) {
      pending.push(bytes.subarray(start));
      pendingBytes += bytes.length - start;
      if (pendingBytes > maxBytes + 1) throw new LineTooLong();
    }
  }
  if (pendingBytes > 0) yield take(Buffer.alloc(0));
}
