// What sync reads of the service for one family: the published record schema of its list (the
// table shape), whether that list publishes `updatedSince`, and the records themselves through
// paginate() (its integrity checks: totals, duplicates, page numbers). Contacts are listed per
// client (shared/child-lists.ts); a contact listed under two clients is kept once, and a client
// removed while its contacts were read has none.
import type { ApiRecord, Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { UnpublishedOperationError } from '../../core/errors.js';
import { IdSet } from '../../core/http/id-set.js';
import { collectionTemplate, listPath, UPDATED_SINCE, type ResourceFamily } from '../../core/resources.js';
import { tableShape, type TableShape } from '../../core/table-shape/shape.js';
import type { PublishedOperation } from '../../core/description/document.js';
import { ANY_PARENT, parentLists } from '../shared/child-lists.js';

export interface FamilySource {
  shape: TableShape;
  /** The bound list operation (for --validate-style record checks). */
  operation: PublishedOperation;
  /** Whether the list publishes updatedSince (else every run reads it whole). */
  incremental: boolean;
}

/** The family's table shape from the published description, and how it may be read. */
export async function familySource(ctx: Context, family: ResourceFamily): Promise<FamilySource> {
  const { bindingOf } = await import('../../core/description/routed-client.js');
  const { recordSchemaOf } = await import('../../core/description/schema.js');
  const { queryParameterNames } = await import('../../core/description/document.js');
  const binding = bindingOf(await ctx.api());
  const route = binding?.route('GET', family.parent ? listPath(family, ANY_PARENT) : family.path);
  if (!binding || !route)
    throw new UnpublishedOperationError(`the service publishes no list of ${family.view.label} (GET ${collectionTemplate(family)})`);
  const { published } = route.bound;
  const document = binding.description.contract.document;
  const shape = tableShape(document, recordSchemaOf(document, published.responseSchema, published.envelope), family.view.label);
  if (!shape.columns.some((column) => column.name === 'id' && column.type === 'text')) {
    throw new UnpublishedOperationError(
      `the published schema of ${family.view.label} (GET ${published.path}) declares no string id: sync keys every table on it`,
      { hint: `leave ${family.name} out of this sync` },
    );
  }
  return { shape, operation: published, incremental: queryParameterNames(published).includes(UPDATED_SINCE.param) };
}

/** Told how many records were read so far, and of how many when the list says. */
export type ReadProgress = (read: number, total: number | undefined) => void;

/** The family's records (updated at or after `since`, when given), as the service lists them until `signal` aborts. */
export function familyRecords(
  ctx: Context,
  family: ResourceFamily,
  since: string | undefined,
  onProgress: ReadProgress,
  signal: AbortSignal = ctx.signal,
): AsyncIterable<ApiRecord> {
  const read: FamilyRead = { family, query: since === undefined ? {} : { [UPDATED_SINCE.param]: since }, onProgress, signal };
  return family.parent ? childRecords(ctx, read) : topRecords(ctx, read);
}

/** One pass's request of a family's records. */
interface FamilyRead {
  family: ResourceFamily;
  query: Query;
  onProgress: ReadProgress;
  signal: AbortSignal;
}

async function* topRecords(ctx: Context, { family, query, onProgress, signal }: FamilyRead): AsyncGenerator<ApiRecord> {
  const api = await ctx.api();
  const { globals } = ctx;
  yield* api.paginate(family.path, {
    query,
    pageSize: globals.pageSize,
    concurrency: globals.concurrency,
    // A whole family usually spans pages; the changes since the last run usually fit in one.
    connectAhead: Object.keys(query).length === 0,
    allowPartial: globals.allowPartial,
    signal,
    onProgress: ({ fetched, total }) => onProgress(fetched, total),
  });
}

async function* childRecords(ctx: Context, { family, query, onProgress, signal }: FamilyRead): AsyncGenerator<ApiRecord> {
  // A parent removed after the ids were read has no children left; a record under two parents is one row.
  const seen = new IdSet();
  for await (const parent of parentLists(ctx, family, query, signal)) {
    for (const record of parent.records) if (seen.add(record.id)) yield record;
    onProgress(seen.size, undefined);
  }
}
