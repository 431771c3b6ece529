// The collection envelope: `{items, pagination: {page, limit, total, pages}}`. First page 1, default
// limit 25, a larger limit is clamped to 100 (and pagination.limit says what was used).
import type { QueryResult } from '../state/collection.js';
import type { JsonObject } from '../state/records.js';
import { invalidParameter } from './http-error.js';
import type { MockResponse } from './mock-response.js';

export const FIRST_PAGE = 1;
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

function positiveInteger(name: string, raw: string): number {
  if (!/^\s*\d+\s*$/.test(raw)) throw invalidParameter(name, `must be a positive whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < 1) throw invalidParameter(name, `must be at least 1, got ${value}`);
  if (!Number.isSafeInteger(value)) throw invalidParameter(name, `is too large: ${raw.trim()}`);
  return value;
}

export function pageRequest(query: URLSearchParams): PageRequest {
  const pageRaw = query.get('page');
  const limitRaw = query.get('limit');
  const page = pageRaw === null || pageRaw === '' ? FIRST_PAGE : positiveInteger('page', pageRaw);
  const limit = limitRaw === null || limitRaw === '' ? DEFAULT_LIMIT : Math.min(MAX_LIMIT, positiveInteger('limit', limitRaw));
  return { page, limit, offset: Math.min((page - 1) * limit, Number.MAX_SAFE_INTEGER) };
}

export function collectionResponse<T extends JsonObject>(result: QueryResult<T>, request: PageRequest): MockResponse {
  const pagination = { page: request.page, limit: request.limit, total: result.total, pages: Math.ceil(result.total / request.limit) };
  return {
    status: 200,
    body: { kind: 'json', value: { items: result.items, pagination }, shape: 'collection', previous: result.previous },
  };
}

/** A page of an in-memory array (for small lists that are not collections in the store). */
export function pageOfArray<T>(items: readonly T[], request: PageRequest): QueryResult<T> {
  return {
    items: items.slice(request.offset, request.offset + request.limit),
    total: items.length,
    previous: request.offset > 0 ? items[request.offset - 1] : undefined,
  };
}
