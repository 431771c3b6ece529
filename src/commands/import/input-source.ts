// What an import reads, whatever the input's format: its rows as they were read (CSV cells in the
// header's order, or a JSON value), each with two numbers: its place among the rows read (what the
// journal keys on) and its row as a person finds it in the file (what every message names).
import type { CsvDelimiter } from './csv-delimiter.js';

export type InputFormat = 'csv' | 'ndjson' | 'json';
export const INPUT_FORMATS: readonly InputFormat[] = ['csv', 'ndjson', 'json'];

/** One input row as it was read: CSV cells (in header order) or a JSON value. */
export interface SourceRow {
  /**
   * The row's place among the rows read, 1 = the first, blank lines and rows of empty cells not
   * counted: the key of the resume journal, which must mean the same row to the version that wrote
   * it (journal.ts). Never shown: a person cannot count rows that way in a spreadsheet.
   */
  row: number;
  /**
   * The row as a person finds it, in messages, the dry run's plan and `_row` (docs/IMPORT.md). CSV:
   * the records below the header, blank lines and rows of empty cells counted (a record with a
   * multi-line cell is one), so row N is the spreadsheet's row N + 1. NDJSON: the file's line. JSON:
   * the element's place in the array.
   */
  fileRow: number;
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
  /** CSV: the character between its fields, as its header line shows (csv-delimiter.ts). */
  delimiter?: CsvDelimiter;
  /** CSV: the file started with a UTF-8 byte-order mark (Excel's "CSV UTF-8"): the files written from it start with one too. */
  bom?: boolean;
  rows: AsyncIterable<SourceRow>;
  /** Stop reading before the rows end (only the header was wanted). */
  close(): void;
}
