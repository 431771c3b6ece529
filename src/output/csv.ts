// `-o csv`: RFC 4180. CRLF line endings (as the RFC says, and what Excel and most parsers expect),
// a header row of the dotted field paths (which ones: csv-columns.ts), fields quoted only when they
// contain a comma, quote, CR or LF, quotes doubled. An array (or an object in no column of its own)
// is one cell of compact JSON text (`["a","b"]`), which `import` reads back; null and missing are an
// empty cell.
//
// Cells are exported as they are: a value starting with = + - @ is not altered, because an export
// that changes data (`-12.5` → `'-12.5`) breaks every program that reads it. Whoever opens a csv of
// untrusted data in a spreadsheet should import it as text.
//
// Written to a terminal, cell text goes through the one sanitising step (core/terminal-text.ts): a
// person reads it, and service text must not drive their terminal. To a file or a pipe it is exact.
import { terminalSafe } from '../core/terminal-text.js';
import type { CsvColumns } from './csv-columns.js';
import type { ListEncoder } from './encoder.js';
import { cellText, getField } from './fields.js';

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

/**
 * A csv list: the header as soon as the columns are known (before the first record with --fields or
 * a schema, else with it), one row per record; an empty output without known columns gets `fallback`'s header.
 */
export function csvListEncoder(columns: CsvColumns, options: CsvOptions = {}): ListEncoder {
  let headed = false;
  const header = (names: readonly string[]): string => {
    headed = true;
    return csvRow(names, options);
  };
  return {
    begin: () => {
      const known = columns.known();
      return known ? header(known.names) : '';
    },
    record(record) {
      const { names, paths } = columns.forRecord(record);
      const row = csvRow(
        paths.map((path) => getField(record, path)),
        options,
      );
      return headed ? row : header(names) + row;
    },
    end: () => (headed ? '' : header(columns.fallback().names)),
    resume() {
      headed = true;
    },
  };
}
