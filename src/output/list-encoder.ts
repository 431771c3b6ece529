// The encoder of a list in the plan's format: json and ndjson whole records (or --fields of them),
// csv in its columns (csv-columns.ts: one set for every part of a split export), a table fitted to
// the terminal (--wide: every column). Encoders are pure text; the sinks (sinks.ts) put it somewhere.
import type { Context } from '../core/context.js';
import type { FieldSelection, OutputPlan } from '../core/output-plan.js';
import { csvListEncoder } from './csv.js';
import type { CsvColumns } from './csv-columns.js';
import type { ListEncoder } from './encoder.js';
import { fieldSelection, pickFields } from './fields.js';
import { jsonListEncoder } from './json.js';
import { ndjsonListEncoder } from './ndjson.js';
import type { PublishedSchema } from './parquet-schema.js';
import { formatCount } from './progress.js';
import { tableListEncoder } from './table.js';

export interface View {
  /** Plural noun for progress and notices: "properties". */
  label: string;
  /** Singular noun for "Wrote 1 property": the resource table's (defaults to the label). */
  singular?: string | undefined;
  /** The table's default columns (dotted paths); a csv's header when nothing else names its columns. */
  columns: readonly string[];
  /** Every field of a record, from the published record schema: a csv's columns (csv-columns.ts). */
  recordColumns?: readonly string[] | undefined;
  /** The published record schema itself: a Parquet file's typed columns (parquet-schema.ts). */
  recordSchema?: PublishedSchema | undefined;
  /** Which table columns a narrow terminal keeps first, most important first (default: left to right). */
  priority?: readonly string[] | undefined;
  /** What a table shows for a field that is null or absent (`expiresAt: 'never'`); other formats keep null. */
  blank?: Readonly<Record<string, string>> | undefined;
}

/** Never cut: an id that is cut cannot be pasted into `get`. */
const WHOLE_COLUMNS = ['id'];

/** "1 property", "2 properties". */
export function countOf(count: number, view: Pick<View, 'label' | 'singular'>): string {
  return `${formatCount(count)} ${count === 1 ? (view.singular ?? view.label) : view.label}`;
}

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

export type Projection = (record: Record<string, unknown>) => Record<string, unknown>;

/** json and ndjson: the record, or only its --fields. */
export function projection(plan: OutputPlan): Projection {
  const fields = plan.fields;
  return fields ? (record) => pickFields(record, fields.paths) : (record) => record;
}

/** Columns for a table: `--fields`, else the view's defaults. */
export function columnFields(plan: OutputPlan, columns: readonly string[]): FieldSelection {
  return plan.fields ?? fieldSelection(columns);
}

/** A new encoder of the plan's format (one per file: each part of a split export is a whole document). */
export async function listEncoder(ctx: Context, view: View, csv: CsvColumns | undefined): Promise<ListEncoder> {
  const plan = ctx.output;
  switch (plan.format) {
    case 'json':
      return jsonListEncoder(projection(plan));
    case 'ndjson':
      return ndjsonListEncoder(projection(plan));
    case 'csv':
      // Cell text is made terminal-safe only for a person's terminal (the plan says: not a file).
      return csvListEncoder(csv!, { terminal: plan.terminal });
    case 'parquet':
      throw new Error('a Parquet file is written by its own sink (parquet.ts), not as text');
    case 'table': {
      const { names, paths } = columnFields(plan, view.columns);
      const width = plan.wide ? undefined : plan.width;
      return tableListEncoder(
        names,
        paths,
        { color: plan.color },
        {
          width,
          whole: WHOLE_COLUMNS,
          priority: view.priority,
          blank: view.blank,
          onDropped: (dropped) => ctx.io.notice(droppedNotice(dropped, width ?? 80, plan.wide !== undefined)),
        },
      );
    }
  }
}
