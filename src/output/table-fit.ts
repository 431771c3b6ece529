// Which columns of a table fit the terminal, and how wide each is: the least important left out while
// even their narrowest do not fit, then the widest narrowed a character at a time. An id is never cut
// nor left out (a cut id cannot be pasted into `get`), a number never cut (a cut number reads as
// another number), text down to MIN_COLUMN characters.

/** Narrowest a column is squeezed to before trailing columns are dropped instead. */
const MIN_COLUMN = 16;

export interface FitOptions {
  /** Columns never narrowed nor dropped (the `id`: a cut id cannot be pasted into `get`). */
  whole?: ReadonlySet<number>;
  /** Columns never narrowed, but left out when they do not fit (numbers: a cut number reads as another). */
  uncut?: ReadonlySet<number>;
  /** Which columns to keep first, most important first (default: left to right); the last go first. */
  priority?: readonly number[];
}

/**
 * The columns that fit `width` (a line is 1 + Σ(width + 3) characters) and their content widths:
 * the least important columns dropped while even the minimums do not fit (never a whole one), then
 * the widest columns narrowed one character at a time. `kept` keeps the columns' own order.
 */
export function fitTable(
  natural: readonly number[],
  width: number | undefined,
  options: FitOptions = {},
): { kept: number[]; widths: number[] } {
  const all = natural.map((_, i) => i);
  if (width === undefined) return { kept: all, widths: [...natural] };
  const whole = options.whole ?? new Set<number>();
  const uncut = options.uncut ?? new Set<number>();
  const minimum = (i: number) => (whole.has(i) || uncut.has(i) ? natural[i]! : Math.min(natural[i]!, MIN_COLUMN));
  const lineOf = (columns: readonly number[], widthOf: (i: number) => number) => 1 + columns.reduce((sum, i) => sum + widthOf(i) + 3, 0);
  const priority = [...(options.priority ?? all).filter((i) => i < natural.length), ...all.filter((i) => !options.priority?.includes(i))];
  const kept = new Set(all);
  for (let k = priority.length - 1; k >= 0 && kept.size > 1 && lineOf([...kept], minimum) > width; k--) {
    if (!whole.has(priority[k]!)) kept.delete(priority[k]!);
  }
  const columns = all.filter((i) => kept.has(i));
  const widths = new Map(columns.map((i) => [i, natural[i]!]));
  while (lineOf(columns, (i) => widths.get(i)!) > width) {
    let widest = -1;
    for (const i of columns) if (widths.get(i)! > minimum(i) && (widest < 0 || widths.get(i)! > widths.get(widest)!)) widest = i;
    if (widest < 0) break;
    widths.set(widest, widths.get(widest)! - 1);
  }
  return { kept: columns, widths: columns.map((i) => widths.get(i)!) };
}
