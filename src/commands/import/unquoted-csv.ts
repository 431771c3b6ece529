// The records of a CSV file in which the byte scan found not a single quote (input-scan.ts), split at
// its commas (or the semicolons or tabs its header line shows) and line ends instead of by csv-parse: without quotes a CSV record is its line and a cell
// what lies between commas, so this makes the records csv-parse makes of it with the reader's options
// (a CRLF, LF or CR ends a record, an empty line is one of a single empty cell — the reader skips it
// but counts it in the row numbers it shows — a last line without its end is one) — at
// half the CPU (10,000 rows through each alone in a fresh process: ~85 against ~190 ms). A quote in
// the bytes means the file changed after the scan: refused, never split as if it were not there.
import { Transform, type TransformCallback } from 'node:stream';
import { UsageError } from '../../core/errors.js';
import type { CsvDelimiter } from './csv-delimiter.js';

const QUOTE = 0x22;
const LF = 0x0a;

/** Bytes in (one character per byte, as the parser reads them: latin1), records of cells out. */
export class UnquotedCsv extends Transform {
  /** The bytes of the line the last chunk ended inside of. */
  private rest = Buffer.alloc(0);
  /** Where the line ends are, found in the chunk's text (one character per byte: at the same offsets as in its bytes). */
  private readonly lineEnd = /\r\n|\n|\r/g;
  /** The last chunk ended with a CR: an LF starting this one is the rest of that line end (CRLF), not an empty line. */
  private endedWithCr = false;

  /** The byte between cells: a comma, or the semicolon or tab the header line shows (csv-delimiter.ts). */
  private readonly delimiter: number;

  constructor(
    private readonly display: string,
    delimiter: CsvDelimiter = ',',
  ) {
    super({ readableObjectMode: true });
    this.delimiter = delimiter.charCodeAt(0);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (chunk.indexOf(QUOTE) >= 0) {
      done(new UsageError(`${this.display}: the file changed while it was read (a quote where the first read found none)`));
      return;
    }
    const bytes = this.rest.length > 0 ? Buffer.concat([this.rest, chunk]) : chunk;
    const text = bytes.toString('latin1');
    // The rest is empty after a CR that ended the chunk, so its LF would be at 0 of this one.
    let start = this.endedWithCr && text.charCodeAt(0) === LF ? 1 : 0;
    this.endedWithCr = false;
    // The next comma, searched again only once passed (-2: not yet; -1: none left in the chunk).
    let comma = -2;
    this.lineEnd.lastIndex = start;
    for (let end = this.lineEnd.exec(text); end !== null; end = this.lineEnd.exec(text)) {
      if (end.index === start) {
        // An empty line: a record of one empty cell, as csv-parse makes it (counted in the row numbers).
        this.push(['']);
      } else {
        const cells: string[] = [];
        // Each cell its own string, made from its bytes as csv-parse makes them: cut from a line's or
        // the chunk's text, a cell would keep all of it alive as long as it lives (a --match value
        // is kept for every row: 200,000 rows peaked ~25 MiB higher).
        for (let from = start; ;) {
          if (comma !== -1 && comma < from) comma = bytes.indexOf(this.delimiter, from);
          const to = comma === -1 || comma > end.index ? end.index : comma;
          cells.push(bytes.toString('latin1', from, to));
          if (to === end.index) break;
          from = to + 1;
        }
        this.push(cells);
      }
      start = end.index + end[0].length;
      if (start === text.length && end[0] === '\r') this.endedWithCr = true;
    }
    this.rest = Buffer.from(bytes.subarray(start));
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.rest.length > 0) this.push(this.rest.toString('latin1').split(String.fromCharCode(this.delimiter)));
    done();
  }
}
