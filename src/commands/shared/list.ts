// `<noun> list` for every collection, as one pipe: the pager (paginate, with progress) → the list's
// transforms (list-records.ts: --validate, --query, the csv view) → the one sink the output plan chose
// from the flags when the context was made (stdout, --out, a resumable export, parts). What the
// service's description says of the list (core/description/list-contract.ts) is read once, before
// any request of the list's own: what it may be asked, its record schema, the validator of its records.
import type { PaginateSummary, Query } from '../../core/api-client.js';
import { pagesOf } from '../../core/paging.js';
import type { Context } from '../../core/context.js';
import { requireUuid } from '../../core/ids.js';
import type { FilePart, View } from '../../output/index.js';
import { openPipe } from '../../output/pipe.js';
import { createProgress } from '../../output/progress.js';
import { fillPath } from '../../core/description/operations.js';
import { filterQuery, paramQuery } from './query.js';
import { listRecords } from './list-records.js';
import { compileRecordQuery } from './record-query.js';
import { collectionTemplate, parentFamily, type ResourceFamily } from '../../core/resources.js';
import { collectionPath, parentFlag } from './resource.js';
import { OUTPUT_OPTIONS, PAGING_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { OUTPUT_FLAG_OPTIONS } from '../../core/output-flags.js';
import type { OutputFlags } from '../../core/sink-plan.js';
import { defineVerb, type Verb, type VerbOption } from '../../core/verb.js';

export interface ListFlags extends OutputFlags {
  /** --query: a JMESPath expression applied record by record. */
  query?: string;
  /** How a query parameter was given, for errors: `--type`, `--param foo`. */
  flagOf?: (param: string) => string;
  /** `--validate`: check every record against the published response schema (exit 9 after the output). */
  validate?: boolean;
}

/** --resume, --restart, --split-*, --wide (read by the output plan) and --query: the options of every list that exports a collection. */
export const LIST_OPTIONS: readonly VerbOption[] = [
  ...OUTPUT_FLAG_OPTIONS,
  {
    flags: '--query <expression>',
    description: 'JMESPath filter/projection applied to each record while streaming (--max-items counts its results)',
  },
];

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
