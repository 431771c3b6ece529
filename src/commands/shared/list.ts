// `<noun> list` for every collection: auto-pages through paginate(), streams to the chosen format,
// shows progress on a terminal and reports the export's integrity warnings.
import type { PaginateOptions, PaginateSummary, Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { requireUuid } from '../../core/ids.js';
import { createProgress, writeRecords, type FilePart, type Progress, type View } from '../../output/index.js';
import { fillPath } from '../../core/description/operations.js';
import { checkPublishedQuery, filterQuery, paramQuery } from './query.js';
import { compileRecordQuery, queryView } from './record-query.js';
import { RESUME_OPTIONS, resumableExport, type ResumeFlags } from './resumable-export.js';
import { SPLIT_OPTIONS, splitExport, type SplitFlags } from './split-export.js';
import type { RecordChecker } from './validation.js';
import { collectionTemplate, parentFamily, type ResourceFamily } from '../../core/resources.js';
import { collectionPath, parentFlag } from './resource.js';
import { OUTPUT_OPTIONS, PAGING_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb, type Verb, type VerbOption } from '../../core/verb.js';

export interface ListFlags extends ResumeFlags, SplitFlags {
  /** --query: a JMESPath expression applied record by record. */
  query?: string;
  /** --wide: a table keeps every column. */
  wide?: boolean;
  /** How a query parameter was given, for errors: `--type`, `--param foo`. */
  flagOf?: (param: string) => string;
  /** `--validate`: check every record against the published response schema (exit 9 after the output). */
  validate?: boolean;
}

/** The published query parameters of the operation `GET path` is bound to, if the command is bound. */
async function publishedQuery(ctx: Context, path: string): Promise<{ names: string[]; operation: string } | undefined> {
  const { bindingOf } = await import('../../core/description/routed-client.js');
  const route = bindingOf(await ctx.api())?.route('GET', path);
  if (!route) return undefined;
  const { queryParameterNames } = await import('../../core/description/document.js');
  const { published } = route.bound;
  return {
    names: queryParameterNames(published),
    operation: `${published.method} ${published.path}${published.operationId ? ` (${published.operationId})` : ''}`,
  };
}

/**
 * Every field of a record of `GET path`, as csv columns, from the bound operation's published record
 * schema (flattened dotted paths, schema order); undefined when nothing is published.
 */
export async function publishedColumns(ctx: Context, path: string): Promise<readonly string[] | undefined> {
  const { bindingOf } = await import('../../core/description/routed-client.js');
  const binding = bindingOf(await ctx.api());
  const route = binding?.route('GET', path);
  if (!binding || !route) return undefined;
  const { recordColumns, recordSchemaOf } = await import('../../core/description/schema.js');
  const { published } = route.bound;
  const document = binding.description.contract.document;
  return recordColumns(document, recordSchemaOf(document, published.responseSchema, published.envelope));
}

/** The view a csv is written with: every published field, or the query's own columns. */
async function csvView(ctx: Context, path: string, shaped: { view: View; wrap: boolean }, keepsRecords: boolean): Promise<View> {
  if (!keepsRecords) return { ...shaped.view, recordColumns: shaped.view.columns };
  const published = await publishedColumns(ctx, path);
  if (!published) return shaped.view;
  // Then the view's columns the schema does not hold: fields the CLI adds itself (a key's `lease`).
  const covered = (column: string) => published.some((p) => p === column || column.startsWith(`${p}.`) || p.startsWith(`${column}.`));
  return { ...shaped.view, recordColumns: [...published, ...shaped.view.columns.filter((column) => !covered(column))] };
}

/** --resume, --restart, --split-* and --query: the options of every list that exports a collection. */
export const LIST_OPTIONS: readonly VerbOption[] = [
  ...RESUME_OPTIONS,
  ...SPLIT_OPTIONS,
  {
    flags: '--query <expression>',
    description: 'JMESPath filter/projection applied to each record while streaming (--max-items counts its results)',
  },
  { flags: '--wide', description: 'tables keep every column instead of fitting the terminal width' },
];

/** paginate() with the paging options of the command line (--page, --page-size, --max-items, …). */
export async function paginateWithGlobals(
  ctx: Context,
  path: string,
  query: Query,
  progress: Progress,
  extra: Pick<PaginateOptions, 'resume' | 'onPageDone' | 'maxItems'> = {},
) {
  const api = await ctx.api();
  const { globals } = ctx;
  return api.paginate(path, {
    query,
    page: globals.page,
    pageSize: globals.pageSize,
    maxItems: globals.maxItems,
    concurrency: globals.concurrency,
    allowPartial: globals.allowPartial,
    signal: ctx.signal,
    onProgress: ({ fetched, total }) => progress.update(fetched, total),
    ...extra,
  });
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

/** Stream every record of a collection to the output; the one list runner all commands share. */
export async function listCollection(ctx: Context, path: string, query: Query, view: View, flags: ListFlags = {}): Promise<ListResult> {
  // Checked before any request (a bad --split-size is exit 2 at once).
  const split = await splitExport(ctx, flags);
  // A list answered in one piece: --page/--page-size only as its published page/limit, no --resume.
  const paging = { page: ctx.globals.page, pageSize: ctx.globals.pageSize, resume: flags.resume === true };
  if (paging.page !== undefined || paging.pageSize !== undefined || paging.resume) {
    const { checkOnePiecePaging } = await import('../../core/description/routed-client.js');
    checkOnePiecePaging(await ctx.api(), path, paging);
  }
  if (Object.keys(query).length > 0) {
    // Only parameters the service publishes for this operation; refused before any request otherwise.
    const published = await publishedQuery(ctx, path);
    checkPublishedQuery(published?.names, published?.operation ?? path, query, flags.flagOf ?? ((param) => `--param ${param}`));
  }
  // --validate: loading ajv and compiling the schema (~60 ms of CPU) runs while the first page is on
  // its way; the checker is awaited at the first record, not before the first request.
  const checkerReady = flags.validate ? import('./validation.js').then((validation) => validation.recordChecker(ctx, path)) : undefined;
  checkerReady?.catch(() => undefined); // awaited below; only keeps an early failure from counting as unhandled
  let checker: RecordChecker | undefined;
  let checkerAwaited = checkerReady === undefined;
  const recordQuery = flags.query === undefined ? undefined : await compileRecordQuery(flags.query);
  const shaped = recordQuery ? queryView(recordQuery, view) : { view, wrap: false };
  const plan = split ?? ctx.output;
  // csv and table print objects: a query giving other values prints them in one `value` column.
  const wrap = shaped.wrap && ['csv', 'table'].includes(plan.format);
  // A csv holds every field (unless --fields): its columns are known before the first record.
  const writeView =
    plan.format === 'csv' && !plan.fields ? await csvView(ctx, path, shaped, recordQuery?.keepsRecords ?? true) : shaped.view;
  // With --query, --max-items counts what the query gives, not what the service sends.
  const maxItems = recordQuery ? ctx.globals.maxItems : undefined;
  const exported = split ? undefined : await resumableExport(ctx, path, query, flags, recordQuery?.expression ?? null);
  const progress = createProgress(ctx, view.label);
  // Records handed to the writer: when paginate reports a page done, all of them are written.
  let written = exported?.resumedWritten ?? 0;
  let pages;
  try {
    pages = await paginateWithGlobals(ctx, path, query, progress, {
      ...(recordQuery ? { maxItems: undefined } : {}),
      ...(exported ? { resume: exported.resumeFrom, onPageDone: (done) => exported.pageDone(done, written) } : {}),
    });
  } catch (error) {
    await exported?.destination.discard();
    throw error;
  }
  const source = pages;
  let summary: PaginateSummary | undefined;
  async function* records(): AsyncGenerator<Record<string, unknown>> {
    let finished = false;
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
          summary = step.value;
          progress.stop();
          for (const warning of summary.warnings) ctx.io.warn(warning);
          return;
        }
        checker?.check(step.value);
        if (!recordQuery) {
          written++;
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
  }
  let files: FilePart[] | undefined;
  try {
    // Pages arrive whole: stdout gets one write per page, not one per record.
    ({ files } = await writeRecords(
      ctx,
      records(),
      writeView,
      {
        plan: split,
        destination: exported?.destination,
        resumedCount: exported?.resumeFrom && exported.resumedWritten,
        wide: flags.wide === true,
      },
      { batch: true },
    ));
  } finally {
    progress.stop();
  }
  (checker ?? (await checkerReady))?.finish();
  return { written, total: summary?.total, warnings: summary?.warnings ?? [], ...(files ? { files } : {}) };
}

export function listVerb(spec: ResourceFamily, examples: readonly string[]): Verb {
  const parent = parentFlag(spec);
  const flagOf = (param: string) => {
    const filter = spec.filters.find((candidate) => candidate.param === param);
    return filter ? `--${/--([a-z0-9-]+)/i.exec(filter.flags)?.[1]}` : `--param ${param}`;
  };
  return defineVerb<Record<string, unknown>>({
    name: 'list',
    tool: 'read',
    lists: true,
    summary: `list ${spec.view.label} (every page, streamed)`,
    options: [
      ...(parent
        ? [{ flags: parent, description: `the ${parentFamily(spec)?.singular} whose ${spec.view.label} to list`, required: true }]
        : []),
      ...spec.filters.flatMap((filter) => [
        { flags: filter.flags, description: filter.description },
        // The old spelling keeps working, out of help.
        ...(filter.alias
          ? [{ flags: filter.flags.replace(/^--[\w-]+/, filter.alias), description: filter.description, hidden: true }]
          : []),
      ]),
      {
        flags: '--param <name=value>',
        description: 'any other query parameter the service publishes for this list; repeatable',
        repeatable: true,
      },
      { flags: '--validate', description: "check every record against the service's published schema (violations on stderr, exit 9)" },
      ...LIST_OPTIONS,
    ],
    takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...PAGING_OPTIONS],
    calls: [{ method: 'GET', path: collectionTemplate(spec), query: spec.filters.map((filter) => filter.param) }],
    examples,
    async run(ctx, _args, options) {
      const path = collectionPath(spec, options, 'list');
      const query = { ...filterQuery(spec.filters, options), ...paramQuery(options.param as string[] | undefined) };
      await listCollection(ctx, path, query, spec.view, { ...(options as ListFlags), flagOf, validate: options.validate === true });
    },
  });
}

export interface CollectionVerbSpec {
  /** The verb: `designations`, `properties`. */
  name: string;
  description: string;
  /** Collection path; a `{id}` placeholder makes the verb take that record's id as its argument. */
  path: string;
  /** What `{id}` names, for the argument's help and its check: `assignment`. */
  parent?: string;
  view: View;
}

/** A read-only collection under its own verb name (`ref designations`, `assignments properties ID`). */
export function collectionVerb(spec: CollectionVerbSpec, examples: readonly string[]): Verb {
  return defineVerb<ListFlags>({
    name: spec.name,
    tool: 'read',
    lists: true,
    summary: spec.description,
    arguments: spec.parent ? [{ name: 'id', description: `${spec.parent} id (UUID)`, required: true }] : [],
    options: LIST_OPTIONS,
    takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...PAGING_OPTIONS],
    calls: [{ method: 'GET', path: spec.path }],
    examples,
    async run(ctx, [id], options) {
      const path = spec.parent ? fillPath(spec.path, { id: requireUuid(id, `${spec.parent} id`) }) : spec.path;
      await listCollection(ctx, path, {}, spec.view, options);
    },
  });
}
