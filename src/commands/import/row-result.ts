// What is to be done with one row (its plan), what became of it, and how it reads in the files an
// import leaves (pushed into the output plan's rows sink, output/row-sink.ts): --results gets every
// input row plus `_row, _status, _id, _error` (CSV input: its own columns; NDJSON/JSON input: `id`
// and the request schema's fields as dotted columns); --failed gets the rows to fix as the input
// held them.
import { getField, type PushedRow, type RowSinkShape } from '../../output/index.js';
import type { FieldShape } from '../../core/description/schema.js';
import type { InputFormat, SourceRow } from './input-source.js';
import type { CsvDelimiter } from './csv-delimiter.js';

/** What to do with one row (row-pass.ts RowPlanner decides it); `row` is SourceRow.row, the journal's key. */
export type RowPlan =
  | { kind: 'create'; row: number; body: Record<string, unknown>; key: string | undefined; parentId: string | undefined }
  | { kind: 'update'; row: number; id: string; body: Record<string, unknown>; fields: string[] }
  | { kind: 'unchanged'; row: number; id: string }
  | { kind: 'invalid'; row: number; error: string }
  /** Finished by an earlier run of the same command (the journal). */
  | { kind: 'done'; row: number; status: 'created' | 'updated'; id: string }
  /** A create an earlier run sent without --match whose answer never came: not sent again. */
  | { kind: 'unconfirmed'; row: number; error: string }
  /** Done by the journal's word, but the service does not hold its record: to check and import again. */
  | { kind: 'gone'; row: number; error: string };

export type RowStatus = 'created' | 'updated' | 'unchanged' | 'invalid' | 'failed' | 'skipped';

export interface RowResult {
  /** The row's place among the rows read (SourceRow.row): the journal's key, never shown. */
  row: number;
  status: RowStatus;
  id: string | undefined;
  error: string | undefined;
  /** Rows to fix go to --failed (a create whose answer was lost does not: it may exist). */
  toFix: boolean;
}

export const STATUS_COLUMNS = ['_row', '_status', '_id', '_error'] as const;

/** The leaf field paths of a request schema, in schema order (arrays and bare objects are one cell). */
export function fieldColumns(shape: FieldShape, prefix: string[] = []): string[][] {
  const columns: string[][] = [];
  for (const [name, child] of shape.properties) {
    const path = [...prefix, name];
    if (child.properties.size > 0 && !child.types.has('array')) columns.push(...fieldColumns(child, path));
    else columns.push(path);
  }
  return columns;
}

/** How an import's rows are written: its results' columns and the form of the rows to fix. */
export interface RowLayout {
  sink: RowSinkShape;
  /** The fields written from each JSON row; undefined for CSV input (its own cells). */
  fields: string[][] | undefined;
}

/**
 * `header`: the CSV input's header; `bom`: the files start with a byte-order mark (the input had one,
 * or was in another encoding: see docs/IMPORT.md); `delimiter`: the CSV input's, which the results
 * and failed files keep.
 */
export function rowLayout(
  format: InputFormat,
  header: readonly string[] | undefined,
  shape: FieldShape,
  bom: boolean,
  delimiter: CsvDelimiter = ',',
): RowLayout {
  const fields = header ? undefined : [['id'], ...fieldColumns(shape)];
  const names = header ?? fields!.map((path) => path.join('.'));
  return { sink: { columns: [...names, ...STATUS_COLUMNS], bom, failed: { form: format, header }, delimiter }, fields };
}

/** One row as the sink takes it: `_row` is the row as a person finds it in the input (SourceRow.fileRow). */
export function pushedRow(layout: RowLayout, source: SourceRow, result: RowResult): PushedRow {
  const own = layout.fields ? layout.fields.map((path) => getField(source.value, path)) : (source.cells ?? []);
  return {
    results: [...own, source.fileRow, result.status, result.id ?? '', result.error ?? ''],
    toFix: result.toFix ? source : undefined,
  };
}
