// The two envelopes of API.md, in one place: the collection envelope (`items` + `pagination`),
// read only by paginate() and recordsIn(), and `{success, data}`, unwrapped only here. Records need a string `id`;
// every other field passes through untouched.
// Checked by hand, not with a schema library: the shapes are two small objects, and every command
// that makes a request loads this file (zod/mini's initialisation was ~5 ms of each start-up). The
// complaints keep the form they had: up to three `path: Invalid input`, one per field, in field order.
import type { ApiRecord, PaginationInfo } from '../api-client.js';
import { ContractError, RejectedError } from '../errors.js';
import { parseServiceError } from './http-errors.js';

const PAGINATION_FIELDS = ['page', 'limit', 'total', 'pages'] as const;

export interface CollectionPage {
  items: ApiRecord[];
  pagination: PaginationInfo;
}

/** A count of the pagination: a whole number from 0 up to 2^53 - 1. */
function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The fields of a body that break the collection envelope, as paths (`(body)`, `items`, `pagination.page`). */
function envelopeBreaks(body: unknown): string[] {
  if (!isObject(body)) return ['(body)'];
  const breaks: string[] = [];
  if (!Array.isArray(body.items)) breaks.push('items');
  const pagination = body.pagination;
  if (!isObject(pagination)) breaks.push('pagination');
  else for (const field of PAGINATION_FIELDS) if (!isCount(pagination[field])) breaks.push(`pagination.${field}`);
  return breaks;
}

function describeBreaks(paths: string[]): string {
  return paths
    .slice(0, 3)
    .map((path) => `${path}: Invalid input`)
    .join('; ');
}

/** Validate one page of a collection; `where` names it in errors ("page 3 of /api/properties"). */
export function parseCollectionPage(body: unknown, where: string): CollectionPage {
  const breaks = envelopeBreaks(body);
  if (breaks.length > 0) {
    throw new ContractError(`${where}: the answer is not a collection envelope {items, pagination} (${describeBreaks(breaks)})`, {
      hint: 'the service broke its published contract; report it with the request id from --verbose',
    });
  }
  const envelope = body as { items: unknown[]; pagination: PaginationInfo };
  const items = envelope.items;
  // Each record: an object with a string id, every other field kept, and no copy of the record.
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
  // The pagination as its four counts (other keys the service adds are not carried).
  const { page, limit, total, pages } = envelope.pagination;
  return { items: items as ApiRecord[], pagination: { page, limit, total, pages } };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return value === undefined ? 'nothing' : typeof value;
}

/** One record (e.g. an upload's answer); `where` names the request. */
export function parseRecord(value: unknown, where: string): ApiRecord {
  if (!isObject(value) || typeof value.id !== 'string') {
    throw new ContractError(
      `${where}: the answer is not a record with a string id (${describeBreaks([isObject(value) ? 'id' : '(body)'])})`,
    );
  }
  return value as ApiRecord;
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
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
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
