// Query filters of the list routes. Each turns one query parameter into a RecordFilter; a bad value
// is a 422. Text search is case-insensitive substring; updatedSince keeps records with
// updatedAt >= the given instant and decides for seeded records without generating them.
import type { SeededFamily } from '../data/seeded-family.js';
import { invalidParameter } from '../http/http-error.js';
import type { RequestContext } from '../http/request-context.js';
import type { RecordFilter } from '../state/collection.js';
import type { MockState } from '../state/mock-state.js';
import type { StoredRecord } from '../state/records.js';

export interface FilterSpec<T extends StoredRecord> {
  /** The query parameter. */
  name: string;
  build(value: string, state: MockState): RecordFilter<T>;
}

export function parseFilters<T extends StoredRecord>(ctx: RequestContext, specs: ReadonlyArray<FilterSpec<T>>): RecordFilter<T>[] {
  const filters: RecordFilter<T>[] = [];
  for (const spec of specs) {
    const value = ctx.query.get(spec.name);
    if (value !== null && value !== '') filters.push(spec.build(value, ctx.state));
  }
  return filters;
}

export function textSearch<T extends StoredRecord>(name: string, texts: (record: T) => Array<unknown>): FilterSpec<T> {
  return {
    name,
    build(value) {
      const needle = value.toLowerCase();
      return { matches: (record) => texts(record).some((text) => typeof text === 'string' && text.toLowerCase().includes(needle)) };
    },
  };
}

export function exactMatch<T extends StoredRecord>(name: string, field: string, allowed?: readonly string[]): FilterSpec<T> {
  return {
    name,
    build(value) {
      if (allowed && !allowed.includes(value)) throw invalidParameter(name, `must be one of ${allowed.join(', ')}; got "${value}"`);
      return { matches: (record) => record[field] === value };
    },
  };
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Parse an ISO 8601 instant; a 422 names the parameter when it is not one. */
export function parseInstant(name: string, value: string): number {
  const ms = ISO_INSTANT.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidParameter(name, `must be an ISO 8601 date or date-time, got "${value}"`);
  return ms;
}

export function updatedSince<T extends StoredRecord>(seeded: (state: MockState) => SeededFamily<T>): FilterSpec<T> {
  return {
    name: 'updatedSince',
    build(value, state) {
      const sinceMs = parseInstant('updatedSince', value);
      const since = new Date(sinceMs).toISOString();
      const family = seeded(state);
      return {
        // Stored timestamps are all canonical toISOString() values, so strings compare as instants.
        matches: (record) => record.updatedAt >= since,
        matchesSeeded: (index) => family.updatedMsAt(index) >= sinceMs,
      };
    },
  };
}
