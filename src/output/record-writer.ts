// Writing records: one pipe from a source to the run's one sink. openPipe opens the sink the output
// plan chose (sinks.ts) with the csv columns it needs; write() pumps the records into it
// (record-pump.ts), then finishes it, or discards it on any failure, and says what was written.
// Every format streams except table, which buffers bounded chunks (see table.ts). Nothing here
// chooses a sink or a format: the plan (ctx.output) did, once.
import type { PageDone } from '../core/api-client.js';
import type { Context } from '../core/context.js';
import { ContractError, UsageError } from '../core/errors.js';
import type { OutputPlan } from '../core/output-plan.js';
import type { ExportedCollection } from './checkpoint.js';
import { csvRow } from './csv.js';
import { csvColumns, recordPaths, type CsvColumns } from './csv-columns.js';
import { atomicOutFile } from './atomic-out-file.js';
import type { Destination } from './destination.js';
import { fieldSelection, flattenRecord, getField } from './fields.js';
import { jsonDocument } from './json.js';
import { countOf, projection, type View } from './list-encoder.js';
import { ndjsonLine } from './ndjson.js';
import { abortReason, pump } from './record-pump.js';
import type { Resumed } from './sink.js';
import { openSink } from './sinks.js';
import type { FilePart } from './split.js';
import { stdoutDestination, type StdoutOptions } from './stdout-destination.js';
import { keyValueTable } from './table.js';

/**
 * Passes records through, noting which --fields some record has: a field no record has is a
 * warning (a typo), not a silently empty column.
 */
function watchFields(
  ctx: Context,
  plan: OutputPlan,
  records: AsyncIterable<Record<string, unknown>>,
  view: View,
): { records: AsyncIterable<Record<string, unknown>>; report(count: number): void } {
  const fields = plan.fields;
  if (!fields) return { records, report: () => undefined };
  const missing = new Map(fields.names.map((name, i) => [name, fields.paths[i]!]));
  async function* watched(): AsyncGenerator<Record<string, unknown>> {
    for await (const record of records) {
      if (missing.size > 0) for (const [name, path] of missing) if (getField(record, path) !== undefined) missing.delete(name);
      yield record;
    }
  }
  return {
    records: watched(),
    report(count) {
      // Named by the record's kind: an export of several families says whose field it is.
      if (count > 0 && missing.size > 0) ctx.io.warn(`--fields: no ${view.singular ?? 'record'} has ${[...missing.keys()].join(', ')}`);
    },
  };
}

/** Fields some record carried that no csv column holds: named, with the --fields that gets them. */
function reportLeftOut(ctx: Context, csv: CsvColumns): void {
  const left = csv.leftOut();
  const columns = csv.known();
  if (left.length === 0 || !columns) return;
  ctx.io.warn(
    `csv: some records have fields that are not columns, left out: ${left.join(', ')}; get them with --fields ${[...columns.names, ...left].join(',')} (or -o ndjson)`,
  );
}

/** The plan's `--out` file written atomically, or stdout: where one record (writeRecord) or a text output (api, smoke) goes. */
export async function openDestination(ctx: Context, options: StdoutOptions = {}): Promise<Destination> {
  return ctx.output.outPath === undefined ? stdoutDestination(ctx.io, options) : atomicOutFile(ctx.output);
}

/** An open pipe: its source may ask where a resumed export continues, and says when a page is done. */
export interface RecordPipe {
  /** A resumable export continued (--resume): the page the source starts after, and the records already written. */
  readonly resumed: Resumed | undefined;
  /** A page of the source is complete (a resumable export checkpoints it). */
  pageDone(done: PageDone): Promise<void>;
  /** Pump every record into the sink and finish it; on any failure it is discarded. */
  write(records: AsyncIterable<Record<string, unknown>>): Promise<{ count: number; files?: FilePart[] }>;
  /** The source failed before write(): leave nothing behind. */
  discard(): Promise<void>;
}

/** Open the run's sink for records shown as `view`; `exported`: the collection a list exports (for a resumable one). */
export async function openPipe(ctx: Context, view: View, exported?: ExportedCollection): Promise<RecordPipe> {
  const plan = ctx.output;
  // One column set for every part of a split csv, known before the first record when it can be.
  const csv = plan.format === 'csv' ? csvColumns(plan.fields, view.recordColumns, view.columns) : undefined;
  const sink = await openSink(ctx, view, csv, exported);
  let handed = sink.resumed?.written ?? 0;
  return {
    resumed: sink.resumed,
    pageDone: async (done) => sink.pageDone?.(done, handed),
    discard: () => sink.discard(),
    async write(records) {
      const fields = watchFields(ctx, plan, records, view);
      const counted = (async function* () {
        for await (const record of fields.records) {
          handed++;
          yield record;
        }
      })();
      let count: number;
      try {
        count = await pump(ctx, counted, sink);
        await sink.finish();
      } catch (error) {
        await sink.discard();
        throw error;
      }
      fields.report(count);
      if (csv) reportLeftOut(ctx, csv);
      const where = sink.describe();
      if (where !== undefined) ctx.io.notice(`Wrote ${countOf(count, view)} to ${where}`);
      else if (plan.format === 'table' && count === 0) ctx.io.notice(`No ${view.label} found`);
      const files = sink.files?.();
      return files ? { count, files } : { count };
    },
  };
}

/**
 * Stream records in the plan's format to its one sink (stdout, --out, a resumable export, parts).
 * Resolves with how many were written, and for parts the files written (name, records, bytes, sha256).
 */
export async function writeRecords(
  ctx: Context,
  records: AsyncIterable<Record<string, unknown>>,
  view: View,
): Promise<{ count: number; files?: FilePart[] }> {
  return (await openPipe(ctx, view)).write(records);
}

async function encodeRecord(plan: OutputPlan, record: Record<string, unknown>, view: View): Promise<string> {
  switch (plan.format) {
    case 'json':
      return jsonDocument(projection(plan)(record));
    case 'ndjson':
      return ndjsonLine(projection(plan)(record));
    case 'csv': {
      const recordColumns = view.recordColumns ? fieldSelection(view.recordColumns) : undefined;
      const own = recordPaths(record);
      const { names, paths } = plan.fields ?? recordColumns ?? { names: own.map((path) => path.join('.')), paths: own };
      return (
        csvRow(names, { terminal: plan.terminal }) +
        csvRow(
          paths.map((path) => getField(record, path)),
          { terminal: plan.terminal },
        )
      );
    }
    case 'parquet':
      throw new UsageError('-o parquet writes a list to a file; one record is shown with -o json, ndjson, csv or table');
    case 'table': {
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
}

/** Print one record: json pretty-printed, table as key/value rows, ndjson/csv as for lists. */
export async function writeRecord(ctx: Context, record: Record<string, unknown>, view: View): Promise<void> {
  // Records come from the service: an answer without one (an empty 201, a 204 to a PATCH) is its
  // broken contract, not a crash of the formatter.
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new ContractError(
      `the service answered without a ${view.singular ?? view.label} to show (got ${record === undefined ? 'an empty answer' : Array.isArray(record) ? 'an array' : String(record)})`,
      {
        hint: 'the service broke its published contract; report it with the request id from --verbose',
      },
    );
  }
  const plan = ctx.output;
  void plan.format;
  const destination = await openDestination(ctx);
  try {
    const text = await encodeRecord(plan, record, view);
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    await destination.write(text);
    await destination.finish();
  } catch (error) {
    await destination.discard();
    throw error;
  }
  if (destination.displayPath !== undefined) ctx.io.notice(`Wrote ${countOf(1, view)} to ${destination.displayPath}`);
}
