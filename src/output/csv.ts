// `-o csv`: RFC 4180. CRLF line endings (as the RFC says, and what Excel and most parsers expect),
// a header row of the dotted field paths, fields quoted only when they contain a comma, quote, CR or
// LF, quotes doubled. Nested values are compact JSON; null and missing are empty.
//
// Cells are exported as they are: a value starting with = + - @ is not altered, because an export
// that changes data (`-12.5` → `'-12.5`) breaks every program that reads it. Whoever opens a csv of
// untrusted data in a spreadsheet should import it as text.
//
// Written to a terminal, cell text goes through the one sanitising step (core/terminal-text.ts): a
// person reads it, and service text must not drive their terminal. To a file or a pipe it is exact.
import { terminalSafe } from '../core/terminal-text.js';
import type { ListEncoder } from './encoder.js';
import { cellText, getField, type FieldPath } from './fields.js';

const NEEDS_QUOTES = /[",\r\n]/;

export interface CsvOptions {
  /** stdout is a terminal: make cell text terminal-safe. */
  terminal?: boolean;
}

export function csvCell(value: unknown, options: CsvOptions = {}): string {
  const raw = cellText(value);
  const text = options.terminal ? terminalSafe(raw) : raw;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly unknown[], options: CsvOptions = {}): string {
  return `${values.map((value) => csvCell(value, options)).join(',')}\r\n`;
}

export function csvListEncoder(headers: readonly string[], paths: readonly FieldPath[], options: CsvOptions = {}): ListEncoder {
  return {
    begin: () => csvRow(headers, options),
    record: (record) =>
      csvRow(
        paths.map((path) => getField(record, path)),
        options,
      ),
    end: () => '',
  };
}
