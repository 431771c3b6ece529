// The rows of an import file, streamed: CSV (csv-parse, loaded on first use; the header is dotted
// field paths, as `list -o csv` writes them), NDJSON (one object a line) or a JSON array (read whole:
// a JSON array cannot be streamed without a streaming JSON parser; NDJSON and CSV are what big files
// use). `row` is the data row's number, 1 = the first record, counted the same way for every format;
// a line that is not a record stays a row (reported invalid), so numbers never shift.
import { constants, createReadStream } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { pipeline, type Readable } from 'node:stream';
import { UsageError } from '../../core/errors.js';

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

/** A readable of the input's bytes (checkReadable has vouched for the file); a failed open is a usage error. */
async function openBytes(path: string | undefined, stdin: Readable, display: string): Promise<Readable> {
  if (path === undefined) return stdin;
  const stream = createReadStream(path);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) => reject(unreadable(display, error)));
  });
  return stream;
}

async function* csvRows(bytes: Readable, display: string, header: string[], records: AsyncIterable<string[]>): AsyncGenerator<SourceRow> {
  let row = 0;
  try {
    for await (const cells of records) {
      row++;
      if (cells.length !== header.length) {
        yield { row, cells, problem: `has ${cells.length} cells where the header has ${header.length}` };
        continue;
      }
      yield { row, cells };
    }
  } catch (error) {
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

async function openCsv(bytes: Readable, display: string): Promise<InputSource> {
  const { parse } = await import('csv-parse');
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  // pipeline, not pipe: a read that fails part-way (EIO, a vanished mount) must reach the reader of
  // the rows as an error, not leave the parser waiting for bytes that never come.
  pipeline(bytes, parser, () => {});
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let first: IteratorResult<string[]>;
  try {
    first = await records.next();
  } catch (error) {
    bytes.destroy();
    throw new UsageError(`${display}: not readable as CSV: ${(error as Error).message}`);
  }
  if (first.done) throw new UsageError(`${display}: the CSV has no header row`);
  const header = first.value.map((name) => name.trim());
  checkHeader(header, display);
  const rest = { [Symbol.asyncIterator]: () => records };
  return { format: 'csv', display, header, rows: csvRows(bytes, display, header, rest) };
}

async function* ndjsonRows(bytes: Readable, display: string): AsyncGenerator<SourceRow> {
  const lines = createInterface({ input: bytes, crlfDelay: Infinity });
  let row = 0;
  try {
    for await (const raw of lines) {
      const line = raw.trim();
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
    throw new UsageError(`cannot read ${display} after row ${row}: ${(error as Error).message}`);
  } finally {
    lines.close();
    bytes.destroy();
  }
}

async function* arrayRows(values: unknown[]): AsyncGenerator<SourceRow> {
  for (let index = 0; index < values.length; index++) yield { row: index + 1, value: values[index] };
}

async function readAll(bytes: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of bytes) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Open the input: `path` undefined reads `stdin`. Errors in the file's framing are usage errors. */
export async function openInput(path: string | undefined, stdin: Readable, display: string, format: InputFormat): Promise<InputSource> {
  if (path !== undefined && format === 'json') {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw unreadable(display, error);
    }
    return jsonSource(text, display);
  }
  const bytes = await openBytes(path, stdin, display);
  if (format === 'csv') return openCsv(bytes, display);
  if (format === 'ndjson') return { format, display, rows: ndjsonRows(bytes, display) };
  let text: string;
  try {
    text = await readAll(bytes);
  } catch (error) {
    throw unreadable(display, error);
  }
  return jsonSource(text, display);
}

function jsonSource(text: string, display: string): InputSource {
  let values: unknown;
  try {
    values = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`${display}: not JSON: ${(error as Error).message}`, { hint: 'one record a line is --format ndjson' });
  }
  if (!Array.isArray(values)) throw new UsageError(`${display}: expected a JSON array of records`);
  return { format: 'json', display, rows: arrayRows(values) };
}
