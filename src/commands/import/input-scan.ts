// A quick look at an input file's bytes before anything is sent: when it shows the file cannot hold a
// row the reader would refuse — the text decodes in its encoding, holds no NUL and no UTF-8
// byte-order mark read as another encoding, every CSV record (every NDJSON line) is shorter than the
// smallest bound on a row (INPUT_LIMITS: under 1,000 bytes it has under 1,000 cells, and no cell or
// row over its size), and CSV quotes open and close where the parser takes them — the file is not
// read through row by row (CSV parsed, every cell decoded) before the real pass. That read-through
// cost about as much CPU as the real pass's own reading (a profile of an unchanged re-import of
// 10,000 rows). Anything else, or a doubt, and the caller reads the file through as before, so a bad
// file is still refused with its row and column before any write. It only says yes or "don't know".
import { createReadStream } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { INPUT_LIMITS, type InputEncoding } from './input-text.js';
import type { InputFormat } from './input-source.js';
import { csvDelimiter } from './csv-delimiter.js';

/** A record shorter than this cannot pass any bound: fewer cells than the column bound, fewer bytes than a cell's. */
const SHORT_RECORD = Math.min(INPUT_LIMITS.columns, INPUT_LIMITS.cellBytes, INPUT_LIMITS.rowBytes);

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Where the scan is between chunks: inside quotes or not, the last byte, bytes since the record began. */
interface ScanState {
  /** The byte between fields: the header line's (csv-delimiter.ts), read from the first chunk. */
  delimiter: number;
  quoted: boolean;
  /** Inside quotes, the chunk ended on a quote: the next chunk's first byte says whether it closed the cell. */
  quoteAtEnd: boolean;
  previous: number;
  recordBytes: number;
}

/**
 * Whether the chunk's quotes and record lengths are certainly fine for the CSV reader: it visits only
 * quotes and line ends (found by indexOf), not every byte. A quote opens a cell (after the delimiter
 * or a line end); inside, a quote is doubled or closes the cell (before the delimiter or a line end).
 */
function csvChunkClean(chunk: Buffer, state: ScanState): boolean {
  let at = 0;
  if (state.quoteAtEnd) {
    state.quoteAtEnd = false;
    const after = afterQuote(chunk[0]!, state.delimiter);
    if (after === undefined) return false;
    if (after === 'doubled') at = 1;
    else state.quoted = false;
  }
  // Where the next quote, LF and CR are, searched again only once passed (-2: not yet searched; -1:
  // none left in the chunk). Searched afresh from each line, a byte the file lacks (a quote, a CR)
  // cost a search to the chunk's end per line: ~0.1 s of CPU on a 10,000-row file.
  let quoteAt = -2;
  let lfAt = -2;
  let crAt = -2;
  const nextAt = (byte: number, found: number): number => (found === -1 || found >= at ? found : chunk.indexOf(byte, at));
  while (at < chunk.length) {
    const quote = (quoteAt = nextAt(QUOTE, quoteAt));
    let lineEnd = -1;
    if (!state.quoted) {
      lfAt = nextAt(LF, lfAt);
      crAt = nextAt(CR, crAt);
      lineEnd = lfAt < 0 ? crAt : crAt < 0 || lfAt < crAt ? lfAt : crAt;
    }
    const next = lineEnd >= 0 && (quote < 0 || lineEnd < quote) ? lineEnd : quote;
    if (next < 0) {
      state.recordBytes += chunk.length - at;
      state.previous = chunk[chunk.length - 1]!;
      return state.recordBytes < SHORT_RECORD;
    }
    state.recordBytes += next - at + 1;
    if (state.recordBytes >= SHORT_RECORD) return false;
    let step = 1;
    if (next === lineEnd) state.recordBytes = 0;
    else if (!state.quoted) {
      const before = next > 0 ? chunk[next - 1] : state.previous;
      if (before !== state.delimiter && before !== LF && before !== CR) return false;
      state.quoted = true;
    } else {
      if (next + 1 >= chunk.length) {
        state.quoteAtEnd = true;
        state.previous = QUOTE;
        return true;
      }
      const after = afterQuote(chunk[next + 1]!, state.delimiter);
      if (after === undefined) return false;
      if (after === 'doubled') step = 2;
      else state.quoted = false;
    }
    state.recordBytes += step - 1;
    state.previous = chunk[next + step - 1]!;
    at = next + step;
  }
  return true;
}

/** Inside quotes, what the byte after a quote makes of it: a doubled quote, a closed cell, or a parse error (undefined). */
function afterQuote(byte: number, delimiter: number): 'doubled' | 'closed' | undefined {
  if (byte === QUOTE) return 'doubled';
  return byte === delimiter || byte === LF || byte === CR ? 'closed' : undefined;
}

/** How many bytes at the end of `bytes` start a UTF-8 character the next chunk finishes. */
function unfinishedUtf8(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/** NDJSON: every line shorter than the smallest bound. */
function ndjsonChunkClean(chunk: Buffer, state: ScanState): boolean {
  let at = 0;
  for (let end = chunk.indexOf(LF); end >= 0; end = chunk.indexOf(LF, at)) {
    if (state.recordBytes + end - at >= SHORT_RECORD) return false;
    state.recordBytes = 0;
    at = end + 1;
  }
  state.recordBytes += chunk.length - at;
  return state.recordBytes < SHORT_RECORD;
}

/**
 * The scan's word on a file: `false`, it may hold a row the reader refuses (then it must be read
 * through); `clean`, it certainly holds none; `unquoted`, a clean CSV without a single quote (its
 * records are then split without the CSV parser: unquoted-csv.ts).
 */
export type ScanVerdict = false | 'clean' | 'unquoted';

/** The CSV or NDJSON file at `path` scanned (see the top of the file). A JSON array is never scanned. */
export async function scanClean(path: string, format: InputFormat, encoding: InputEncoding): Promise<ScanVerdict> {
  if (format === 'json') return false;
  // windows-1252's decoder maps every byte but NUL: only UTF-8 can be refused here. Checked by
  // isUtf8, which makes no string; a character cut by a chunk's end is checked with the next chunk.
  const decodes = encoding === 'utf-8';
  let unfinished: Buffer = Buffer.alloc(0);
  const state: ScanState = { delimiter: -1, quoted: false, quoteAtEnd: false, previous: LF, recordBytes: 0 };
  const clean = format === 'csv' ? csvChunkClean : ndjsonChunkClean;
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  let quotes = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (chunk.indexOf(0) >= 0) return false;
      // A UTF-8 byte-order mark is refused in another encoding: one anywhere, or maybe cut by a chunk's end, and the file is read through.
      const bomCut = chunk[0] === UTF8_BOM[1] || chunk[0] === UTF8_BOM[2] || chunk.indexOf(UTF8_BOM[0]!, chunk.length - 2) >= 0;
      if (encoding !== 'utf-8' && (bomCut || chunk.indexOf(UTF8_BOM) >= 0)) return false;
      if (decodes) {
        const whole = unfinished.length > 0 ? Buffer.concat([unfinished, chunk]) : chunk;
        const cut = whole.length - unfinishedUtf8(whole);
        if (!isUtf8(whole.subarray(0, cut))) return false;
        unfinished = whole.subarray(cut);
      }
      // The first chunk (256 KiB, or the whole file) holds the header line's first 64 KiB, all the reader looks at.
      if (format === 'csv' && state.delimiter < 0) state.delimiter = csvDelimiter(chunk).charCodeAt(0);
      if (!clean(chunk, state)) return false;
      quotes ||= chunk.indexOf(QUOTE) >= 0;
    }
    if (unfinished.length > 0) return false;
    // A quote that ended the file closed its cell.
    if (state.quoted && !state.quoteAtEnd) return false;
    return format === 'csv' && !quotes ? 'unquoted' : 'clean';
  } catch {
    return false; // not text, or a read that failed: the read-through names it
  } finally {
    stream.destroy();
  }
}
