// Making the leased key: the service's own clock first (the `Date` header of `GET /api/keys/current`,
// which also says what the creating key holds), then `POST /api/keys` with exactly the scopes asked,
// a name that marks it as a lease, and `expiresAt` = the service's now + TTL — the backstop if
// nothing else revokes it, right even when this machine's clock is not.
import type { ApiClient } from '../../../core/api-client.js';
import type { Context } from '../../../core/context.js';
import { rememberSecret } from '../../../core/credentials/credential.js';
import { ContractError, PermissionError } from '../../../core/errors.js';
import { keyPrefix } from '../../../core/redact.js';
import { CURRENT_KEY_PATH, KEYS_PATH, keyPath, type CreatedKeyRecord, type KeyRecord } from '../records.js';
import { scopesBeyond } from './derived-scopes.js';

export interface Lease {
  id: string;
  prefix: string;
  secret: string;
  name: string;
  scopes: string[];
  expiresAt: string;
}

export interface LeaseRequest {
  name: string;
  scopes: readonly string[];
  ttlMs: number;
}

/** The client's view of the service's clock: the last `Date` header it saw. */
export interface ServiceClock {
  lastDate: string | undefined;
}

/** The service's now, from its `Date` header; this machine's clock when it sent none. */
function serviceNow(ctx: Context, clock: ServiceClock): Date {
  const stamp = clock.lastDate === undefined ? Number.NaN : Date.parse(clock.lastDate);
  if (Number.isNaN(stamp)) {
    ctx.io.debug("* the service sent no Date header: the lease expiry is counted from this machine's clock");
    return ctx.now();
  }
  return new Date(stamp);
}

function refusal(error: PermissionError, creator: KeyRecord, scopes: readonly string[]): PermissionError {
  const held = Array.isArray(creator.scopes) ? creator.scopes.map(String) : [];
  const who = `key ${creator.prefix ?? 'in use'} (the one this command uses)`;
  const beyond = scopesBeyond(held, scopes);
  const message =
    error.serviceCode === 'SCOPE_EXCEEDS_CREATOR' || beyond.length > 0
      ? `the service refused to lease ${beyond.length > 0 ? beyond.join(', ') : scopes.join(', ')}: ${who} does not hold ${beyond.length === 1 ? 'it' : 'them'} (it has ${held.join(', ') || 'no scopes'})`
      : `the service refused to create the lease: ${who} may not create keys (${error.serviceMessage ?? error.message})`;
  return new PermissionError(message, {
    status: error.status,
    method: error.method,
    path: error.path,
    requestId: error.requestId,
    serviceCode: error.serviceCode,
    hint: 'lease only scopes the creating key holds (a lease never grants more than its creator); key management needs keys:admin or api:admin',
    cause: error,
  });
}

/** Create the lease; its secret is registered with the redactor before anything else happens. */
export async function mintLease(ctx: Context, api: ApiClient, clock: ServiceClock, request: LeaseRequest): Promise<Lease> {
  const creator = await api.get<KeyRecord>(CURRENT_KEY_PATH);
  const expiresAt = new Date(serviceNow(ctx, clock).getTime() + request.ttlMs).toISOString();
  let created: CreatedKeyRecord;
  try {
    created = await api.send<CreatedKeyRecord>('POST', KEYS_PATH, { name: request.name, scopes: request.scopes, expiresAt });
  } catch (error) {
    if (error instanceof PermissionError) throw refusal(error, creator, request.scopes);
    throw error;
  }
  const secret = created?.secret;
  if (typeof secret === 'string' && secret !== '') rememberSecret(ctx.io, secret);
  if (typeof secret !== 'string' || secret === '' || typeof created?.id !== 'string') {
    // A key nobody holds the secret of is only a liability.
    if (typeof created?.id === 'string') await api.send('DELETE', keyPath(created.id)).catch(() => undefined);
    throw new ContractError(`POST ${KEYS_PATH} did not return the new key's id and secret`);
  }
  return {
    id: created.id,
    prefix: typeof created.prefix === 'string' && created.prefix !== '' ? created.prefix : keyPrefix(secret),
    secret,
    name: request.name,
    scopes: [...request.scopes],
    expiresAt: typeof created.expiresAt === 'string' ? created.expiresAt : expiresAt,
  };
}
