// Faults that corrupt an answer the handler produced: they rewrite the JSON (or replace the body)
// before it is written. Transport faults (truncate, reset-mid-body) are applied by the writer.
import type { MockResponse } from '../http/mock-response.js';
import type { JsonObject } from '../state/records.js';
import type { Fault } from './fault-syntax.js';

export const GARBAGE_BODY = Buffer.from('<html><body>upstream error \u0000\u0001 {"items": [ this is not JSON', 'utf8');

interface Envelope {
  items: unknown;
  pagination?: { page: number; limit: number; total: number; pages: number };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutId(record: unknown): unknown {
  if (!isObject(record)) return record;
  const { id: _id, ...rest } = record;
  return rest;
}

/** `updatedAt` as a number: still a record with an id, but not what the schema publishes. */
function withWrongType(record: unknown): unknown {
  return isObject(record) ? { ...record, updatedAt: 1_700_000_000 } : record;
}

function rewriteJson(value: unknown, shape: string, previous: JsonObject | undefined, fault: Fault): unknown {
  if (shape === 'collection' && isObject(value)) {
    const envelope = structuredClone(value) as unknown as Envelope;
    const items = Array.isArray(envelope.items) ? envelope.items : [];
    const pagination = envelope.pagination;
    switch (fault.kind) {
      case 'malformed-envelope':
        if (fault.variant === 'items-not-array')
          return { ...envelope, items: Object.fromEntries(items.map((item, i) => [String(i), item])) };
        return { items };
      case 'missing-id':
        if (items.length > 0) items[Math.floor(items.length / 2)] = withoutId(items[Math.floor(items.length / 2)]);
        return envelope;
      case 'schema-violation':
        if (items.length > 0) items[Math.floor(items.length / 2)] = withWrongType(items[Math.floor(items.length / 2)]);
        return envelope;
      case 'wrong-page':
        if (pagination) pagination.page += 1;
        return envelope;
      case 'total-change':
        if (pagination) {
          pagination.total += 1;
          pagination.pages = Math.ceil(pagination.total / Math.max(1, pagination.limit));
        }
        return envelope;
      case 'duplicate': {
        const repeated = previous ?? items[0];
        if (repeated === undefined) return envelope;
        const shifted = [repeated, ...items];
        if (pagination && shifted.length > pagination.limit) shifted.pop();
        return { ...envelope, items: shifted };
      }
      default:
        return value;
    }
  }
  if (shape === 'success' && isObject(value)) {
    if (fault.kind === 'malformed-envelope') return { success: true };
    if (fault.kind === 'missing-id') return { ...value, data: withoutId(value.data) };
    if (fault.kind === 'schema-violation') return { ...value, data: withWrongType(value.data) };
    return value;
  }
  if (shape === 'record') {
    if (fault.kind === 'malformed-envelope') return [value];
    if (fault.kind === 'missing-id') return withoutId(value);
    if (fault.kind === 'schema-violation') return withWrongType(value);
  }
  return value;
}

export function applyResponseFault(response: MockResponse, fault: Fault): MockResponse {
  if (fault.kind === 'garbage') {
    return { status: 200, headers: {}, body: { kind: 'bytes', data: GARBAGE_BODY, contentType: 'application/json; charset=utf-8' } };
  }
  if (response.body.kind !== 'json') return response;
  const body = response.body;
  return { ...response, body: { ...body, value: rewriteJson(body.value, body.shape, body.previous, fault) } };
}
