// A list's records as one pipe, the one list runner every command shares (listCollection): the pager
// (paginate, with progress) → the list's transforms → the one sink the output plan chose from the
// flags when the context was made (stdout, --out, a resumable export, parts). What the service's
// description says of the list (core/description/list-contract.ts) is read once, before any request
// of the list's own: what it may be asked, its record schema, the validator of its records.
// The transforms: --validate (every record against the published record schema, violations reported
// after the output, exit 9), --query (JMESPath record by record; --max-items counts its results; csv
// and table put a non-object result in one `value` column) and the view from the published schema
// (a csv's columns known before the first record, Parquet's types).
import type { ApiRecord, PaginateSummary, Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import type { ListContract } from '../../core/description/list-contract.js';
import type { OutputPlan } from '../../core/output-plan.js';
import { pagesOf } from '../../core/paging.js';
import type { OutputFlags } from '../../core/sink-plan.js';
import type { FilePart, View } from '../../output/index.js';
import { openPipe } from '../../output/pipe.js';
import { createProgress } from '../../output/progress.js';
import { compileRecordQuery, queryView, type RecordQuery } from './record-query.js';
import { recordChecker, type RecordChecker } from './validation.js';

/**
 * The view records are written with, from the list's published record schema (`contract`, when the
 * command is bound): a csv's columns (every published field, flattened, in schema order, then the
 * view's own the schema lacks: fields the CLI adds, a key's `lease`) and a Parquet file's types. A
 * query that reshapes records keeps its own columns.
 */
export function publishedView(plan: OutputPlan, contract: ListContract | undefined, view: View, keepsRecords = true): View {
  const csv = plan.format === 'csv' && !plan.fields;
  if (!csv && plan.format !== 'parquet') return view;
  if (!keepsRecords) return csv ? { ...view, recordColumns: view.columns } : view;
  if (!contract) return view;
  if (!csv) return { ...view, recordSchema: contract.recordSchema() };
  const columns = contract.recordColumns();
  if (!columns) return view;
  const covered = (column: string) => columns.some((p) => p === column || column.startsWith(`${p}.`) || p.startsWith(`${column}.`));
  return { ...view, recordColumns: [...columns, ...view.columns.filter((column) => !covered(column))] };
}

export interface ListRecords {
  /** The view records are written with (the query's columns, every published field for a csv). */
  view: View;
  /** --query as given (a resumed export must have the same), null without one. */
  expression: string | null;
  /** With --query, --max-items counts its results: paging itself is then not bounded. */
  pagingMaxItems: boolean;
  /**
   * The records to write, from the pager's: `written` already (a resumed export), `onEnd` told the
   * pager's summary when it ends (before the sink is finished).
   */
  apply(
    pages: AsyncGenerator<ApiRecord, PaginateSummary, undefined>,
    written: number,
    onEnd: (summary: PaginateSummary) => void,
  ): AsyncGenerator<Record<string, unknown>>;
  /** After the output: --validate reports what it found (exit 9). */
  finish(): Promise<void>;
}

/**
 * The transforms of a list whose description says `contract` (undefined: the command is not bound):
 * `recordQuery` is --query compiled (before anything else, as a local check), `validate` --validate.
 */
export function listRecords(
  ctx: Context,
  contract: ListContract | undefined,
  view: View,
  { recordQuery, validate }: { recordQuery: RecordQuery | undefined; validate: boolean | undefined },
): ListRecords {
  // --validate: loading ajv and compiling the schema (~60 ms of CPU) runs while the first page is on
  // its way; the checker is awaited at the first record, not before the first request.
  const checkerReady = validate ? recordChecker(ctx.io, contract) : undefined;
  checkerReady?.catch(() => undefined); // awaited below; only keeps an early failure from counting as unhandled
  let checker: RecordChecker | undefined;
  let checkerAwaited = checkerReady === undefined;
  const shaped = recordQuery ? queryView(recordQuery, view) : { view, wrap: false };
  const plan = ctx.output;
  const wrap = shaped.wrap && ['csv', 'table'].includes(plan.format);
  const writeView = publishedView(plan, contract, shaped.view, recordQuery?.keepsRecords ?? true);
  const maxItems = recordQuery ? ctx.globals.maxItems : undefined;
  return {
    view: writeView,
    expression: recordQuery?.expression ?? null,
    pagingMaxItems: recordQuery === undefined,
    async finish() {
      (checker ?? (await checkerReady))?.finish();
    },
    async *apply(source, resumed, onEnd) {
      let finished = false;
      let written = resumed;
      try {
        for (;;) {
          const next = source.next();
          if (!checkerAwaited) {
            next.catch(() => undefined); // awaited just below, once the checker is ready
            checker = await checkerReady;
            checkerAwaited = true;
          }
          const step = await next;
          if (step.done) {
            finished = true;
            onEnd(step.value);
            return;
          }
          checker?.check(step.value);
          if (!recordQuery) {
            yield step.value;
            continue;
          }
          for (const value of recordQuery.apply(step.value)) {
            if (maxItems !== undefined && written >= maxItems) return;
            written++;
            yield (wrap ? { value } : value) as Record<string, unknown>;
          }
          if (maxItems !== undefined && written >= maxItems) return;
        }
      } finally {
        if (!finished) await source.return(undefined as never).catch(() => undefined);
      }
    },
  };
}

export interface ListFlags extends OutputFlags {
  /** --query: a JMESPath expression applied record by record. */
  query?: string;
  /** How a query parameter was given, for errors: `--type`, `--param foo`. */
  flagOf?: (param: string) => string;
  /** `--validate`: check every record against the published response schema (exit 9 after the output). */
  validate?: boolean;
}

/** What a list wrote: records written (all runs of a resumed export) and the service's account. */
export interface ListResult {
  written: number;
  /** `pagination.total` as last reported; undefined for a list answered in one piece without one. */
  total: number | undefined;
  warnings: readonly string[];
  /** With --split-rows/--split-size: the parts written (name, records, bytes, sha256). */
  files?: FilePart[];
}

/** Stream every record of a collection to the run's one sink; the one list runner all commands share. */
export async function listCollection(ctx: Context, path: string, query: Query, view: View, flags: ListFlags = {}): Promise<ListResult> {
  // Everything local first (the output flags, --out, --query), then what the description says: before any request of the list's own.
  await ctx.output.ready();
  const recordQuery = flags.query === undefined ? undefined : await compileRecordQuery(flags.query);
  const api = await ctx.api();
  const { listContractOf } = await import('../../core/description/routed-client.js');
  const contract = listContractOf(api, path);
  const { page, pageSize } = ctx.globals;
  contract?.checkRequest(query, { page, pageSize, resume: flags.resume === true }, flags.flagOf ?? ((param) => `--param ${param}`));
  const records = listRecords(ctx, contract, view, { recordQuery, validate: flags.validate });
  const pipe = await openPipe(ctx, records.view, { collection: path, filters: query, query: records.expression });
  const progress = createProgress(ctx, view.label);
  let summary: PaginateSummary | undefined;
  try {
    const pages = pagesOf(api, ctx.globals, ctx.signal, path, query, (fetched, total) => progress.update(fetched, total), {
      ...(records.pagingMaxItems ? {} : { maxItems: undefined }),
      ...(ctx.output.sink.kind === 'resumable' ? { resume: pipe.resumed?.from, onPageDone: (done) => pipe.pageDone(done) } : {}),
    });
    const onEnd = (ended: PaginateSummary) => {
      summary = ended;
      progress.stop();
      for (const warning of ended.warnings) ctx.io.warn(warning);
    };
    const { count, files } = await pipe.write(records.apply(pages, pipe.resumed?.written ?? 0, onEnd));
    await records.finish();
    return { written: count, total: summary?.total, warnings: summary?.warnings ?? [], ...(files ? { files } : {}) };
  } finally {
    progress.stop();
  }
}
