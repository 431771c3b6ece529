// The transforms between a list's pager and its sink: --validate (every record against the published
// record schema, violations reported after the output, exit 9), --query (JMESPath record by record;
// --max-items counts its results; csv and table put a non-object result in one `value` column) and
// the view from the published schema (a csv's columns known before the first record, Parquet's types).
import type { ApiRecord, PaginateSummary } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import type { ListContract } from '../../core/description/list-contract.js';
import type { OutputPlan } from '../../core/output-plan.js';
import type { View } from '../../output/index.js';
import { queryView, type RecordQuery } from './record-query.js';
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
