// The sink of an import's rows, the one its output plan names (core/sink-plan.ts `rows`): each row's
// outcome is pushed as it finishes, in input order — rows are not pulled from a pager. Every row goes
// to --results, a CSV of the row's own cells and its outcome; the rows to fix go to --failed in the
// input's own form (the same CSV header, the NDJSON lines as written, a JSON array), so it imports
// again as it is. Each is an atomic file (atomic-out-file.ts): written beside its path, renamed into
// place when the run ends, never half; --failed is placed only when some row went to it.
import type { Context } from '../core/context.js';
import { atomicFile } from './atomic-out-file.js';
import { BOM, type CsvDelimiter } from '../core/output-plan.js';
import { csvRow, type CsvOptions } from './csv.js';
import type { Destination } from './destination.js';

/** The form the rows to fix are written in: the input's. */
export type RowForm = 'csv' | 'ndjson' | 'json';

export interface RowSinkShape {
  /** The results' header. */
  columns: readonly string[];
  /**
   * A byte-order mark starts both files: the input had one (Excel's "CSV UTF-8") or was in another
   * encoding, and Excel reads UTF-8 as UTF-8 only after one.
   */
  bom: boolean;
  /** The rows to fix: their form and a CSV's header. */
  failed: { form: RowForm; header: readonly string[] | undefined };
  /** Between the CSV cells of both files: the input CSV's own (a semicolon or a tab), else a comma. */
  delimiter?: CsvDelimiter;
}

/** A row as the input held it: CSV cells, an NDJSON line as written, or a JSON value. */
export interface InputRow {
  cells?: readonly string[] | undefined;
  line?: string | undefined;
  value?: unknown;
}

export interface PushedRow {
  /** The row's results line, its cells in the order of `columns`. */
  results: readonly unknown[];
  /** The row as read, when it is one to fix. */
  toFix?: InputRow | undefined;
}

export interface RowSink {
  push(row: PushedRow): Promise<void>;
  /** Every row was pushed: place the files. */
  finish(): Promise<void>;
  /** Something failed: leave no file behind. Never throws. */
  discard(): Promise<void>;
}

function failedText(form: RowForm, row: InputRow, first: boolean, csv: CsvOptions): string {
  if (form === 'csv') return csvRow(row.cells ?? [], csv);
  if (form === 'ndjson') return `${row.line ?? JSON.stringify(row.value)}\n`;
  return `${first ? '' : ',\n'}${JSON.stringify(row.value ?? null)}`;
}

/** Open the plan's row files (either may be absent). */
export async function openRowSink(ctx: Context, shape: RowSinkShape): Promise<RowSink> {
  const plan = ctx.output.sink;
  if (plan.kind !== 'rows') throw new Error(`an import's rows go to the rows sink, not to ${plan.kind}`);
  const { form, header } = shape.failed;
  const mark = shape.bom ? BOM : '';
  const csv: CsvOptions = { delimiter: shape.delimiter ?? ',' };
  const results = plan.results && (await atomicFile(plan.results.path, plan.results.given));
  let failed: Destination | undefined;
  try {
    failed = plan.failed && (await atomicFile(plan.failed.path, plan.failed.given));
    await results?.write(`${mark}${csvRow(shape.columns, csv)}`);
    await failed?.write(`${mark}${form === 'csv' ? csvRow(header ?? [], csv) : form === 'json' ? '[\n' : ''}`);
  } catch (error) {
    await results?.discard();
    await failed?.discard();
    throw error;
  }
  let toFix = 0;
  return {
    async push(row) {
      await results?.write(csvRow(row.results, csv));
      if (row.toFix && failed) await failed.write(failedText(form, row.toFix, toFix === 0, csv));
      if (row.toFix) toFix++;
    },
    async finish() {
      await results?.finish();
      if (!failed) return;
      if (toFix === 0) return failed.discard();
      if (form === 'json') await failed.write('\n]\n');
      await failed.finish();
    },
    async discard() {
      await results?.discard();
      await failed?.discard();
    },
  };
}
