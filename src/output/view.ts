// How a list's records are shown: the view a family or command declares (its label, the table's
// columns, the published record schema a csv's columns and a Parquet file's types come from), and
// the count text of notices ("Wrote 2 properties").
import type { PublishedSchema } from './parquet-schema.js';
import { formatCount } from './progress.js';

export interface View {
  /** Plural noun for progress and notices: "properties". */
  label: string;
  /** Singular noun for "Wrote 1 property": the resource table's (defaults to the label). */
  singular?: string | undefined;
  /** The table's default columns (dotted paths); a csv's header when nothing else names its columns. */
  columns: readonly string[];
  /** Every field of a record, from the published record schema: a csv's columns (csv.ts). */
  recordColumns?: readonly string[] | undefined;
  /** The published record schema itself: a Parquet file's typed columns (parquet-schema.ts). */
  recordSchema?: PublishedSchema | undefined;
  /** Which table columns a narrow terminal keeps first, most important first (default: left to right). */
  priority?: readonly string[] | undefined;
  /** What a table shows for a field that is null or absent (`expiresAt: 'never'`); other formats keep null. */
  blank?: Readonly<Record<string, string>> | undefined;
}

/** "1 property", "2 properties". */
export function countOf(count: number, view: Pick<View, 'label' | 'singular'>): string {
  return `${formatCount(count)} ${count === 1 ? (view.singular ?? view.label) : view.label}`;
}
