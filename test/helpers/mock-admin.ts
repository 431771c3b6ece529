// Talks to a running `appraisal mock` directly (never through the CLI): queues faults, reads the
// request log, creates and revokes keys, and reads the service's truth (every id of a collection)
// so a test can compare what the CLI produced with what the service holds.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import type { MockServer } from './mock.js';

export interface FaultRule {
  path?: string;
  method?: string;
  query?: Record<string, string>;
  fault: string;
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

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Null while the request is still open. */
  status: number | null;
  keyPrefix: string | null;
  fault: string | null;
}

export interface MockAdmin {
  /** Any request to the mock with a key of our choosing (the admin key by default). */
  call(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: unknown }>;
  queueFaults(rules: readonly FaultRule[]): Promise<void>;
  clearFaults(): Promise<void>;
  /** Seeded data, keys, uploads, faults and rate buckets restored. */
  reset(): Promise<void>;
  createKey(scopes: string[], name?: string): Promise<MockKey>;
  revokeKey(id: string): Promise<void>;
  requests(limit?: number): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
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
    return { status: response.statusCode, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  const expectOk = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const answer = await call(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  return {
    call,
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
    async requests(limit = 1000) {
      return ((await expectOk('GET', `/__mock/requests?limit=${limit}`)) as { items: LoggedRequest[] }).items;
    },
    async clearRequests() {
      await expectOk('DELETE', '/__mock/requests');
    },
    async ids(path) {
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const body = (await expectOk('GET', `${path}?page=${page}&limit=100`)) as {
          items: Array<{ id: string }>;
          pagination: { pages: number };
        };
        ids.push(...body.items.map((item) => item.id));
        if (page >= body.pagination.pages) return ids;
      }
    },
    close: () => dispatcher.close(),
  };
}

// Waiting lives in wait.ts; re-exported for the tests that wait on the mock's state.
export { waitFor } from './wait.js';
