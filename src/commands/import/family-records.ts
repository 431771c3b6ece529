// Reading a family's records from the service for the match index and for settling a create whose
// answer was lost: every record (contacts: each client's, or one client's with --client), or only
// the ones changed since a moment (`updatedSince`, which every importable family publishes), so a
// lost answer costs one small list, not a full one; the list command a person runs to look for such
// a create; and --property-match's index of the referred family's records.
import type { ApiClient, ApiRecord } from '../../core/api-client.js';
import { acceptsUpdatedSince, listPath, parentFamily, referredFamily, type ResourceFamily } from '../../core/resources.js';
import { buildIndex, matchKey, type MatchIndex } from './match-index.js';

/** The page size used to read whole families: the most the service gives in one page. */
export const INDEX_PAGE_SIZE = 100;

export interface FamilyReader {
  /** Every record of the family (of `clientId` only, for contacts, when given). */
  all(signal: AbortSignal): AsyncGenerator<ApiRecord>;
  /** Records changed at or after `since` (of `parentId`'s collection for contacts). */
  changedSince(since: Date, parentId: string | undefined, signal: AbortSignal): AsyncGenerator<ApiRecord>;
}

export function familyReader(api: ApiClient, family: ResourceFamily, concurrency: number, onlyParent?: string): FamilyReader {
  const page = (path: string, signal: AbortSignal, query = {}) =>
    api.paginate(path, { pageSize: INDEX_PAGE_SIZE, concurrency, signal, query, allowPartial: true });

  async function* all(signal: AbortSignal): AsyncGenerator<ApiRecord> {
    const parent = parentFamily(family);
    if (!parent) {
      yield* page(family.path, signal);
      return;
    }
    const parents: string[] = [];
    if (onlyParent !== undefined) parents.push(onlyParent);
    else for await (const record of page(parent.path, signal)) parents.push(record.id);
    // Each parent's list read one at a time, `concurrency` parents at once.
    const reading: Array<Promise<ApiRecord[]>> = [];
    const read = async (id: string) => {
      const records: ApiRecord[] = [];
      for await (const record of api.paginate(listPath(family, id), { pageSize: INDEX_PAGE_SIZE, concurrency: 1, signal }))
        records.push(record);
      return records;
    };
    let next = 0;
    for (let current = 0; current < parents.length; current++) {
      while (next < parents.length && next < current + Math.max(1, concurrency)) {
        const promise = read(parents[next++]!);
        promise.catch(() => undefined);
        reading.push(promise);
      }
      yield* await reading.shift()!;
    }
  }

  async function* changedSince(since: Date, parentId: string | undefined, signal: AbortSignal): AsyncGenerator<ApiRecord> {
    const path = family.parent ? listPath(family, parentId ?? onlyParent) : family.path;
    const query = acceptsUpdatedSince(family) ? { updatedSince: since.toISOString() } : {};
    yield* page(path, signal, query);
  }

  return { all, changedSince };
}

/**
 * A family that `refers` to another (assignments' `propertyIds`, the model says) with --property-match:
 * the ids given as the referred records' match values.
 */
export function propertyRelation(
  api: ApiClient,
  family: ResourceFamily,
  field: readonly string[],
  read: { concurrency: number; signal: AbortSignal },
) {
  let index: Promise<MatchIndex> | undefined;
  const referred = referredFamily(family);
  const slot = family.refers?.field;
  if (!referred || slot === undefined) throw new Error(`${family.name} refers to no other family`);
  const { label, singular } = referred.view;
  return async (record: Record<string, unknown>): Promise<string[]> => {
    const values = record[slot];
    if (values === undefined) return [];
    if (!Array.isArray(values)) return [`${slot}: must be a list of the ${label}' match values`];
    index ??= buildIndex(field, api.paginate(referred.path, { pageSize: INDEX_PAGE_SIZE, ...read }));
    const found = await index;
    const problems: string[] = [];
    const ids = values.map((value) => {
      const key = matchKey(value);
      const hit = key === undefined ? undefined : found.get(key);
      if (hit === undefined || hit === 'ambiguous')
        problems.push(`${slot}: ${hit ? `more than one ${singular} has` : `no ${singular} with`} ${field.join('.')} ${String(value)}`);
      return hit === undefined || hit === 'ambiguous' ? value : hit.id;
    });
    record[slot] = ids;
    return problems;
  };
}

export function listCommand(family: ResourceFamily, since: Date, client: string | undefined): string {
  const parent = family.parent ? ` --${family.parent.option} ${client ?? 'ID'}` : '';
  return `appraisal ${family.command} list${parent} --updated-since ${since.toISOString()}`;
}
