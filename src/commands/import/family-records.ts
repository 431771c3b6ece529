// The family's records as the import reads them from the service: every record (contacts: each
// client's, or one client's with --client), or only the ones changed since a moment (`updatedSince`,
// which every importable family publishes), so a lost answer costs one small list, not a full one;
// the list command a person runs to look for such a create; --property-match's index of the
// referred family's records; the match index itself; and, on resume, the journal's done rows
// checked against them (a row whose record the service does not hold is not done).
//
// The match index: the service's records by their --match value (or by id), read once before the
// first row is planned. It keeps each record as the pager parsed it (what a row is compared with, to
// send only the fields that differ); the input itself is never held. Held as parsed objects rather
// than as JSON text: 200,000 property records take ~94 MiB of heap as objects and ~111 MiB as text
// (V8 shares the objects' shapes and short strings), and a matched row then needs no JSON.parse
// (10,000 unchanged rows: ~80 ms of stringify and parse gone). Two records sharing a match value
// make that value ambiguous: a row with it is invalid rather than a guess.
import type { ApiClient, ApiRecord } from '../../core/api-client.js';
import { acceptsUpdatedSince, listPath, parentFamily, referredFamily, type ResourceFamily } from '../../core/resources.js';
import { cellText, getField } from '../../output/index.js';
import type { JournalDone, JournalState } from './journal.js';

/** The page size used to read whole families: the most the service gives in one page. */
export const INDEX_PAGE_SIZE = 100;

/** The text a match value is compared by: `42` and `"42"` are the same parcel. */
export function matchKey(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = cellText(value);
  return text === '' ? undefined : text;
}

export class MatchIndex {
  private readonly records = new Map<string, ApiRecord | 'ambiguous'>();

  constructor(readonly field: readonly string[]) {}

  get size(): number {
    return this.records.size;
  }

  /** The key of a service record, by the match field. */
  keyOf(record: ApiRecord): string | undefined {
    return matchKey(this.field.length === 1 && this.field[0] === 'id' ? record.id : getField(record, this.field));
  }

  add(record: ApiRecord): void {
    const key = this.keyOf(record);
    if (key === undefined) return;
    const known = this.records.get(key);
    if (known !== undefined && (known === 'ambiguous' || known.id !== record.id)) this.records.set(key, 'ambiguous');
    else this.records.set(key, record);
  }

  /** Undefined: no record has it; 'ambiguous': more than one. */
  get(key: string): ApiRecord | 'ambiguous' | undefined {
    return this.records.get(key);
  }
}

/** Read every record into an index by `field`. */
export async function buildIndex(field: readonly string[], records: AsyncIterable<ApiRecord>): Promise<MatchIndex> {
  const index = new MatchIndex(field);
  for await (const record of records) index.add(record);
  return index;
}

export interface FamilyReader {
  /** Every record of the family (of `clientId` only, for contacts, when given). */
  all(signal: AbortSignal): AsyncGenerator<ApiRecord>;
  /** Records changed at or after `since` (of `parentId`'s collection for contacts). */
  changedSince(since: Date, parentId: string | undefined, signal: AbortSignal): AsyncGenerator<ApiRecord>;
}

export function familyReader(api: ApiClient, family: ResourceFamily, concurrency: number, onlyParent?: string): FamilyReader {
  const page = (path: string, signal: AbortSignal, query = {}) =>
    api.paginate(path, { pageSize: INDEX_PAGE_SIZE, concurrency, signal, query, allowPartial: true });

  // A family without a parent is the pager itself: re-yielded by a generator of its own, each of the
  // index's records took one more promise and turn of the microtask queue.
  function all(signal: AbortSignal): AsyncGenerator<ApiRecord> {
    return parentFamily(family) ? allOfParents(signal) : page(family.path, signal);
  }

  async function* allOfParents(signal: AbortSignal): AsyncGenerator<ApiRecord> {
    const parent = parentFamily(family)!;
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

/**
 * The journal's done rows checked against the service's records: a row whose record is not among
 * them (deleted since, or a journal edited to skip rows) moves to `gone`.
 */
export async function confirmDone(state: JournalState, records: AsyncIterable<ApiRecord>): Promise<JournalState> {
  if (state.done.size === 0) return state;
  const held = new Set<string>();
  for await (const record of records) held.add(record.id);
  const done = new Map<number, JournalDone>();
  const gone = new Map<number, JournalDone>();
  for (const [row, entry] of state.done) (held.has(entry.id) ? done : gone).set(row, entry);
  return { done, sent: state.sent, gone };
}
