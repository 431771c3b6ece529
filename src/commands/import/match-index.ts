// The match index: the service's records by their --match value (or by id), read once before the
// first row is planned. It keeps each record as the pager parsed it (what a row is compared with, to
// send only the fields that differ); the input itself is never held. Held as parsed objects rather
// than as JSON text: 200,000 property records take ~94 MiB of heap as objects and ~111 MiB as text
// (V8 shares the objects' shapes and short strings), and a matched row then needs no JSON.parse
// (10,000 unchanged rows: ~80 ms of stringify and parse gone). Two records sharing a match value
// make that value ambiguous: a row with it is invalid rather than a guess.
import type { ApiRecord } from '../../core/api-client.js';
import { cellText, getField } from '../../output/index.js';

/** The record as the service holds it. */
export type ExistingRecord = ApiRecord;

/** The text a match value is compared by: `42` and `"42"` are the same parcel. */
export function matchKey(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = cellText(value);
  return text === '' ? undefined : text;
}

export class MatchIndex {
  private readonly records = new Map<string, ExistingRecord | 'ambiguous'>();

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
  get(key: string): ExistingRecord | 'ambiguous' | undefined {
    return this.records.get(key);
  }
}

/** Read every record into an index by `field`. */
export async function buildIndex(field: readonly string[], records: AsyncIterable<ApiRecord>): Promise<MatchIndex> {
  const index = new MatchIndex(field);
  for await (const record of records) index.add(record);
  return index;
}
