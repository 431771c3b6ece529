// `-o csv`: RFC 4180. CRLF line endings (as the RFC says, and what Excel and most parsers expect),
// a header row of the dotted field paths, fields quoted only when they contain a comma, quote, CR or
// LF, quotes doubled. Nested values are compact JSON; null and missing are empty.
//
// Cells are exported as they are: a value starting with = + - @ is not altered, because an export
// that changes data (`-12.5` → `'-12.5`) breaks every program that reads it. Whoever opens a csv of
// untrusted data in a spreadsheet should import it as text.
import type { ListEncoder } from './encoder.js';
import { cellText, getField, type FieldPath } from './fields.js';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: unknown): string {
  const text = cellText(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

export function csvListEncoder(headers: readonly string[], paths: readonly FieldPath[]): ListEncoder {
  return {
    begin: () => csvRow(headers),
    record: (record) => csvRow(paths.map((path) => getField(record, path))),
    end: () => '',
  };
}
