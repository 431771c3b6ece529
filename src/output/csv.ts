// `-o csv`: RFC 4180. CRLF line endings (as the RFC says, and what Excel and most parsers expect),
// a header row of the dotted field paths (which ones: see csvColumns), fields quoted only when they
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
//
// Which columns a csv holds: `--fields` when given; else every field, from the list operation's
// published record schema (flattened dotted paths, schema order: known before the first record);
// without a schema, the fields of the first record. One set serves every part of a split export. A
// field a record carries that the columns leave out is never dropped silently: it is noted and named
// in a warning at the end, with the --fields that gets it.
import type { Context } from '../core/context.js';
import { BOM, type CsvDelimiter, type FieldPath, type FieldSelection } from '../core/output-plan.js';
import { terminalSafe } from '../core/terminal-text.js';
import type { EncoderPart, ListEncoder, ListEncoders } from './encoder.js';
import { cellText, fieldSelection, getField, isPlainObject, pathTrie, type PathTrie } from './fields.js';
import type { View } from './view.js';

/** A record's fields as paths: nested objects flattened, arrays and empty objects one field each. */
export function recordPaths(record: Record<string, unknown>, prefix: readonly string[] = []): FieldPath[] {
  const paths: FieldPath[] = [];
  for (const [key, value] of Object.entries(record)) {
    const path = [...prefix, key];
    if (isPlainObject(value) && Object.keys(value).length > 0) paths.push(...recordPaths(value, path));
    else paths.push(path);
  }
  return paths;
}

/** A csv's columns: names for the header, paths for the cells. */
type Columns = Pick<FieldSelection, 'names' | 'paths'>;

export interface CsvColumns {
  /** The columns, once known (at once with --fields or a schema; else at the first record). */
  known(): Columns | undefined;
  /** The columns for this record: fixes them from it when nothing did yet. */
  forRecord(record: Record<string, unknown>): Columns;
  /** The header of an output with no records at all, when nothing fixed the columns. */
  fallback(): Columns;
  /** Fields records carried that no column holds, in the order first seen. */
  leftOut(): readonly string[];
}

/**
 * `fields`: --fields (exactly those, nothing noted); `published`: the schema's columns; `fallback`:
 * the view's columns, for the header of an empty output without either.
 */
export function csvColumns(fields: Columns | undefined, published: readonly string[] | undefined, fallback: readonly string[]): CsvColumns {
  let columns: Columns | undefined = fields ?? (published ? fieldSelection(published) : undefined);
  let trie = columns && !fields ? pathTrie(columns.paths) : undefined;
  const left = new Map<string, true>();
  const note = (value: unknown, node: PathTrie, prefix: string): void => {
    if (!isPlainObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const name = prefix === '' ? key : `${prefix}.${key}`;
      const next = node.children.get(key);
      if (next === undefined) {
        if (child !== undefined && !left.has(name)) left.set(name, true);
      } else if (!next.whole) note(child, next, name);
    }
  };
  return {
    known: () => columns,
    forRecord(record) {
      if (!columns) {
        const paths = recordPaths(record);
        columns = { names: paths.map((path) => path.join('.')), paths };
        trie = pathTrie(paths);
      }
      if (trie) note(record, trie, '');
      return columns;
    },
    fallback: () => columns ?? fieldSelection(fallback),
    leftOut: () => [...left.keys()],
  };
}

const NEEDS_QUOTES = /[",\r\n]/;
/** With another delimiter (--delimiter, or an import's results and failed rows, written as its input was). */
const NEEDS_QUOTES_WITH: Readonly<Record<string, RegExp>> = { ';': /[",;\r\n]/, '\t': /[",\t\r\n]/ };

export interface CsvOptions {
  /** stdout is a terminal: make cell text terminal-safe. */
  terminal?: boolean;
  /** Between cells: a comma unless --delimiter, or an import's input, says a semicolon or a tab. */
  delimiter?: CsvDelimiter;
  /** --bom: the header row, at the top of the file, starts with a UTF-8 byte-order mark. */
  bom?: boolean;
}

/** A header row, after the byte-order mark --bom asks for (written once, at the top of the file). */
function headerRow(names: readonly string[], options: CsvOptions): string {
  return (options.bom ? BOM : '') + csvRow(names, options);
}

export function csvCell(value: unknown, options: CsvOptions = {}): string {
  const raw = cellText(value);
  const text = options.terminal ? terminalSafe(raw) : raw;
  const needsQuotes = options.delimiter === undefined || options.delimiter === ',' ? NEEDS_QUOTES : NEEDS_QUOTES_WITH[options.delimiter]!;
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly unknown[], options: CsvOptions = {}): string {
  return `${values.map((value) => csvCell(value, options)).join(options.delimiter ?? ',')}\r\n`;
}

/**
 * A csv list: the header as soon as the columns are known (before the first record with --fields or
 * a schema, else with it), one row per record; an empty output without known columns gets `fallback`'s header.
 */
export function csvListEncoder(columns: CsvColumns, options: CsvOptions = {}): ListEncoder {
  let headed = false;
  const header = (names: readonly string[]): string => {
    headed = true;
    return headerRow(names, options);
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

/** Fields some record carried that no csv column holds: named, with the --fields that gets them. */
function reportLeftOut(ctx: Context, columns: CsvColumns): void {
  const left = columns.leftOut();
  const known = columns.known();
  if (left.length === 0 || !known) return;
  ctx.io.warn(
    `csv: some records have fields that are not columns, left out: ${left.join(', ')}; get them with --fields ${[...known.names, ...left].join(',')} (or -o ndjson)`,
  );
}

/** `-o csv`: one column set for the run (every part of a split export), its left-out fields reported at the end. */
export class CsvPart implements EncoderPart {
  encoders(ctx: Context, view: View): ListEncoders {
    const plan = ctx.output;
    const columns = csvColumns(plan.fields, view.recordColumns, view.columns);
    // Cell text is made terminal-safe only for a person's terminal (the plan says: not a file).
    const options: CsvOptions = { terminal: plan.terminal, ...plan.csv };
    return { encoder: async () => csvListEncoder(columns, options), report: () => reportLeftOut(ctx, columns) };
  }

  /** One record: a header and a row, of --fields, else the published fields, else the record's own. */
  async one(ctx: Context, view: View, record: Record<string, unknown>): Promise<string> {
    const plan = ctx.output;
    const recordColumns = view.recordColumns ? fieldSelection(view.recordColumns) : undefined;
    const own = recordPaths(record);
    const { names, paths } = plan.fields ?? recordColumns ?? { names: own.map((path) => path.join('.')), paths: own };
    const options: CsvOptions = { terminal: plan.terminal, ...plan.csv };
    return (
      headerRow(names, options) +
      csvRow(
        paths.map((path) => getField(record, path)),
        options,
      )
    );
  }
}
