// Writing records: hand over records and a View, and they come out as the run's output plan says
// (ctx.output: format, --fields, stdout or the --out file or parts, colour, width). Every format
// streams except table, which buffers bounded chunks (see table.ts). The pump (record-pump.ts) moves
// the records; this module picks the encoder and the destination and says what was written.
import type { Context } from '../core/context.js';
import { ContractError, UsageError } from '../core/errors.js';
import type { FieldSelection, OutputPlan } from '../core/output-plan.js';
import type { OutputFormat } from '../core/global-options.js';
import { atomicOutFile } from './atomic-out-file.js';
import { csvListEncoder, csvRow } from './csv.js';
import { csvColumns, recordPaths, type CsvColumns } from './csv-columns.js';
import type { Destination } from './destination.js';
import type { ListEncoder } from './encoder.js';
import { fieldSelection, flattenRecord, getField, pickFields } from './fields.js';
import { jsonDocument, jsonListEncoder } from './json.js';
import { ndjsonLine, ndjsonListEncoder } from './ndjson.js';
import { formatCount } from './progress.js';
import { abortReason, pump } from './record-pump.js';
import { encoderSink, type RecordSink } from './sink.js';
import { openFilesSink, type FilePart, type FilesSink, type FilesTarget } from './split.js';
import { stdoutDestination, type StdoutOptions } from './stdout-destination.js';
import { keyValueTable, tableListEncoder } from './table.js';

export interface View {
  /** Plural noun for progress and notices: "properties". */
  label: string;
  /** Singular noun for "Wrote 1 property": the resource table's (defaults to the label). */
  singular?: string | undefined;
  /** The table's default columns (dotted paths); a csv's header when nothing else names its columns. */
  columns: readonly string[];
  /** Every field of a record, from the published record schema: a csv's columns (csv-columns.ts). */
  recordColumns?: readonly string[] | undefined;
  /** Which table columns a narrow terminal keeps first, most important first (default: left to right). */
  priority?: readonly string[] | undefined;
  /** What a table shows for a field that is null or absent (`expiresAt: 'never'`); other formats keep null. */
  blank?: Readonly<Record<string, string>> | undefined;
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

/** The destination the plan names: `--out PATH` (one file, written atomically) or stdout. */
export async function openDestination(ctx: Context, options: StdoutOptions = {}, plan: OutputPlan = ctx.output): Promise<Destination> {
  return plan.destination.kind === 'stdout' ? stdoutDestination(ctx.io.stdout, options) : atomicOutFile(plan);
}

/**
 * Check `--out` (parent directory exists, PATH is not a directory) and its format, so a command can
 * fail with exit 2 before making any request. The plan checks the path once; writers reuse the result.
 */
export async function prepareDestination(ctx: Context): Promise<void> {
  const plan = ctx.output;
  if (plan.destination.kind === 'stdout') return;
  await plan.target();
  void plan.format;
}

type Projection = (record: Record<string, unknown>) => Record<string, unknown>;

function projection(plan: OutputPlan): Projection {
  const fields = plan.fields;
  return fields ? (record) => pickFields(record, fields.paths) : (record) => record;
}

/** Columns for table and csv: `--fields`, else the view's defaults. */
function columnFields(plan: OutputPlan, columns: readonly string[]): FieldSelection {
  return plan.fields ?? fieldSelection(columns);
}

async function listEncoder(
  ctx: Context,
  plan: OutputPlan,
  format: OutputFormat,
  view: View,
  options: WriteOptions,
  toFiles: boolean,
  csv: CsvColumns | undefined,
): Promise<ListEncoder> {
  switch (format) {
    case 'json':
      return jsonListEncoder(projection(plan));
    case 'ndjson':
      return ndjsonListEncoder(projection(plan));
    case 'csv':
      return csvListEncoder(csv ?? csvColumns(plan.fields, view.recordColumns, view.columns), { terminal: !toFiles && plan.terminal });
    case 'table': {
      const { names, paths } = columnFields(plan, view.columns);
      const width = options.wide ? undefined : plan.width;
      return tableListEncoder(
        names,
        paths,
        { color: plan.color },
        {
          width,
          whole: WHOLE_COLUMNS,
          priority: view.priority,
          blank: view.blank,
          onDropped: (dropped) => ctx.io.notice(droppedNotice(dropped, width ?? 80, options.wide !== undefined)),
        },
      );
    }
  }
}

/** "1 property", "2 properties". */
export function countOf(count: number, view: Pick<View, 'label' | 'singular'>): string {
  return `${formatCount(count)} ${count === 1 ? (view.singular ?? view.label) : view.label}`;
}

export interface WriteOptions {
  /** The plan to write by (default ctx.output): the list runner's, refined by its --split-rows, --split-size and --resume flags. */
  plan?: OutputPlan | undefined;
  /** Where to write instead of the plan's destination (a resumable export's partial file). */
  destination?: Destination | undefined;
  /** Files instead of stdout / --out, optionally split into parts (split.ts; export's contacts). */
  files?: FilesTarget | undefined;
  /** Records already written there by an interrupted run (--resume); undefined for a fresh start. */
  resumedCount?: number | undefined;
  /** --wide: a table keeps every column whatever the terminal's width (undefined: no such option). */
  wide?: boolean | undefined;
}

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

/** The files a plan in parts writes: numbered parts beside --out PATH and their manifest. */
function partsTarget(plan: OutputPlan): FilesTarget | undefined {
  const destination = plan.destination;
  if (destination.kind !== 'parts') return undefined;
  return { path: destination.path, displayPath: destination.given, format: plan.format, split: destination.split, manifest: true };
}

/**
 * Stream records in the chosen format to stdout, --out, or files in parts. Resolves with how many
 * were written, and with files the files written (name, records, bytes, sha256).
 */
export async function writeRecords(
  ctx: Context,
  records: AsyncIterable<Record<string, unknown>>,
  view: View,
  target: WriteOptions = {},
  stdout: StdoutOptions = {},
): Promise<{ count: number; files?: FilePart[] }> {
  const plan = target.plan ?? ctx.output;
  let sink: RecordSink;
  let files: FilesSink | undefined;
  let format: OutputFormat;
  let csv: CsvColumns | undefined;
  try {
    const filesTarget = target.files ?? partsTarget(plan);
    format = filesTarget?.format ?? plan.format;
    // One column set for every part of a split csv.
    const encoding = format;
    if (encoding === 'csv') csv = csvColumns(plan.fields, view.recordColumns, view.columns);
    if (filesTarget) {
      if (format === 'table')
        throw new UsageError(`${filesTarget.displayPath}: a table cannot be written to files in parts; use -o json, ndjson or csv`);
      sink = files = openFilesSink(filesTarget, () => listEncoder(ctx, plan, encoding, view, target, true, csv));
    } else {
      const encoder = await listEncoder(ctx, plan, encoding, view, target, false, csv);
      sink = encoderSink(encoder, target.destination ?? (await openDestination(ctx, stdout, plan)));
    }
  } catch (error) {
    await target.destination?.discard();
    throw error;
  }
  const fields = watchFields(ctx, plan, records, view);
  let count: number;
  try {
    count = await pump(ctx, fields.records, sink, target.resumedCount);
    await sink.finish();
  } catch (error) {
    await sink.discard();
    throw error;
  }
  fields.report(count);
  if (csv) reportLeftOut(ctx, csv);
  if (files) ctx.io.notice(`Wrote ${countOf(count, view)} to ${files.describe()}`);
  else if (sink.displayPath !== undefined) ctx.io.notice(`Wrote ${countOf(count, view)} to ${sink.displayPath}`);
  else if (format === 'table' && count === 0) ctx.io.notice(`No ${view.label} found`);
  return files ? { count, files: files.files() } : { count };
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
