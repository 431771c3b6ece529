// The rows of an import file, streamed: CSV (csv-parse, loaded on first use, or a file the byte scan
// found without a single quote split at its commas and line ends: unquoted-csv.ts; the header is
// dotted field paths, as `list -o csv` writes them), NDJSON (one object a line) or a JSON array (read whole,
// up to a bound: a JSON array cannot be streamed without a streaming JSON parser; NDJSON and CSV are
// what big files use). Text is decoded in the input's encoding and every row is bounded
// (input-text.ts). `row` is the data row's number, 1 = the first record, counted the same way for
// every format; blank lines (and CSV rows of empty cells, a spreadsheet's ",,,") are skipped, as every
// CSV reader does; a line that is not a record stays a row (reported invalid), so numbers never shift.
import { constants, createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { UsageError } from '../../core/errors.js';
import { formatBytes } from '../../core/size.js';
import { formatCount } from '../../output/index.js';
import {
  boundedLines,
  INPUT_LIMITS,
  InputText,
  LineTooLong,
  OVERFLOW_MARK,
  RecordGuard,
  rowTooLarge,
  tooManyColumns,
  type InputEncoding,
} from './input-text.js';
import { UnquotedCsv } from './unquoted-csv.js';

export type InputFormat = 'csv' | 'ndjson' | 'json';
export const INPUT_FORMATS: readonly InputFormat[] = ['csv', 'ndjson', 'json'];

/** One input row as it was read: CSV cells (in header order) or a JSON value. */
export interface SourceRow {
  row: number;
  /** CSV: the cells as text, in the header's order. */
  cells?: string[];
  /** NDJSON / JSON: the parsed value (a record when it is an object). */
  value?: unknown;
  /** NDJSON: the line as written (what --failed writes back). */
  line?: string;
  /** Why this row could not be read at all (not JSON, wrong number of cells). */
  problem?: string;
}

export interface InputSource {
  format: InputFormat;
  /** The file as the user named it, or `-`. */
  display: string;
  /** CSV: the header; other formats: undefined. */
  header?: string[];
  rows: AsyncIterable<SourceRow>;
  /** Stop reading before the rows end (only the header was wanted). */
  close(): void;
}

/** The format from `--format`, else the file's extension; `-` needs --format. */
export function inputFormat(file: string, given: string | undefined): InputFormat {
  if (given !== undefined) {
    if ((INPUT_FORMATS as readonly string[]).includes(given)) return given as InputFormat;
    throw new UsageError(`--format ${given}: expected one of ${INPUT_FORMATS.join(', ')}`);
  }
  if (file === '-') throw new UsageError('import - reads stdin: say what it holds with --format csv|ndjson|json');
  const lower = file.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson';
  if (lower.endsWith('.json')) return 'json';
  throw new UsageError(`cannot tell the format of ${file} from its name`, { hint: 'pass --format csv, ndjson or json' });
}

const REASONS: Record<string, string> = { ENOENT: 'no such file or directory', EISDIR: 'is a directory', EACCES: 'permission denied' };

function unreadable(display: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  return new UsageError(`cannot read ${display}: ${(code && REASONS[code]) ?? (error as Error).message}`);
}

/**
 * The input file exists, is not a directory and may be read: asked before any request is sent (a
 * directory opens like a file and fails only at its first read).
 */
export async function checkReadable(path: string, display: string): Promise<void> {
  try {
    if ((await stat(path)).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    await access(path, constants.R_OK);
  } catch (error) {
    throw unreadable(display, error);
  }
}

/**
 * Bytes read at a time from a file when only its header is wanted: the parser parses each chunk
 * whole, and the default 64 KiB held ~1,000 rows of a typical file parsed for nothing.
 */
const HEADER_CHUNK_BYTES = 4 * 1024;

/** A readable of the input's bytes (checkReadable has vouched for the file); a failed open is a usage error. */
async function openBytes(path: string | undefined, stdin: Readable, display: string, headerOnly: boolean): Promise<Readable> {
  if (path === undefined) return stdin;
  const stream = createReadStream(path, headerOnly ? { highWaterMark: HEADER_CHUNK_BYTES } : {});
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) => reject(unreadable(display, error)));
  });
  return stream;
}

/** A CSV record of blank cells only: a blank line, or a spreadsheet's row of empty cells. */
const isBlank = (cells: readonly string[]) => cells.every((cell) => /^[ \t\r\n]*$/.test(cell));

/** The record RecordGuard cut short, as the one line that says why. */
function overflowOf(guard: RecordGuard, raw: readonly string[], what: () => string): UsageError | undefined {
  if (guard.overflow === undefined || raw[raw.length - 1] !== OVERFLOW_MARK) return undefined;
  return guard.overflow === 'cells' ? tooManyColumns(guard.display, what()) : rowTooLarge(guard.display, what());
}

async function* csvRows(
  bytes: Readable,
  guard: RecordGuard,
  text: InputText,
  header: string[],
  records: AsyncIterable<string[]>,
): AsyncGenerator<SourceRow> {
  const { display } = text;
  let row = 0;
  try {
    for await (const raw of records) {
      // The row's name is made only for its error: formatCount per row was a tenth of a re-import's CPU.
      const overflow = overflowOf(guard, raw, () => `row ${formatCount(row + 1)}`);
      if (overflow) throw overflow;
      if (isBlank(raw)) continue;
      row++;
      // The parser's own array, its cells decoded in place: a new array per row was garbage at once.
      const cells = raw;
      for (let index = 0; index < cells.length; index++) {
        const cell = cells[index]!;
        if (!InputText.plain(cell)) cells[index] = text.cell(cell, () => `row ${formatCount(row)}, column ${header[index] ?? index + 1}`);
      }
      if (cells.length !== header.length) {
        yield { row, cells, problem: `has ${cells.length} cells where the header has ${header.length}` };
        continue;
      }
      yield { row, cells };
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${display}: not readable as CSV after row ${row}: ${(error as Error).message}`);
  } finally {
    bytes.destroy();
  }
}

function checkHeader(header: string[], display: string): void {
  if (header.length === 0 || header.every((name) => name.trim() === '')) throw new UsageError(`${display}: the CSV has no header row`);
  const seen = new Set<string>();
  for (const name of header) {
    if (name.trim() === '') throw new UsageError(`${display}: the CSV header has an empty column name`);
    if (seen.has(name)) throw new UsageError(`${display}: the CSV header names ${name} twice`);
    if (name.split('.').some((key) => key === '__proto__' || key === 'constructor' || key === 'prototype'))
      throw new UsageError(`${display}: the column name ${name} is not a field path`);
    seen.add(name);
  }
}

/** The header record, decoded and checked. */
function csvHeader(first: IteratorResult<string[]>, guard: RecordGuard, text: InputText): string[] {
  if (guard.starts !== undefined) text.refuseUtf8Bom(guard.starts);
  if (first.done) throw new UsageError(`${text.display}: the CSV has no header row`);
  const overflow = overflowOf(guard, first.value, () => 'the CSV header');
  if (overflow) throw overflow;
  const header = first.value.map((name, index) => text.cell(name, () => `the CSV header, column ${index + 1}`).trim());
  checkHeader(header, text.display);
  return header;
}

/** The CSV parser with the reader's options, or the split of a file without quotes (unquoted-csv.ts). */
export async function csvParser(display: string, unquoted: boolean): Promise<Transform> {
  if (unquoted) return new UnquotedCsv(display);
  const { parse } = await import('csv-parse');
  return parse({
    // No `bom`: finding one, csv-parse would decode the cells as UTF-8 itself (RecordGuard drops it).
    // One character per byte: the cells' bytes reach InputText as they are in the file, decoded there.
    encoding: 'latin1',
    relax_column_count: true,
    skip_empty_lines: true,
    // Any of the three line ends, mixed: a file saved with CRLF and a final LF added by an editor.
    record_delimiter: ['\r\n', '\n', '\r'],
  });
}

async function openCsv(bytes: Readable, text: InputText, unquoted: boolean): Promise<InputSource> {
  const { display } = text;
  const parser = await csvParser(display, unquoted);
  // The bounds on a record are counted on the bytes, before the parser builds it (input-text.ts).
  const guard = new RecordGuard(text.display);
  // pipeline, not pipe: a read that fails part-way (EIO, a vanished mount) must reach the reader of
  // the rows as an error, not leave the parser waiting for bytes that never come.
  pipeline(bytes, guard, parser, () => {});
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let first: IteratorResult<string[]>;
  try {
    first = await records.next();
  } catch (error) {
    bytes.destroy();
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${display}: not readable as CSV: ${(error as Error).message}`);
  }
  let header: string[];
  try {
    header = csvHeader(first, guard, text);
  } catch (error) {
    bytes.destroy();
    throw error;
  }
  const rest = { [Symbol.asyncIterator]: () => records };
  return { format: 'csv', display, header, rows: csvRows(bytes, guard, text, header, rest), close: () => bytes.destroy() };
}

async function* ndjsonRows(bytes: Readable, text: InputText): AsyncGenerator<SourceRow> {
  const { display } = text;
  let row = 0;
  try {
    for await (const raw of boundedLines(bytes, INPUT_LIMITS.rowBytes)) {
      const line = text.text(raw, (_line, column) => `row ${formatCount(row + 1)}, column ${column}`).trim();
      if (line === '') continue;
      row++;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        yield { row, line, problem: `is not JSON: ${(error as Error).message}` };
        continue;
      }
      yield { row, value, line };
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof LineTooLong) throw rowTooLarge(display, `row ${formatCount(row + 1)}`);
    throw new UsageError(`cannot read ${display} after row ${row}: ${(error as Error).message}`);
  } finally {
    bytes.destroy();
  }
}

async function* arrayRows(values: unknown[]): AsyncGenerator<SourceRow> {
  for (let index = 0; index < values.length; index++) yield { row: index + 1, value: values[index] };
}

/** A JSON array's bytes, read whole up to its bound. */
async function readJson(bytes: Readable, display: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of bytes) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > INPUT_LIMITS.jsonBytes)
        throw new UsageError(`${display}: a JSON array over ${formatBytes(INPUT_LIMITS.jsonBytes)} is not read whole`, {
          hint: 'one record a line (--format ndjson) or CSV streams a file of any size',
        });
      chunks.push(buffer);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw unreadable(display, error);
  } finally {
    bytes.destroy();
  }
  return Buffer.concat(chunks);
}

/** How a file is read, when its byte scan (input-scan.ts) or its use says more. */
export interface OpenOptions {
  /** Opened only for its header (then closed): read in small chunks. */
  headerOnly?: boolean | undefined;
  /** A CSV the scan found without a single quote: split without the CSV parser. */
  unquoted?: boolean | undefined;
}

/** Open the input: `path` undefined reads `stdin`. Errors in the file's framing are usage errors. */
export async function openInput(
  path: string | undefined,
  stdin: Readable,
  display: string,
  format: InputFormat,
  encoding: InputEncoding = 'utf-8',
  options: OpenOptions = {},
): Promise<InputSource> {
  const text = new InputText(encoding, display);
  const bytes = await openBytes(path, stdin, display, options.headerOnly === true);
  if (format === 'csv') return openCsv(bytes, text, path !== undefined && options.unquoted === true);
  if (format === 'ndjson') return { format, display, rows: ndjsonRows(bytes, text), close: () => bytes.destroy() };
  return jsonSource(
    text.text(await readJson(bytes, display), (line, column) => `line ${line}, column ${column}`),
    display,
  );
}

function jsonSource(text: string, display: string): InputSource {
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${display}: not JSON: ${(error as Error).message}`, { hint: 'one record a line is --format ndjson' });
  }
  if (!Array.isArray(values)) throw new UsageError(`${display}: expected a JSON array of records`);
  return { format: 'json', display, rows: arrayRows(values), close: () => undefined };
}
