// The service's key routes in process, over the mock's own key store (src/mock/auth/key-store.ts):
// secrets, hashing, the 401 checks (unknown, expired, revoked), revocation, the creation rules (422
// for bad fields, 403 for scopes beyond the creator) are the mock's; its error answers become the
// CLI's error classes through core's httpErrorFor, as they would over the wire. Tests can inject a
// failure per request, and every request is logged as "<prefix> <METHOD> <path>".
import type { ApiClient, HttpMethod } from '../../../../src/core/api-client.js';
import { httpErrorFor } from '../../../../src/core/http/http-errors.js';
import { KeyStore } from '../../../../src/mock/auth/key-store.js';
import { isAllowed, scopesAllowing, scopesBeyond } from '../../../../src/mock/auth/scopes.js';
import { createKey, parseKeyRequest } from '../../../../src/mock/handlers/keys.js';
import { errorResponse } from '../../../../src/mock/http/error-response.js';
import { MockHttpError, notFound } from '../../../../src/mock/http/http-error.js';
import { MonotonicClock } from '../../../../src/mock/state/clock.js';
import type { ApiKeyRecord, JsonObject } from '../../../../src/mock/state/records.js';

/** A key record with the secret it was issued with. */
export interface IssuedKey extends ApiKeyRecord {
  secret: string;
}

export interface NewTestKey {
  name?: string;
  scopes?: string[];
  expiresAt?: string | null;
  createdAt?: string;
}

/** Return an error to make a request fail: (method, path, prefix of the key sending it). */
export type FaultFn = (method: string, path: string, prefix: string) => Error | undefined;

export class MockKeyRoutes {
  readonly store = new KeyStore(new MonotonicClock());
  readonly log: string[] = [];
  fault: FaultFn = () => undefined;
  /** The store keeps only hashes; the secrets it handed out are kept here so tests can look for them in what users see. */
  private readonly secrets = new Map<string, string>();

  /** `now` is the service's clock for expiry checks and the "expiresAt in the future" rule. */
  constructor(private readonly now: () => Date = () => new Date()) {}

  addKey(fields: NewTestKey = {}): IssuedKey {
    const { record, secret } = this.store.create({
      name: fields.name ?? 'ci',
      scopes: fields.scopes ?? ['api:read', 'keys:admin'],
      expiresAt: fields.expiresAt ?? null,
      createdBy: 'test',
    });
    this.secrets.set(record.id, secret);
    if (fields.createdAt) this.store.setDates(record.id, { createdAt: fields.createdAt });
    return this.key(record.id);
  }

  /** The key as the store holds it now (records are immutable values: read again after a change). */
  key(id: string): IssuedKey {
    const record = this.store.get(id);
    if (!record) throw new Error(`no key ${id}`);
    return { ...record, secret: this.secrets.get(id)! };
  }

  /** Every key, in creation order, with its secret. */
  keys(): IssuedKey[] {
    return this.store.list(0, 10_000).items.map((record) => this.key(record.id));
  }

  works(secret: string): boolean {
    return this.store.check(secret, this.now().getTime()).ok;
  }

  /** One request by the key `secret`: the answer's body, or the CLI error its status maps to. */
  handle(secret: string, method: HttpMethod, path: string, body?: unknown): unknown {
    const prefix = secret.slice(0, 12);
    this.log.push(`${prefix} ${method} ${path}`);
    const injected = this.fault(method, path, prefix);
    if (injected) throw injected;
    try {
      return this.route(secret, method, path, body);
    } catch (error) {
      if (!(error instanceof MockHttpError)) throw error;
      const answer = errorResponse(error, 'req_unit');
      throw httpErrorFor({
        status: answer.status,
        method,
        path,
        headers: { 'content-type': 'application/json' },
        body: answer.body.kind === 'json' ? JSON.stringify(answer.body.value) : '',
        profileName: 'default',
        credential: { prefix, source: 'keychain', kind: 'api-key' },
        attempts: 1,
        retryable: false,
      });
    }
  }

  /** What the mock's pipeline and key handlers do for these routes. */
  private route(secret: string, method: HttpMethod, path: string, body: unknown): unknown {
    const nowMs = this.now().getTime();
    const checked = this.store.check(secret, nowMs);
    if (!checked.ok) throw new MockHttpError(401, checked.code, checked.message);
    const caller = checked.key;
    if (method === 'GET' && path === '/api/keys/current') return caller;
    if (!isAllowed(caller.scopes, 'keys:admin')) {
      throw new MockHttpError(403, 'INSUFFICIENT_SCOPE', `${method} ${path} requires one of: ${scopesAllowing('keys:admin').join(', ')}`);
    }
    if (method === 'POST' && path === '/api/keys') {
      const request = parseKeyRequest(body as JsonObject, nowMs);
      const beyond = scopesBeyond(caller.scopes, request.scopes);
      if (beyond.length > 0) throw new MockHttpError(403, 'SCOPE_EXCEEDS_CREATOR', `${caller.prefix} does not hold ${beyond.join(', ')}`);
      const created = createKey(this.store, request, caller.id);
      this.secrets.set(created.id, created.secret);
      return created;
    }
    const id = decodeURIComponent(/^\/api\/keys\/([^/]+)$/.exec(path)?.[1] ?? '');
    if (!this.store.get(id)) throw notFound('API key', id);
    if (method === 'GET') return this.store.get(id);
    if (method === 'DELETE') return void this.store.revoke(id);
    throw new Error(`unexpected ${method} ${path}`);
  }

  client(secret: string): ApiClient {
    const client: Partial<ApiClient> = {
      baseUrl: 'https://api.test',
      get: async <T>(path: string) => this.handle(secret, 'GET', path) as T,
      send: async <T>(method: HttpMethod, path: string, body?: unknown) => this.handle(secret, method, path, body) as T,
      withCredential: (other) => this.client(other.secret),
      close: async () => {},
    };
    return client as ApiClient;
  }
}
