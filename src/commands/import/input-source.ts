// What an import reads, whatever the input's format: its rows as they were read (CSV cells in the
// header's order, or a JSON value), numbered the same way for every format.
import type { CsvDelimiter } from './csv-delimiter.js';

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
  /** CSV: the character between its fields, as its header line shows (csv-delimiter.ts). */
  delimiter?: CsvDelimiter;
  /** CSV: the file started with a UTF-8 byte-order mark (Excel's "CSV UTF-8"): the files written from it start with one too. */
  bom?: boolean;
  rows: AsyncIterable<SourceRow>;
  /** Stop reading before the rows end (only the header was wanted). */
  close(): void;
}
