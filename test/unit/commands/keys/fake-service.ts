// An in-memory model of the service's key routes, with one ApiClient per key (like withSecret), and
// an in-memory key slot whose writes and reads can be made to fail — for the rotation tests.
import type { ApiClient, HttpMethod } from '../../../../src/core/api-client.js';
import { AuthenticationError, LocalEnvironmentError, NotFoundError } from '../../../../src/core/errors.js';
import { KeyWriteError, type KeySlot } from '../../../../src/core/credentials/key-slot.js';
import type { KeyRecord } from '../../../../src/commands/keys/records.js';

export interface ServiceKey extends KeyRecord {
  id: string;
  prefix: string;
  secret: string;
  scopes: string[];
}

/** Return an error to make a request fail: (method, path, prefix of the key sending it). */
export type FaultFn = (method: string, path: string, prefix: string) => Error | undefined;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class FakeKeyService {
  readonly keys = new Map<string, ServiceKey>();
  readonly log: string[] = [];
  fault: FaultFn = () => undefined;
  private counter = 0;

  constructor(private readonly now: () => Date = () => new Date('2026-03-01T00:00:00.000Z')) {}

  addKey(fields: Partial<ServiceKey> = {}): ServiceKey {
    this.counter++;
    const tag = `${ALPHABET[this.counter % 52]}`.repeat(4) + String(this.counter).padStart(4, '0');
    const prefix = `apk_${tag}`;
    const key: ServiceKey = {
      id: `00000000-0000-4000-8000-${String(this.counter).padStart(12, '0')}`,
      name: 'ci',
      prefix,
      secret: `${prefix}_${'s'.repeat(28)}${String(this.counter).padStart(4, '0')}`,
      scopes: ['api:read', 'keys:admin'],
      createdAt: this.now().toISOString(),
      expiresAt: null,
      revokedAt: null,
      ...fields,
    };
    this.keys.set(key.id, key);
    return key;
  }

  private caller(secret: string, method: string, path: string): ServiceKey {
    const key = [...this.keys.values()].find((k) => k.secret === secret);
    if (!key || key.revokedAt) throw new AuthenticationError(`${method} ${path}: 401`, { status: 401, method, path });
    return key;
  }

  private record(key: ServiceKey): KeyRecord {
    const { secret: _secret, ...rest } = key;
    return rest;
  }

  handle(secret: string, method: HttpMethod, path: string, body?: unknown): unknown {
    const prefix = secret.slice(0, 12);
    this.log.push(`${prefix} ${method} ${path}`);
    const injected = this.fault(method, path, prefix);
    if (injected) throw injected;
    const caller = this.caller(secret, method, path);
    if (method === 'GET' && path === '/api/keys/current') return this.record(caller);
    if (method === 'POST' && path === '/api/keys') {
      const input = body as { name: string; scopes: string[]; expiresAt?: string };
      const key = this.addKey({ name: input.name, scopes: [...input.scopes], expiresAt: input.expiresAt ?? null });
      return { ...this.record(key), secret: key.secret };
    }
    const match = /^\/api\/keys\/([^/]+)$/.exec(path);
    const target = match ? this.keys.get(decodeURIComponent(match[1]!)) : undefined;
    if (!target) throw new NotFoundError(`${method} ${path}: 404`, { status: 404, method, path });
    if (method === 'GET') return this.record(target);
    if (method === 'DELETE') {
      target.revokedAt = this.now().toISOString();
      return undefined;
    }
    throw new Error(`unexpected ${method} ${path}`);
  }

  client(secret: string): ApiClient {
    const client: Partial<ApiClient> = {
      baseUrl: 'https://api.test',
      get: async <T>(path: string) => this.handle(secret, 'GET', path) as T,
      send: async <T>(method: HttpMethod, path: string, body?: unknown) => this.handle(secret, method, path, body) as T,
      withSecret: (other: string) => this.client(other),
      close: async () => {},
    };
    return client as ApiClient;
  }

  works(secret: string): boolean {
    try {
      this.caller(secret, 'GET', '/api/keys/current');
      return true;
    } catch {
      return false;
    }
  }
}

export type SlotFailure = 'refused' | 'timeout-unwritten' | 'timeout-written' | undefined;

/** A key slot in memory. `writeFailures` fail the next writes in order; `readOverride` replaces what reads return. */
export class FakeSlot implements KeySlot {
  readonly profileName = 'default';
  readonly storage = 'keychain' as const;
  readonly where = 'the OS keychain (default@https://api.test:443)';
  readonly calls: string[] = [];
  writeFailures: SlotFailure[] = [];
  readFailure: Error | undefined;
  readOverride: string | undefined;

  constructor(public value: string | undefined) {}

  async read(): Promise<string | undefined> {
    this.calls.push('read');
    if (this.readFailure) throw this.readFailure;
    return this.readOverride ?? this.value;
  }

  async write(secret: string): Promise<void> {
    this.calls.push(`write ${secret.slice(0, 12)}`);
    const failure = this.writeFailures.shift();
    if (failure === 'timeout-written') this.value = secret;
    if (failure) {
      const problem = new LocalEnvironmentError(`could not write the key: the OS keychain ${failure === 'refused' ? 'is locked' : 'did not answer'}`);
      throw new KeyWriteError(problem, failure === 'refused');
    }
    this.value = secret;
  }

  async remove(): Promise<boolean> {
    this.calls.push('remove');
    const had = this.value !== undefined;
    this.value = undefined;
    return had;
  }
}
