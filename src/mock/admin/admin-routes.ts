// Test-control routes under /__mock/ (outside /api, so never part of the published contract). They
// need the mock's admin key (the one it printed), or any valid key with api:admin.
//
//   POST   /__mock/faults              {path?, method?, query?, fault, count?: 1, skip?: 0} → 201 the rule
//                                       (or {faults: [rule, ...]} → 201 {items}; path defaults to /api/*, a
//                                       trailing * matches a prefix; `status` + `retryAfter` may replace `fault`)
//   GET    /__mock/faults              the queued rules
//   DELETE /__mock/faults              clear the queue (and release held requests) → 204
//   POST   /__mock/release             answer every request a `hold` fault holds → 200 {released: N}
//   POST   /__mock/reset               restore the seeded state (keys, data, uploads, faults, rate buckets) → 204
//   GET    /__mock/requests?limit=N    the last requests (method, path, query, status, key prefix)
//   DELETE /__mock/requests            clear that log → 204
//   POST   /__mock/keys                {name?, scopes, expiresAt?} → 201 key + secret (any scopes, past expiry allowed)
//   POST   /__mock/keys/{id}/revoke    → 200 the revoked key
//   PATCH  /__mock/keys/{id}           {createdAt?, lastUsedAt?, expiresAt?} (ISO or null) → 200 the key
//   POST   /__mock/clock               {offsetSeconds} → 200: the mock's clock runs that far off (Date header,
//                                       timestamps, expiry checks); a reset sets it right
//   POST   /__mock/description         {variant?: "standard"|"alternative", link?: URL|null} → 200: serve that description
//                                       and its routes; `link` replaces the service-desc Link sent on every /api answer
//                                       (null: none)
import { FaultSyntaxError, parseFault } from '../faults/fault-syntax.js';
import { invalidParameter, notFound, validationFailed, type FieldProblem } from '../http/http-error.js';
import { DESCRIPTION_VARIANTS, type DescriptionVariant } from '../description/document.js';
import { routingFor } from '../description/routing.js';
import { isJsonObject, readJsonObject } from '../http/json-body.js';
import { jsonResponse, noContent, recordResponse } from '../http/mock-response.js';
import { createKey, parseKeyRequest } from '../handlers/keys.js';
import type { FaultRuleInput } from '../faults/fault-queue.js';
import type { JsonObject } from '../state/records.js';
import { validateFields, type RecordSpec } from '../validation/field-spec.js';
import type { AdminContext, AdminHandler, AdminRoute } from './admin-context.js';

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

const RULE_SPEC: RecordSpec = {
  path: { type: 'string', minLength: 1 },
  method: { type: 'enum', values: HTTP_METHODS },
  query: { type: 'object', fields: {} },
  fault: { type: 'string', minLength: 1 },
  status: { type: 'integer', min: 400, max: 599 },
  count: { type: 'integer', min: 1 },
  skip: { type: 'integer', min: 0 },
};

/** One rule: `fault` as text, or the shorthand `status` (+ `retryAfter`: seconds or "date"). */
function parseRule(body: JsonObject, prefix: string, problems: FieldProblem[]): FaultRuleInput | undefined {
  const before = problems.length;
  problems.push(...validateFields(body, RULE_SPEC, prefix));
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(isJsonObject(body.query) ? body.query : {})) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') query[name] = String(value);
    else problems.push({ field: `${prefix}query.${name}`, message: 'must be a string' });
  }
  const path = typeof body.path === 'string' ? body.path : '/api/*';
  if (!path.startsWith('/')) problems.push({ field: `${prefix}path`, message: 'must start with /' });
  const retryAfter = body.retryAfter;
  if (retryAfter !== undefined && retryAfter !== 'date' && !(Number.isInteger(retryAfter) && (retryAfter as number) >= 0)) {
    problems.push({ field: `${prefix}retryAfter`, message: 'must be whole seconds or "date"' });
  }
  let faultText = typeof body.fault === 'string' ? body.fault.trim() : undefined;
  if (faultText === undefined && typeof body.status === 'number')
    faultText = `status=${body.status}${retryAfter === undefined ? '' : `;retry-after=${String(retryAfter)}`}`;
  if (faultText === undefined) problems.push({ field: `${prefix}fault`, message: 'is required (or give status)' });
  if (problems.length > before || faultText === undefined) return undefined;
  try {
    return {
      path,
      method: body.method as string | undefined,
      query,
      fault: parseFault(faultText),
      faultText,
      count: (body.count as number | undefined) ?? 1,
      skip: (body.skip as number | undefined) ?? 0,
    };
  } catch (error) {
    if (!(error instanceof FaultSyntaxError)) throw error;
    problems.push({ field: `${prefix}fault`, message: error.message });
    return undefined;
  }
}

/** POST /__mock/faults: one rule, or `{faults: [rule, ...]}`. */
const queueFault: AdminHandler = async (ctx) => {
  const body = await readJsonObject(ctx.req);
  const problems: FieldProblem[] = [];
  if (body.faults !== undefined) {
    if (!Array.isArray(body.faults) || body.faults.length === 0)
      throw validationFailed([{ field: 'faults', message: 'must be a non-empty array of rules' }]);
    const rules = body.faults.map((item, index) =>
      isJsonObject(item)
        ? parseRule(item, `faults[${index}].`, problems)
        : void problems.push({ field: `faults[${index}]`, message: 'must be an object' }),
    );
    if (problems.length > 0) throw validationFailed(problems);
    return jsonResponse(201, { items: rules.map((rule) => describeRule(ctx.faults.add(rule!))) });
  }
  const rule = parseRule(body, '', problems);
  if (!rule) throw validationFailed(problems);
  return jsonResponse(201, describeRule(ctx.faults.add(rule)));
};

function describeRule(rule: ReturnType<AdminContext['faults']['add']>) {
  return {
    id: rule.id,
    path: rule.path,
    method: rule.method ?? null,
    query: rule.query ?? {},
    fault: rule.faultText,
    count: rule.count,
    skip: rule.skip,
    remaining: rule.countRemaining,
    skipRemaining: rule.skipRemaining,
  };
}

const listFaults: AdminHandler = (ctx) => jsonResponse(200, { items: ctx.faults.list().map(describeRule) });

const clearFaults: AdminHandler = (ctx) => {
  ctx.faults.clear();
  return noContent();
};

const releaseHeld: AdminHandler = (ctx) => jsonResponse(200, { released: ctx.faults.release() });

const reset: AdminHandler = (ctx) => {
  ctx.state.reset();
  ctx.state.clock.setOffset(ctx.state.clock.startOffsetMs);
  ctx.faults.clear();
  ctx.limiter?.reset();
  return noContent();
};

const listRequests: AdminHandler = (ctx) => {
  const raw = ctx.query.get('limit');
  const limit = raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
  return jsonResponse(200, { items: ctx.log.recent(limit) });
};

const clearRequests: AdminHandler = (ctx) => {
  ctx.log.clear();
  return noContent();
};

const createAnyKey: AdminHandler = async (ctx) => {
  const request = parseKeyRequest(await readJsonObject(ctx.req), ctx.state.clock.wallMs(), {
    allowPast: true,
    nameDefault: 'mock test key',
  });
  return recordResponse(201, createKey(ctx.state.keys, request, ctx.state.adminKey.id));
};

const revokeAnyKey: AdminHandler = (ctx) => {
  const id = ctx.params.id ?? '';
  const revoked = ctx.state.keys.revoke(id);
  if (!revoked) throw notFound('API key', id);
  return recordResponse(200, revoked);
};

const DATE_FIELDS = ['createdAt', 'lastUsedAt', 'expiresAt'] as const;

/** PATCH /__mock/keys/{id}: make a key old, unused for long, expired or about to expire. */
const setKeyDates: AdminHandler = async (ctx) => {
  const id = ctx.params.id ?? '';
  const body = await readJsonObject(ctx.req);
  const problems: FieldProblem[] = [];
  const dates: Record<string, string | null> = {};
  for (const field of DATE_FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    if (value === null && field !== 'createdAt') dates[field] = null;
    else if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) dates[field] = new Date(Date.parse(value)).toISOString();
    else problems.push({ field, message: field === 'createdAt' ? 'must be an ISO 8601 time' : 'must be an ISO 8601 time or null' });
  }
  for (const field of Object.keys(body)) {
    if (!(DATE_FIELDS as readonly string[]).includes(field)) problems.push({ field, message: 'is not a date this route sets' });
  }
  if (problems.length > 0) throw validationFailed(problems);
  const changed = ctx.state.keys.setDates(id, dates);
  if (!changed) throw notFound('API key', id);
  return recordResponse(200, changed);
};

/**
 * `{variant?, link?}`: serve another description (and its routes) from now on; `link` (a URL or path,
 * or null) replaces the RFC 8631 service-desc Link the mock sends on every /api answer.
 */
const switchDescription: AdminHandler = async (ctx) => {
  const body = await readJsonObject(ctx.req);
  const variant = body.variant ?? ctx.description.current.variant;
  if (typeof variant !== 'string' || !(DESCRIPTION_VARIANTS as readonly string[]).includes(variant)) {
    throw invalidParameter('variant', `must be one of ${DESCRIPTION_VARIANTS.join(', ')}`);
  }
  const routing = routingFor(variant as DescriptionVariant, ctx.description.current.standardRoutes);
  if (body.link !== undefined) {
    if (body.link !== null && (typeof body.link !== 'string' || body.link === '' || /[<>\s]/.test(body.link))) {
      throw invalidParameter('link', 'must be a URL or path without spaces or angle brackets, or null');
    }
    routing.link = body.link === null ? undefined : `<${body.link}>; rel="service-desc"`;
  }
  ctx.description.current = routing;
  return jsonResponse(200, { variant, link: routing.link ?? null });
};

/** `{offsetSeconds}`: the mock's clock runs that far off the machine's (its Date header, timestamps and expiry checks). */
const setClock: AdminHandler = async (ctx) => {
  const body = await readJsonObject(ctx.req);
  const offset = body.offsetSeconds;
  if (typeof offset !== 'number' || !Number.isFinite(offset) || Math.abs(offset) > 10 * 365 * 86_400) {
    throw invalidParameter('offsetSeconds', 'must be a number of seconds (at most ten years either way)');
  }
  ctx.state.clock.setOffset(Math.round(offset * 1000));
  return jsonResponse(200, { offsetSeconds: offset, now: new Date(ctx.state.clock.wallMs()).toISOString() });
};

export const ADMIN_ROUTES: readonly AdminRoute[] = [
  { method: 'POST', path: '/__mock/faults', handler: queueFault },
  { method: 'GET', path: '/__mock/faults', handler: listFaults },
  { method: 'DELETE', path: '/__mock/faults', handler: clearFaults },
  { method: 'POST', path: '/__mock/release', handler: releaseHeld },
  { method: 'POST', path: '/__mock/reset', handler: reset },
  { method: 'POST', path: '/__mock/description', handler: switchDescription },
  { method: 'GET', path: '/__mock/requests', handler: listRequests },
  { method: 'DELETE', path: '/__mock/requests', handler: clearRequests },
  { method: 'POST', path: '/__mock/keys', handler: createAnyKey },
  { method: 'POST', path: '/__mock/keys/{id}/revoke', handler: revokeAnyKey },
  { method: 'PATCH', path: '/__mock/keys/{id}', handler: setKeyDates },
  { method: 'POST', path: '/__mock/clock', handler: setClock },
];
