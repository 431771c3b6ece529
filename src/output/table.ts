// `-o table`, for people: a header row, long cells cut with … so rows stay on one line, nested
// values as compact JSON, timestamps to the minute (`2026-11-27 13:45Z`), fitted to the terminal's
// width (trailing columns dropped with a note). A number is never cut (`29…` of 29,450 reads as a
// number): a column of numbers is left out rather than narrowed, and a later number wider than its
// column is printed whole, the rest of its row moved over.
// A table must know its column widths before it prints, so it buffers its first CHUNK_ROWS rows to
// choose them, then keeps them for the rest of the list: memory stays flat on any export. Control
// characters from the data never reach the terminal.
import type { Context } from '../core/context.js';
import { terminalSafe } from '../core/terminal-text.js';
import type { EncoderPart, ListEncoder, ListEncoders } from './encoder.js';
import { fitTable } from './table-fit.js';
import { cellText, fieldSelection, flattenRecord, getField, type FieldPath } from './fields.js';
import type { View } from './view.js';

type TableConstructor = typeof import('cli-table3');

export const CHUNK_ROWS = 1000;
export const MAX_CELL_WIDTH = 40;

export interface TableStyle {
  color: boolean;
}

/** cli-table3 is loaded on first use: start-up of every other command stays fast. */
async function loadTable(): Promise<TableConstructor> {
  return (await import('cli-table3')).default;
}

/** The text-width functions, loaded with the table for the same reason (text-width.ts). */
type Widths = typeof import('./text-width.js');
const loadWidths = (): Promise<Widths> => import('./text-width.js');

/** Terminal-safe cell text (core/terminal-text.ts); line breaks become ↵ unless `keepNewlines`. */
export function safeText(text: string, keepNewlines = false): string {
  const flat = keepNewlines ? text.replace(/\r\n?/g, '\n') : text.replace(/\r\n|\r|\n/g, '↵');
  return terminalSafe(flat.replaceAll('\t', ' '));
}

/** An ISO 8601 date-time to the minute or finer, with its offset: what the service sends for times. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * A timestamp as a list's cell shows it: `2026-11-27 13:45Z` (UTC, to the minute; 17 characters)
 * instead of `2026-11-27T13:45:09.123Z` cut to `2026-11-27T13:45:0…` at 80 columns. Only tables:
 * json, ndjson, csv and `get`'s key/value table keep the service's exact value. Any other text is
 * returned as it is.
 */
export function tableTime(text: string): string {
  if (!TIMESTAMP.test(text)) return text;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return text;
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`;
}

/** For people: a list of plain values reads `api:read, api:write`, not a JSON array (CSV and JSON keep the array). */
function humanText(value: unknown): string {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')) {
    return value.map(String).join(', ');
  }
  return cellText(value);
}

export function tableCell(value: unknown, widths: Pick<Widths, 'truncate'>, max = MAX_CELL_WIDTH): string {
  return widths.truncate(safeText(typeof value === 'string' ? tableTime(value) : humanText(value)), max);
}

// cli-table3's own colours go through @colors/colors, which decides by itself whether the process
// supports colour. We already decided (terminal, --no-color, NO_COLOR), so we add the codes ourselves.
const NO_STYLE = { head: [], border: [] };

function headerCell(text: string, style: TableStyle): string {
  return style.color ? `\u001b[1m${text}\u001b[22m` : text;
}

// No line between rows: a list of a thousand records should not take two thousand lines.
const COMPACT_CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/** Greedy word wrap to `width` characters; words longer than a line are split. */
export function wrapText(text: string, width: number): string {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line: string[] = [];
    for (const word of paragraph.split(' ')) {
      let chars = Array.from(word);
      const needed = line.length === 0 ? chars.length : line.length + 1 + chars.length;
      if (needed <= width) {
        if (line.length > 0) line.push(' ');
        line.push(...chars);
        continue;
      }
      if (line.length > 0) out.push(line.join(''));
      line = [];
      while (chars.length > width) {
        out.push(chars.slice(0, width).join(''));
        chars = chars.slice(width);
      }
      line = chars;
    }
    out.push(line.join(''));
  }
  return out.join('\n');
}

export interface TableFit {
  /** Terminal width to fit (COLUMNS / the TTY); undefined: no limit. */
  width: number | undefined;
  /** Columns left out to fit the width, reported once. */
  onDropped(names: readonly string[]): void;
  /** Columns never narrowed nor dropped (`id`). */
  whole?: readonly string[];
  /** Columns to keep first when the width is short, most important first (View.priority). */
  priority?: readonly string[] | undefined;
  /** What a null or absent value shows, by column (View.blank). */
  blank?: Readonly<Record<string, string>> | undefined;
}

/**
 * One table for the whole list: the first CHUNK_ROWS rows decide the column widths (fitted to the
 * terminal), the header is printed once, and every later row uses the same widths, so memory stays
 * flat and the columns line up over any number of rows. cli-table3 renders whole tables only,
 * which is why list rows are drawn here (with the same box characters).
 */
export async function tableListEncoder(
  headers: readonly string[],
  paths: readonly FieldPath[],
  style: TableStyle,
  fit: TableFit = { width: undefined, onDropped: () => undefined },
  chunkRows = CHUNK_ROWS,
): Promise<ListEncoder> {
  const measure = await loadWidths();
  const { truncate, displayWidth: textWidth } = measure;
  const head = headers.map((h) => truncate(safeText(h), MAX_CELL_WIDTH));
  /** A row's cells, and which of them are numbers (never cut). */
  type Row = { cells: string[]; numbers: Set<number> };
  let buffered: Row[] | undefined = [];
  let widths: number[] = [];
  // The columns shown, by index into headers (all until the first rows are laid out).
  let kept: number[] = headers.map((_, i) => i);
  const whole = new Set(headers.flatMap((header, i) => (fit.whole?.includes(header) ? [i] : [])));
  const priority = fit.priority?.flatMap((name) => {
    const i = headers.indexOf(name);
    return i < 0 ? [] : [i];
  });
  const rule = (left: string, mid: string, right: string) => `${left}${widths.map((w) => '─'.repeat(w + 2)).join(mid)}${right}\n`;
  const line = ({ cells, numbers }: Row, bold = false) =>
    `│${widths
      .map((w, k) => {
        const text = numbers.has(kept[k]!) ? (cells[kept[k]!] ?? '') : truncate(cells[kept[k]!] ?? '', w);
        const padded = text + ' '.repeat(Math.max(0, w - textWidth(text)));
        return ` ${bold ? headerCell(padded, style) : padded} `;
      })
      .join('│')}│\n`;
  const layout = (rows: Row[]): string => {
    const natural = head.map((h, i) => Math.max(textWidth(h), ...rows.map((row) => textWidth(row.cells[i]!))));
    // A column of numbers (every value given one) is never narrowed.
    const uncut = new Set(
      head.flatMap((_, i) =>
        rows.some((row) => row.numbers.has(i)) && rows.every((row) => row.numbers.has(i) || row.cells[i] === '') ? [i] : [],
      ),
    );
    ({ kept, widths } = fitTable(natural, fit.width, { whole, uncut, ...(priority ? { priority } : {}) }));
    if (kept.length < head.length) fit.onDropped(headers.filter((_, i) => !kept.includes(i)));
    return (
      rule('┌', '┬', '┐') + line({ cells: head, numbers: new Set() }, true) + rule('├', '┼', '┤') + rows.map((row) => line(row)).join('')
    );
  };
  return {
    begin: () => '',
    record(record) {
      const numbers = new Set<number>();
      const cells = paths.map((path, i) => {
        const value = getField(record, path);
        if (typeof value !== 'number' && typeof value !== 'bigint') return tableCell(value ?? fit.blank?.[headers[i]!], measure);
        numbers.add(i);
        return cellText(value);
      });
      const row: Row = { cells, numbers };
      if (buffered === undefined) return line(row);
      buffered.push(row);
      if (buffered.length < chunkRows) return '';
      const text = layout(buffered);
      buffered = undefined;
      return text;
    },
    end(count) {
      if (count === 0) return '';
      const text = buffered === undefined ? '' : layout(buffered);
      buffered = undefined;
      return `${text}${rule('└', '┴', '┘')}`;
    },
  };
}

/** Never cut: an id that is cut cannot be pasted into `get`. */
const WHOLE_COLUMNS = ['id'];

/**
 * "Left out … to fit 80 columns", itself no wider than the width: the columns named while they fit,
 * then how many more.
 */
export function droppedNotice(dropped: readonly string[], width: number, wideOption: boolean): string {
  const advice = `${wideOption ? '--wide shows every column, ' : ''}--fields picks them`;
  const full = `Left out ${dropped.join(', ')} to fit ${width} columns (${advice})`;
  if (Array.from(full).length <= width) return full;
  const short = wideOption ? '--wide shows all' : '--fields picks them';
  for (let shown = dropped.length; shown >= 0; shown--) {
    const names = dropped.slice(0, shown).join(', ');
    const rest = dropped.length - shown;
    const list = rest === 0 ? names : shown === 0 ? `${rest} columns` : `${names} and ${rest} more`;
    const text = `Left out ${list} to fit (${short})`;
    if (Array.from(text).length <= width) return text;
  }
  return `Left out ${dropped.length} columns`;
}

/** `-o table`: the --fields, else the view's columns, fitted to the terminal unless --wide. */
export class TablePart implements EncoderPart {
  encoders(ctx: Context, view: View): ListEncoders {
    const plan = ctx.output;
    const { names, paths } = plan.fields ?? fieldSelection(view.columns);
    const width = plan.wide ? undefined : plan.width;
    const fit: TableFit = {
      width,
      whole: WHOLE_COLUMNS,
      priority: view.priority,
      blank: view.blank,
      onDropped: (dropped) => ctx.io.notice(droppedNotice(dropped, width ?? 80, plan.wide !== undefined)),
    };
    return { encoder: () => tableListEncoder(names, paths, { color: plan.color }, fit), report: () => undefined };
  }

  /** One record: key/value rows (its --fields, nested objects as dotted keys), wrapped to the terminal. */
  async one(ctx: Context, view: View, record: Record<string, unknown>): Promise<string> {
    const plan = ctx.output;
    const fields = plan.fields;
    const rows = fields
      ? fields.names.flatMap((name, i): Array<[string, unknown]> => {
          const value = getField(record, fields.paths[i]!);
          return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0
            ? flattenRecord(value as Record<string, unknown>, name)
            : [[name, value]];
        })
      : flattenRecord(record);
    const shown = rows.map(([name, value]): [string, unknown] => [name, value ?? view.blank?.[name] ?? value]);
    return keyValueTable(shown, { color: plan.color, width: plan.width });
  }
}

export interface KeyValueOptions extends TableStyle {
  /** Terminal width when known; values wrap to fit it. */
  width: number | undefined;
}

/** One record as a two-column table of dotted keys and values, wrapped to the terminal width. */
export async function keyValueTable(rows: ReadonlyArray<readonly [string, unknown]>, options: KeyValueOptions): Promise<string> {
  if (rows.length === 0) return '';
  const [Table, { truncate, displayWidth }] = await Promise.all([loadTable(), loadWidths()]);
  const width = Math.max(40, options.width ?? 120);
  const keys = rows.map(([key]) => truncate(safeText(key), 40));
  const values = rows.map(([, value]) => safeText(humanText(value), true));
  // Column widths include one space of padding on each side; three border characters per row.
  const keyWidth = Math.max(...keys.map((k) => displayWidth(k))) + 2;
  const longest = Math.max(...values.flatMap((v) => v.split('\n').map((line) => displayWidth(line)))) + 2;
  const valueWidth = Math.max(12, Math.min(longest, width - keyWidth - 3));
  const table = new Table({ style: NO_STYLE, colWidths: [keyWidth, valueWidth], chars: COMPACT_CHARS });
  table.push(...keys.map((key, i) => [key, wrapText(values[i] ?? '', valueWidth - 2)]));
  return `${table.toString()}\n`;
}
