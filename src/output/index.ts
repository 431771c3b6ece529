// The output API commands use: hand over records and a View, and the records come out in the format
// the user chose (-o, --fields), on stdout or atomically in --out PATH. Every format streams except
// table, which buffers bounded chunks (see table.ts).
import type { Context, OutputFormat } from '../core/context.js';
import { ContractError, InterruptedError, UsageError } from '../core/errors.js';
import { csvListEncoder, csvRow } from './csv.js';
import { checkOutPath, openDestination, outPath, type Destination, type StdoutOptions } from './destination.js';
import type { ListEncoder } from './encoder.js';
import { columnFields, outputFormat, requestedFields } from './format.js';
import { flattenRecord, getField, pickFields } from './fields.js';
import { jsonDocument, jsonListEncoder } from './json.js';
import { ndjsonLine, ndjsonListEncoder } from './ndjson.js';
import { formatCount } from './progress.js';
import { encoderSink, type RecordSink } from './sink.js';
import { openFilesSink, type FilePart, type FilesSink, type FilesTarget } from './split.js';
import { keyValueTable, tableListEncoder } from './table.js';

export { createProgress, type Progress } from './progress.js';
export { outputFormat } from './format.js';
export { manifestPath, partPath, type FilePart, type FilesTarget, type SplitLimits } from './split.js';

export interface View {
  /** Plural noun for progress and notices: "properties". */
  label: string;
  /** Default dotted paths for table and csv. */
  columns: readonly string[];
}

/**
 * Check `--out` (parent directory exists, PATH is not a directory) so a command can fail with
 * exit 2 before making any request. writeRecords/writeRecord check again before consuming anything.
 */
export async function prepareDestination(ctx: Context): Promise<void> {
  const out = outPath(ctx);
  if (out !== undefined) {
    await checkOutPath(ctx, out);
    outputFormat(ctx);
  }
}

type Projection = (record: Record<string, unknown>) => Record<string, unknown>;

function projection(ctx: Context): Projection {
  const fields = requestedFields(ctx);
  return fields ? (record) => pickFields(record, fields.paths) : (record) => record;
}

/** Colour only for a person: colour enabled, a terminal, and not writing to a file. */
function useColor(ctx: Context): boolean {
  return ctx.io.color && ctx.io.stdoutIsTTY && outPath(ctx) === undefined;
}

/** Output goes to a person's terminal (not a file, not a pipe). */
function toTerminal(ctx: Context): boolean {
  return ctx.io.stdoutIsTTY && outPath(ctx) === undefined;
}

/** The width to fit: the terminal's, else COLUMNS when set; none for a file. */
function terminalWidth(ctx: Context): number | undefined {
  if (outPath(ctx) !== undefined) return undefined;
  const tty = ctx.io.stdoutIsTTY ? (ctx.io.stdout as { columns?: number }).columns : undefined;
  if (tty !== undefined && tty > 0) return tty;
  const columns = Number(ctx.env.COLUMNS);
  return Number.isInteger(columns) && columns >= 20 ? columns : undefined;
}

async function listEncoder(ctx: Context, format: OutputFormat, view: View, options: WriteOptions, toFile = false): Promise<ListEncoder> {
  switch (format) {
    case 'json':
      return jsonListEncoder(projection(ctx));
    case 'ndjson':
      return ndjsonListEncoder(projection(ctx));
    case 'csv': {
      const { names, paths } = columnFields(ctx, view.columns);
      return csvListEncoder(names, paths, { terminal: !toFile && toTerminal(ctx) });
    }
    case 'table': {
      const { names, paths } = columnFields(ctx, view.columns);
      const width = options.wide ? undefined : terminalWidth(ctx);
      return tableListEncoder(
        names,
        paths,
        { color: useColor(ctx) },
        {
          width,
          onDropped: (dropped) =>
            ctx.io.notice(
              `Left out ${dropped.join(', ')} to fit ${width} columns (${options.wide === undefined ? '' : '--wide shows every column, '}--fields picks them)`,
            ),
        },
      );
    }
  }
}

function singular(label: string): string {
  if (/ies$/.test(label)) return label.replace(/ies$/, 'y');
  if (/(ss|sh|ch|x)es$/.test(label)) return label.slice(0, -2);
  return label.replace(/s$/, '');
}

function countOf(count: number, label: string): string {
  return `${formatCount(count)} ${count === 1 ? singular(label) : label}`;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new InterruptedError();
}

/**
 * Feed every record into the sink (an encoder and its destination, or split files). Stops early, quietly, when the reader
 * goes away; in that case and on any failure the records' iterator is closed (return()), so the
 * producer stops fetching. An abort (Ctrl-C) fails at once even while a record is still awaited.
 */
async function pump(
  ctx: Context,
  records: AsyncIterable<Record<string, unknown>>,
  sink: RecordSink,
  resumedCount: number | undefined,
): Promise<number> {
  const signal = ctx.signal;
  const iterator = records[Symbol.asyncIterator]();
  let count = resumedCount ?? 0;
  let exhausted = false;
  let nextPending = false;
  // One abort listener for the whole pump (not one per record): it rejects the record being awaited.
  // (Not Promise.race with one long-lived promise: every race would leave a reaction on it.)
  let rejectPending: ((error: Error) => void) | undefined;
  const onAbort = () => rejectPending?.(abortReason(signal));
  signal.addEventListener('abort', onAbort, { once: true });
  const next = (): Promise<IteratorResult<Record<string, unknown>>> => {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    nextPending = true;
    return new Promise((resolve, reject) => {
      rejectPending = reject;
      iterator.next().then(
        (step) => {
          rejectPending = undefined;
          nextPending = false;
          if (step.done) exhausted = true;
          resolve(step);
        },
        (error: unknown) => {
          // An iterator that threw is finished: nothing to close.
          rejectPending = undefined;
          nextPending = false;
          exhausted = true;
          reject(error);
        },
      );
    });
  };

  try {
    if (resumedCount === undefined) {
      if (!(await sink.begin())) return count;
    } else sink.resume(resumedCount);
    for (;;) {
      const step = await next();
      if (step.done) break;
      count++;
      if (!(await sink.record(step.value))) return count;
    }
    if (signal.aborted) throw abortReason(signal);
    await sink.end(count);
    return count;
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!exhausted) {
      const closing = iterator.return?.();
      // With a next() still running, return() would wait for it: let it finish on its own.
      if (nextPending) void closing?.catch(() => undefined);
      else await closing?.catch(() => undefined);
    }
  }
}

export interface WriteOptions {
  /** Where to write instead of stdout / --out (a resumable export's partial file). */
  destination?: Destination | undefined;
  /** Files instead of stdout / --out, optionally split into parts (split.ts; --split-*, `export`). */
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
  records: AsyncIterable<Record<string, unknown>>,
): { records: AsyncIterable<Record<string, unknown>>; report(count: number): void } {
  const fields = requestedFields(ctx);
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
      if (count > 0 && missing.size > 0) ctx.io.warn(`--fields: no record has ${[...missing.keys()].join(', ')}`);
    },
  };
}

/**
 * Stream records in the chosen format to stdout, --out, or `target.files`. Resolves with how many
 * were written, and with `files` the files written (name, records, bytes, sha256).
 */
export async function writeRecords(
  ctx: Context,
  records: AsyncIterable<Record<string, unknown>>,
  view: View,
  target: WriteOptions = {},
  stdout: StdoutOptions = {},
): Promise<{ count: number; files?: FilePart[] }> {
  const format = target.files?.format ?? outputFormat(ctx);
  const toFile = target.files !== undefined;
  let sink: RecordSink;
  let files: FilesSink | undefined;
  try {
    if (target.files) {
      if (format === 'table')
        throw new UsageError(`${target.files.displayPath}: a table cannot be written to files in parts; use -o json, ndjson or csv`);
      sink = files = openFilesSink(target.files, () => listEncoder(ctx, format, view, target, toFile));
    } else {
      const encoder = await listEncoder(ctx, format, view, target, toFile);
      sink = encoderSink(encoder, target.destination ?? (await openDestination(ctx, stdout)));
    }
  } catch (error) {
    await target.destination?.discard();
    throw error;
  }
  const fields = watchFields(ctx, records);
  let count: number;
  try {
    count = await pump(ctx, fields.records, sink, target.resumedCount);
    await sink.finish();
  } catch (error) {
    await sink.discard();
    throw error;
  }
  fields.report(count);
  if (files) ctx.io.notice(`Wrote ${countOf(count, view.label)} to ${files.describe()}`);
  else if (sink.displayPath !== undefined) ctx.io.notice(`Wrote ${countOf(count, view.label)} to ${sink.displayPath}`);
  else if (format === 'table' && count === 0) ctx.io.notice(`No ${view.label} found`);
  return files ? { count, files: files.files() } : { count };
}

async function encodeRecord(ctx: Context, format: OutputFormat, record: Record<string, unknown>, view: View): Promise<string> {
  switch (format) {
    case 'json':
      return jsonDocument(projection(ctx)(record));
    case 'ndjson':
      return ndjsonLine(projection(ctx)(record));
    case 'csv': {
      const { names, paths } = columnFields(ctx, view.columns);
      return (
        csvRow(names, { terminal: toTerminal(ctx) }) +
        csvRow(
          paths.map((path) => getField(record, path)),
          { terminal: toTerminal(ctx) },
        )
      );
    }
    case 'table': {
      const fields = requestedFields(ctx);
      const rows = fields
        ? fields.names.flatMap((name, i): Array<[string, unknown]> => {
            const value = getField(record, fields.paths[i]!);
            return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0
              ? flattenRecord(value as Record<string, unknown>, name)
              : [[name, value]];
          })
        : flattenRecord(record);
      return keyValueTable(rows, { color: useColor(ctx), width: terminalWidth(ctx) });
    }
  }
}

/** Print one record: json pretty-printed, table as key/value rows, ndjson/csv as for lists. */
export async function writeRecord(ctx: Context, record: Record<string, unknown>, view: View): Promise<void> {
  // Records come from the service: an answer without one (an empty 201, a 204 to a PATCH) is its
  // broken contract, not a crash of the formatter.
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new ContractError(
      `the service answered without a ${singular(view.label)} to show (got ${record === undefined ? 'an empty answer' : Array.isArray(record) ? 'an array' : String(record)})`,
      {
        hint: 'the service broke its published contract; report it with the request id from --verbose',
      },
    );
  }
  const format = outputFormat(ctx);
  const destination = await openDestination(ctx);
  try {
    const text = await encodeRecord(ctx, format, record, view);
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    await destination.write(text);
    await destination.finish();
  } catch (error) {
    await destination.discard();
    throw error;
  }
  if (destination.displayPath !== undefined) ctx.io.notice(`Wrote ${countOf(1, view.label)} to ${destination.displayPath}`);
}
