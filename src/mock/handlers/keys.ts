// /api/keys: list, create (the secret is in the answer once), get, revoke, and the caller's own
// record. A key never creates a key with more than it has (403); unknown scope names are a 422.
import { isKnownScope, scopesBeyond } from '../auth/scopes.js';
import { MockHttpError, notFound, validationFailed, type FieldProblem } from '../http/http-error.js';
import { readJsonObject } from '../http/json-body.js';
import { noContent, recordResponse } from '../http/mock-response.js';
import { collectionResponse, pageRequest } from '../http/pagination.js';
import { param, type Handler } from '../http/request-context.js';
import type { KeyStore } from '../auth/key-store.js';
import type { ApiKeyRecord, JsonObject } from '../state/records.js';
import { validateFields } from '../validation/field-spec.js';
import { withoutServerManaged } from '../validation/merge-patch.js';
import { KEY_CREATE_SPEC } from '../validation/record-specs.js';

/** Fields of a key record the service sets itself. */
const KEY_MANAGED_FIELDS = ['prefix', 'secret', 'lastUsedAt', 'revokedAt', 'createdBy'];

export interface KeyRequest {
  name: string;
  scopes: string[];
  expiresAt: string | null;
  extra: JsonObject;
}

/** Validate a key-creation body. Past expiry is refused unless allowPast (the admin route allows it, to test expiry). */
export function parseKeyRequest(body: JsonObject, nowMs: number, options: { allowPast?: boolean; nameDefault?: string } = {}): KeyRequest {
  const input = { ...body };
  if (input.name === undefined && options.nameDefault) input.name = options.nameDefault;
  const problems: FieldProblem[] = validateFields(input, KEY_CREATE_SPEC);
  if (problems.length === 0) {
    for (const [index, scope] of (input.scopes as string[]).entries()) {
      if (!isKnownScope(scope)) problems.push({ field: `scopes[${index}]`, message: `unknown scope "${scope}"` });
    }
    if (typeof input.expiresAt === 'string' && !options.allowPast && Date.parse(input.expiresAt) <= nowMs) {
      problems.push({ field: 'expiresAt', message: 'must be in the future' });
    }
  }
  if (problems.length > 0) throw validationFailed(problems);
  const extra = withoutServerManaged(input, [...KEY_MANAGED_FIELDS, 'name', 'scopes', 'expiresAt']);
  const expiresAt = typeof input.expiresAt === 'string' ? new Date(Date.parse(input.expiresAt)).toISOString() : null;
  return { name: input.name as string, scopes: input.scopes as string[], expiresAt, extra };
}

export function createKey(keys: KeyStore, request: KeyRequest, createdBy: string): ApiKeyRecord & { secret: string } {
  const { record, secret } = keys.create({ ...request, createdBy });
  return { ...record, secret };
}

export const listKeys: Handler = (ctx) => {
  const page = pageRequest(ctx.query);
  return collectionResponse(ctx.state.keys.list(page.offset, page.limit), page);
};

export const createApiKey: Handler = async (ctx) => {
  const request = parseKeyRequest(await readJsonObject(ctx.req), ctx.state.clock.wallMs());
  const creator = ctx.key!;
  const beyond = scopesBeyond(creator.scopes, request.scopes);
  if (beyond.length > 0) {
    throw new MockHttpError(
      403,
      'SCOPE_EXCEEDS_CREATOR',
      `a key cannot grant more than its creator has: ${creator.prefix} does not hold ${beyond.join(', ')}`,
    );
  }
  return recordResponse(201, createKey(ctx.state.keys, request, creator.id));
};

export const getApiKey: Handler = (ctx) => {
  const key = ctx.state.keys.get(param(ctx, 'id'));
  if (!key) throw notFound('API key', param(ctx, 'id'));
  return recordResponse(200, key);
};

export const revokeApiKey: Handler = (ctx) => {
  if (!ctx.state.keys.revoke(param(ctx, 'id'))) throw notFound('API key', param(ctx, 'id'));
  return noContent();
};

export const getCurrentApiKey: Handler = (ctx) => recordResponse(200, ctx.key!);
