// How many terminal columns a cell's text takes, and the cut that keeps it within a column: East
// Asian wide characters and emoji two, combining marks none. Measured as cli-table3 measures the
// cells it pads (string-width, the version it uses), so that a cut cell and its border agree;
// counting characters drew a row of 東京 or 🏠 wider than its column and than the terminal.
// Loaded with the table (table.ts imports it when a table is drawn): string-width and the emoji
// pattern it builds cost ~6 ms of every command's start-up when they were part of the bundle's start.
import stringWidth from 'string-width';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** How many terminal columns `text` takes (one line, already terminal-safe). */
export function displayWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/** `text` cut to at most `max` columns, whole characters (an emoji sequence, a letter and its marks) only. */
export function cutToWidth(text: string, max: number): string {
  let kept = '';
  let width = 0;
  for (const { segment } of graphemes.segment(text)) {
    width += displayWidth(segment);
    if (width > max) break;
    kept += segment;
  }
  return kept;
}

/** `text` in at most `max` terminal columns, ending in … when cut. */
export function truncate(text: string, max: number): string {
  return displayWidth(text) <= max ? text : `${cutToWidth(text, max - 1)}…`;
}
