// `-o table`, for people: cli-table3 with a header row, long cells cut with … so rows stay on one
// line, nested values as compact JSON. A table must know its column widths before it prints, so it
// is the one format that buffers — in chunks of CHUNK_ROWS rows, each printed as its own table, so
// memory stays flat on any export. Control characters from the data never reach the terminal.
import { terminalSafe } from '../core/terminal-text.js';
import type { ListEncoder } from './encoder.js';
import { cellText, getField, type FieldPath } from './fields.js';

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

/** Terminal-safe cell text (core/terminal-text.ts); line breaks become ↵ unless `keepNewlines`. */
export function safeText(text: string, keepNewlines = false): string {
  const flat = keepNewlines ? text.replace(/\r\n?/g, '\n') : text.replace(/\r\n|\r|\n/g, '↵');
  return terminalSafe(flat.replaceAll('\t', ' '));
}

export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** For people: a list of plain values reads `api:read, api:write`, not a JSON array (CSV and JSON keep the array). */
function humanText(value: unknown): string {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')) {
    return value.map(String).join(', ');
  }
  return cellText(value);
}

export function tableCell(value: unknown, max = MAX_CELL_WIDTH): string {
  return truncate(safeText(humanText(value)), max);
}

// cli-table3's own colours go through @colors/colors, which decides by itself whether the process
// supports colour. We already decided (terminal, --no-color, NO_COLOR), so we add the codes ourselves.
const NO_STYLE = { head: [], border: [] };

function headerCell(text: string, style: TableStyle): string {
  return style.color ? `\u001b[1m${text}\u001b[22m` : text;
}

// No line between rows: a list of a thousand records should not take two thousand lines.
const COMPACT_CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/** Draw the one rule a compact table lacks, under the header: the top border with ├ ┼ ┤ joints. */
function underlineHeader(rendered: string): string {
  const lines = rendered.split('\n');
  if (lines.length < 3) return rendered;
  const rule = lines[0]!.replace('┌', '├').replaceAll('┬', '┼').replace('┐', '┤');
  return [lines[0], lines[1], rule, ...lines.slice(2)].join('\n');
}

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

export async function tableListEncoder(
  headers: readonly string[],
  paths: readonly FieldPath[],
  style: TableStyle,
  chunkRows = CHUNK_ROWS,
): Promise<ListEncoder> {
  const Table = await loadTable();
  const head = headers.map((h) => headerCell(safeText(h), style));
  let rows: string[][] = [];
  const render = () => {
    const table = new Table({ head, style: NO_STYLE, chars: COMPACT_CHARS });
    table.push(...rows);
    rows = [];
    return `${underlineHeader(table.toString())}\n`;
  };
  return {
    begin: () => '',
    record(record) {
      rows.push(paths.map((path) => tableCell(getField(record, path))));
      return rows.length >= chunkRows ? render() : '';
    },
    end: () => (rows.length > 0 ? render() : ''),
  };
}

export interface KeyValueOptions extends TableStyle {
  /** Terminal width when known; values wrap to fit it. */
  width: number | undefined;
}

/** One record as a two-column table of dotted keys and values, wrapped to the terminal width. */
export async function keyValueTable(rows: ReadonlyArray<readonly [string, unknown]>, options: KeyValueOptions): Promise<string> {
  if (rows.length === 0) return '';
  const Table = await loadTable();
  const width = Math.max(40, options.width ?? 120);
  const keys = rows.map(([key]) => truncate(safeText(key), 40));
  const values = rows.map(([, value]) => safeText(humanText(value), true));
  // Column widths include one space of padding on each side; three border characters per row.
  const keyWidth = Math.max(...keys.map((k) => Array.from(k).length)) + 2;
  const longest = Math.max(...values.flatMap((v) => v.split('\n').map((line) => Array.from(line).length))) + 2;
  const valueWidth = Math.max(12, Math.min(longest, width - keyWidth - 3));
  const table = new Table({ style: NO_STYLE, colWidths: [keyWidth, valueWidth], chars: COMPACT_CHARS });
  table.push(...keys.map((key, i) => [key, wrapText(values[i] ?? '', valueWidth - 2)]));
  return `${table.toString()}\n`;
}
