// The one client for a running `appraisal mock`'s admin routes, used by every e2e test (never
// through the CLI): queues faults, reads the request log, creates, lists and revokes keys, makes
// changes behind the CLI's back, and reads the service's truth (every id of a collection) so a test
// can compare what the CLI produced with what the service holds. The mock's own protocol tests use
// test/mock/client.ts (in-process, raw bodies, network failures as values) instead.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import type { RequestLogEntry } from '../../src/mock/request-log.js';

export type { RequestLogEntry };
import type { MockServer } from './mock.js';
import { waitFor } from './wait.js';

/** A rule for POST /__mock/faults, as the route takes it (src/mock/admin/admin-routes.ts). */
export interface FaultRule {
  /** Default /api/*; a trailing * matches a prefix. */
  path?: string;
  method?: string;
  query?: Record<string, string>;
  /** The fault as written (`status=503`, `reset`, `hang`, …); or give `status` (+ `retryAfter`). */
  fault?: string;
  status?: number;
  retryAfter?: number | 'date';
  count?: number;
  skip?: number;
}

export interface MockKey {
  id: string;
  name: string;
  prefix: string;
  secret: string;
  scopes: string[];
}

export interface KeyRow {
  id: string;
  prefix: string;
  name: string;
  scopes: string[];
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface MockAdmin {
  /** Any request to the mock with a key of our choosing (the admin key by default); a body that is
   *  not JSON comes back as text. */
  call(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: unknown }>;
  queueFault(rule: FaultRule): Promise<void>;
  queueFaults(rules: readonly FaultRule[]): Promise<void>;
  clearFaults(): Promise<void>;
  /** Seeded data, keys, uploads, faults and rate buckets restored. */
  reset(): Promise<void>;
  createKey(scopes: string[], name?: string): Promise<MockKey>;
  revokeKey(id: string): Promise<void>;
  /** Every key the mock holds, as its admin sees them (GET /api/keys, page by page). */
  keys(): Promise<KeyRow[]>;
  keyByPrefix(prefix: string): Promise<KeyRow | undefined>;
  /** The status the service gives `key` for its own record: 200 works, 401 revoked or unknown. */
  statusWith(key: string): Promise<number>;
  requests(limit?: number): Promise<RequestLogEntry[]>;
  /** Requests to the published API (/api/...) since the log was last cleared. */
  apiRequests(): Promise<RequestLogEntry[]>;
  clearRequests(): Promise<void>;
  /** Wait until the mock has seen (at least the start of) an /api request matching `match`. */
  waitForRequest(match: (entry: RequestLogEntry) => boolean, timeoutMs?: number): Promise<void>;
  /** Every id of a collection, read page by page with the admin key. */
  ids(path: string): Promise<string[]>;
  close(): Promise<void>;
}

export function mockAdmin(mock: MockServer): MockAdmin {
  const dispatcher = new Agent({ connect: mock.caFile ? { ca: readFileSync(mock.caFile, 'utf8') } : {} });
  const call: MockAdmin['call'] = async (method, path, body, key = mock.adminKey) => {
    const headers: Record<string, string> = { 'x-api-key': key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await request(`${mock.baseUrl}${path}`, {
      method: method as 'GET',
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      dispatcher,
    });
    const text = await response.body.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.statusCode, body: parsed };
  };
  const expectOk = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const answer = await call(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const pages = async <T>(path: string): Promise<T[]> => {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const body = (await expectOk('GET', `${path}?page=${page}&limit=100`)) as { items: T[]; pagination: { pages: number } };
      items.push(...body.items);
      if (page >= body.pagination.pages) return items;
    }
  };
  const admin: MockAdmin = {
    call,
    async queueFault(rule) {
      await expectOk('POST', '/__mock/faults', rule);
    },
    async queueFaults(rules) {
      if (rules.length > 0) await expectOk('POST', '/__mock/faults', { faults: rules });
    },
    async clearFaults() {
      await expectOk('DELETE', '/__mock/faults');
    },
    async reset() {
      await expectOk('POST', '/__mock/reset');
    },
    async createKey(scopes, name = 'test key') {
      return (await expectOk('POST', '/__mock/keys', { name, scopes })) as MockKey;
    },
    async revokeKey(id) {
      await expectOk('POST', `/__mock/keys/${id}/revoke`);
    },
    keys: () => pages<KeyRow>('/api/keys'),
    async keyByPrefix(prefix) {
      return (await admin.keys()).find((key) => key.prefix === prefix);
    },
    async statusWith(key) {
      return (await call('GET', '/api/keys/current', undefined, key)).status;
    },
    async requests(limit = 1000) {
      return ((await expectOk('GET', `/__mock/requests?limit=${limit}`)) as { items: RequestLogEntry[] }).items;
    },
    async apiRequests() {
      return (await admin.requests()).filter((entry) => entry.path.startsWith('/api/'));
    },
    async waitForRequest(match, timeoutMs = 15_000) {
      await waitFor(async () => (await admin.apiRequests()).some(match), 'the expected request to reach the mock', timeoutMs);
    },
    async clearRequests() {
      await expectOk('DELETE', '/__mock/requests');
    },
    async ids(path) {
      return (await pages<{ id: string }>(path)).map((item) => item.id);
    },
    close: () => dispatcher.close(),
  };
  return admin;
}

const shared = new WeakMap<MockServer, MockAdmin>();

/** The admin client of a mock, made once and kept for the mock's life (its connections close with it). */
export function adminOf(mock: MockServer): MockAdmin {
  let admin = shared.get(mock);
  if (!admin) shared.set(mock, (admin = mockAdmin(mock)));
  return admin;
}

// Waiting lives in wait.ts; re-exported for the tests that wait on the mock's state.
export { waitFor };
