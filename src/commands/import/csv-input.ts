// The rows of a CSV input: csv-parse (loaded on first use), or the split of a file the byte scan
// found without a single quote (unquoted-csv.ts), at the delimiter its header line shows
// (csv-delimiter.ts: a comma, a semicolon or a tab); every record bounded on its bytes before it is
// parsed (RecordGuard, input-text.ts); the header checked (no empty or repeated name, no
// prototype key); a row with another number of cells than the header stays a row (reported invalid).
import { pipeline, type Readable, type Transform } from 'node:stream';
import { UsageError } from '../../core/errors.js';
import { formatCount } from '../../output/index.js';
import type { InputSource, SourceRow } from './input-source.js';
import { InputText, OVERFLOW_MARK, RecordGuard, rowTooLarge, tooManyColumns, UTF8_BOM } from './input-text.js';
import { UnquotedCsv } from './unquoted-csv.js';
import { csvDelimiter, peekHeaderLine, type CsvDelimiter } from './csv-delimiter.js';
import { fileErrorWords } from '../../core/file-error-words.js';

/** A CSV record of blank cells only: a blank line, or a spreadsheet's row of empty cells. */
const isBlank = (cells: readonly string[]) => cells.every((cell) => /^[ \t\r\n]*$/.test(cell));

/** The record both readers make of an empty line. */
const isEmptyLine = (cells: readonly string[]) => cells.length === 1 && cells[0] === '';

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
  // Every record below the header, blank ones too (both readers make one of an empty line): the row
  // a spreadsheet shows, less its header's, which is what messages and `_row` name.
  let fileRow = 0;
  try {
    for await (const raw of records) {
      fileRow++;
      // The row's name is made only for its error: formatCount per row was a tenth of a re-import's CPU.
      const overflow = overflowOf(guard, raw, () => `row ${formatCount(fileRow)}`);
      if (overflow) throw overflow;
      if (isBlank(raw)) continue;
      row++;
      // The parser's own array, its cells decoded in place: a new array per row was garbage at once.
      const cells = raw;
      for (let index = 0; index < cells.length; index++) {
        const cell = cells[index]!;
        if (!InputText.plain(cell))
          cells[index] = text.cell(cell, () => `row ${formatCount(fileRow)}, column ${header[index] ?? index + 1}`);
      }
      if (cells.length !== header.length) {
        yield { row, fileRow, cells, problem: `has ${cells.length} cells where the header has ${header.length}` };
        continue;
      }
      yield { row, fileRow, cells };
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${display}: not readable as CSV after row ${fileRow}: ${(error as Error).message}`);
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
export async function csvParser(display: string, unquoted: boolean, delimiter: CsvDelimiter = ','): Promise<Transform> {
  if (unquoted) return new UnquotedCsv(display, delimiter);
  const { parse } = await import('csv-parse');
  return parse({
    delimiter,
    // No `bom`: finding one, csv-parse would decode the cells as UTF-8 itself (RecordGuard drops it).
    // One character per byte: the cells' bytes reach InputText as they are in the file, decoded there.
    encoding: 'latin1',
    relax_column_count: true,
    // An empty line is a record (of one empty cell), skipped by the reader as blank but counted in
    // the row numbers shown: a spreadsheet shows it as a row.
    skip_empty_lines: false,
    // Any of the three line ends, mixed: a file saved with CRLF and a final LF added by an editor.
    record_delimiter: ['\r\n', '\n', '\r'],
  });
}

export async function openCsv(given: Readable, text: InputText, unquoted: boolean): Promise<InputSource> {
  const { display } = text;
  let peeked: { head: Buffer; bytes: Readable };
  try {
    peeked = await peekHeaderLine(given);
  } catch (error) {
    given.destroy();
    throw new UsageError(`cannot read ${display}: ${fileErrorWords(error)}`);
  }
  const { bytes } = peeked;
  const delimiter = csvDelimiter(peeked.head);
  const parser = await csvParser(display, unquoted, delimiter);
  // The bounds on a record are counted on the bytes, before the parser builds it (input-text.ts).
  const guard = new RecordGuard(text.display);
  // pipeline, not pipe: a read that fails part-way (EIO, a vanished mount) must reach the reader of
  // the rows as an error, not leave the parser waiting for bytes that never come.
  pipeline(bytes, guard, parser, () => {});
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let first: IteratorResult<string[]>;
  try {
    // Empty lines before the header are not its row (csv-parse skipped them when it skipped every empty line).
    do first = await records.next();
    while (!first.done && isEmptyLine(first.value));
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
  const bom = guard.starts !== undefined && UTF8_BOM.equals(guard.starts.subarray(0, 3));
  return { format: 'csv', display, header, delimiter, bom, rows: csvRows(bytes, guard, text, header, rest), close: () => bytes.destroy() };
}
