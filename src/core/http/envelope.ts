// The two envelopes of API.md, in one place: the collection envelope (`items` + `pagination`),
// read only by paginate() and recordsIn(), and `{success, data}`, unwrapped only here. Records need a string `id`;
// every other field passes through untouched.
// zod/mini: the same validators as zod's classic API in a 16 KB bundle instead of 450 KB.
import * as z from 'zod/mini';
import type { ApiRecord, PaginationInfo } from '../api-client.js';
import { ContractError, RejectedError } from '../errors.js';
import { parseServiceError } from './http-errors.js';

const count = z.int().check(z.minimum(0));

export const paginationSchema = z.object({ page: count, limit: count, total: count, pages: count });

/** Required shape checked strictly; extra top-level keys are tolerated (API.md: keep unknown fields). */
export const collectionSchema = z.object({ items: z.array(z.unknown()), pagination: paginationSchema });

export const recordSchema = z.looseObject({ id: z.string() });

export interface CollectionPage {
  items: ApiRecord[];
  pagination: PaginationInfo;
}

function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ');
}

/** Validate one page of a collection; `where` names it in errors ("page 3 of /api/properties"). */
export function parseCollectionPage(body: unknown, where: string): CollectionPage {
  const envelope = collectionSchema.safeParse(body);
  if (!envelope.success) {
    throw new ContractError(`${where}: the answer is not a collection envelope {items, pagination} (${describeIssues(envelope.error)})`, {
      hint: 'the service broke its published contract; report it with the request id from --verbose',
    });
  }
  const items = envelope.data.items;
  // Each record checked by hand, not with recordSchema: the same rule (an object with a string id,
  // every other field kept) at about a hundredth of the cost, and no copy of the record.
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (isObject(item) && typeof item.id === 'string') continue;
    const got = !isObject(item)
      ? `(body): expected an object, got ${describeValue(item)}`
      : `id: expected a string, got ${describeValue(item.id)}`;
    throw new ContractError(`${where}: item ${index + 1} is not a record with a string id (${got})`, {
      hint: 'the service broke its published contract; report it with the request id from --verbose',
    });
  }
  return { items: items as ApiRecord[], pagination: envelope.data.pagination };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return value === undefined ? 'nothing' : typeof value;
}

/** One record (e.g. an upload's answer); `where` names the request. */
export function parseRecord(value: unknown, where: string): ApiRecord {
  const record = recordSchema.safeParse(value);
  if (!record.success) {
    throw new ContractError(`${where}: the answer is not a record with a string id (${describeIssues(record.error)})`);
  }
  return record.data as ApiRecord;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The records a body carries, for printing it as table/csv/ndjson (`appraisal api`): a list, the
 * collection envelope's items, `{success: true, data}`'s data, or the body itself as one record;
 * undefined when it holds something else (a bare value, a list of non-objects).
 */
export function recordsIn(body: unknown): { list: Record<string, unknown>[] } | { one: Record<string, unknown> } | undefined {
  if (Array.isArray(body)) return body.every(isObject) ? { list: body as Record<string, unknown>[] } : undefined;
  if (!isObject(body)) return undefined;
  if (Array.isArray(body.items) && isObject(body.pagination)) return recordsIn(body.items);
  if (body.success === true && 'data' in body) return recordsIn(body.data);
  return { one: body };
}

/** Whether a body uses the `{success, data}` envelope rather than being a record itself. */
export function isDataEnvelope(body: unknown): body is Record<string, unknown> & { success: boolean } {
  return isObject(body) && typeof body.success === 'boolean' && ('data' in body || body.success === false);
}

export interface UnwrapSite {
  status: number;
  method: string;
  path: string;
}

/** `{success: true, data}` → data; `{success: false, …}` → an error; anything else unchanged. */
export function unwrapData(body: unknown, site: UnwrapSite): unknown {
  if (!isDataEnvelope(body)) return body;
  if (body.success) return body.data;
  const service = parseServiceError(JSON.stringify(body), 'application/json');
  const said = service.message ? ` — ${service.message}` : '';
  const id = service.requestId ? ` (request id ${service.requestId})` : '';
  if (site.status >= 400 && site.status < 500) {
    throw new RejectedError(`${site.method} ${site.path}: the service rejected the request${said}${id}`, {
      status: site.status,
      method: site.method,
      path: site.path,
      serviceCode: service.code,
      serviceMessage: service.message,
      requestId: service.requestId,
    });
  }
  throw new ContractError(`${site.method} ${site.path}: the service answered ${site.status} but reported failure${said}${id}`);
}

function describeJson(value: unknown): string {
  if (value === undefined) return 'an empty body';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return `a ${typeof value}`;
}

/**
 * The answer of a single-resource request (a record, `{success, data}` around one, an object such as
 * the enums): unwrapped, and a JSON object. An array, a bare value, or nothing where something is
 * required is a broken contract, reported here rather than crashing whoever prints it.
 */
export function unwrapObject(
  body: unknown,
  site: UnwrapSite,
  required: boolean,
  form: PublishedEnvelope = 'unknown',
): Record<string, unknown> | undefined {
  const data = unwrapPublished(body, form, site);
  if (isObject(data) || (data === undefined && !required)) return data;
  throw new ContractError(
    `${site.method} ${site.path}: expected a JSON object, the service answered ${describeJson(data)} (${site.status})`,
    {
      hint: 'the service broke its published contract; report it with the request id from --verbose',
    },
  );
}

/** How an operation's answer wraps its data, as its published response schema says (description/schema.ts). */
export type PublishedEnvelope = 'collection' | 'data' | 'array' | 'record' | 'unknown';

/**
 * A single answer read the way the description publishes it: `data` must be `{success, data}` and is
 * unwrapped; `record` and `array` are taken as they are (a record may have fields named success and
 * data); `unknown` falls back to recognising `{success, data}` by its shape.
 */
export function unwrapPublished(body: unknown, form: PublishedEnvelope, site: UnwrapSite): unknown {
  if (form === 'record' || form === 'array') return body;
  if (form === 'data' && !isDataEnvelope(body) && body !== undefined) {
    throw new ContractError(
      `${site.method} ${site.path}: the description publishes a {success, data} answer, the service sent ${describeJson(body)}`,
      {
        hint: 'the service broke its published contract; report it with the request id from --verbose',
      },
    );
  }
  return unwrapData(body, site);
}

/** The records of a list answered in one piece (a bare array, or `{success, data: [...]}`). */
export function listRecordsOf(body: unknown, form: PublishedEnvelope, site: UnwrapSite): ApiRecord[] {
  const data = unwrapPublished(body, form, site);
  if (!Array.isArray(data)) {
    throw new ContractError(`${site.method} ${site.path}: the description publishes a list, the service sent ${describeJson(data)}`, {
      hint: 'the service broke its published contract; report it with the request id from --verbose',
    });
  }
  return data.map((item, index) => parseRecord(item, `${site.method} ${site.path}: item ${index + 1}`));
}
