// The rows of an import file, streamed: CSV (csv-parse, loaded on first use, or a file the byte scan
// found without a single quote split at its commas and line ends: unquoted-csv.ts; the header is
// dotted field paths, as `list -o csv` writes them), NDJSON (one object a line) or a JSON array (read whole,
// up to a bound: a JSON array cannot be streamed without a streaming JSON parser; NDJSON and CSV are
// what big files use). Text is decoded in the input's encoding and every row is bounded
// (input-text.ts). Blank lines (and CSV rows of empty cells, a spreadsheet's ",,,") are skipped, as
// every CSV reader does, but counted in the number a row is shown by (`fileRow`: NDJSON's line, so a
// person finds the row the message names); `row`, the journal's key, counts the rows read alone. A
// line that is not a record stays a row (reported invalid), so neither number shifts.
import { constants, createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from '../../core/errors.js';
import { formatBytes } from '../../core/size.js';
import { formatCount } from '../../output/index.js';
import { boundedLines, INPUT_LIMITS, InputText, LineTooLong, rowTooLarge, type InputEncoding } from './input-text.js';
import { openCsv } from './csv-input.js';

import { INPUT_FORMATS, type InputFormat, type InputSource, type SourceRow } from './input-source.js';

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

async function* ndjsonRows(bytes: Readable, text: InputText): AsyncGenerator<SourceRow> {
  const { display } = text;
  let row = 0;
  // The line the reader is at: blank ones counted, so the row a message names is the file's line.
  let fileRow = 0;
  try {
    for await (const raw of boundedLines(bytes, INPUT_LIMITS.rowBytes)) {
      fileRow++;
      const line = text.text(raw, (_line, column) => `row ${formatCount(fileRow)}, column ${column}`).trim();
      if (line === '') continue;
      row++;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        yield { row, fileRow, line, problem: `is not JSON: ${(error as Error).message}` };
        continue;
      }
      yield { row, fileRow, value, line };
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof LineTooLong) throw rowTooLarge(display, `row ${formatCount(fileRow + 1)}`);
    throw new UsageError(`cannot read ${display} after row ${fileRow}: ${(error as Error).message}`);
  } finally {
    bytes.destroy();
  }
}

async function* arrayRows(values: unknown[]): AsyncGenerator<SourceRow> {
  for (let index = 0; index < values.length; index++) yield { row: index + 1, fileRow: index + 1, value: values[index] };
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
