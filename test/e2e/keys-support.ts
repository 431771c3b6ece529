// Shared by the keys and rotate e2e tests: the mock's admin routes (faults, request log, key list),
// a plain request with a given key, and the secret canary.
import { readFileSync } from 'node:fs';
import { Agent, fetch } from 'undici';
import { expect } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import type { MockServer } from '../helpers/mock.js';
import { filesUnder } from './credentials-support.js';

export interface MockCall {
  status: number;
  body: unknown;
}

/** One request to the mock with `key` (default: the mock's admin key). */
export async function call(mock: MockServer, method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<MockCall> {
  const agent = new Agent({ connect: mock.caFile ? { ca: readFileSync(mock.caFile) } : {} });
  try {
    const response = await fetch(`${mock.baseUrl}${path}`, {
      method,
      headers: {
        'x-api-key': options.key ?? mock.adminKey,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      dispatcher: agent,
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body };
  } finally {
    await agent.close();
  }
}

/** HTTP status the service gives `key` for its own record: 200 works, 401 revoked or unknown. */
export async function statusWith(mock: MockServer, key: string): Promise<number> {
  return (await call(mock, 'GET', '/api/keys/current', { key })).status;
}

export interface FaultRule {
  path: string;
  method?: string;
  fault?: string;
  status?: number;
  count?: number;
  skip?: number;
}

export async function queueFault(mock: MockServer, rule: FaultRule): Promise<void> {
  const { status } = await call(mock, 'POST', '/__mock/faults', { body: rule });
  if (status !== 201) throw new Error(`POST /__mock/faults answered ${status}`);
}

export async function clearFaults(mock: MockServer): Promise<void> {
  await call(mock, 'DELETE', '/__mock/faults');
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number | null;
  keyPrefix: string | null;
}

/** Requests to the published API (/api/...) the mock has seen since the log was last cleared. */
export async function requestLog(mock: MockServer): Promise<LoggedRequest[]> {
  const items = ((await call(mock, 'GET', '/__mock/requests')).body as { items: LoggedRequest[] }).items;
  return items.filter((entry) => entry.path.startsWith('/api/'));
}

export async function clearRequestLog(mock: MockServer): Promise<void> {
  await call(mock, 'DELETE', '/__mock/requests');
}

/** Wait until the mock has seen (at least the start of) a request matching `match`. */
export async function waitForRequest(mock: MockServer, match: (entry: LoggedRequest) => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await requestLog(mock)).some(match)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the expected request never reached the mock');
}

export interface KeyRow {
  id: string;
  prefix: string;
  name: string;
  scopes: string[];
  expiresAt: string | null;
  revokedAt: string | null;
}

/** Every key the mock holds (as its admin sees them). */
export async function allKeys(mock: MockServer): Promise<KeyRow[]> {
  const keys: KeyRow[] = [];
  for (let page = 1; ; page++) {
    const body = (await call(mock, 'GET', `/api/keys?page=${page}&limit=100`)).body as { items: KeyRow[]; pagination: { pages: number } };
    keys.push(...body.items);
    if (page >= body.pagination.pages) return keys;
  }
}

export async function keyByPrefix(mock: MockServer, prefix: string): Promise<KeyRow | undefined> {
  return (await allKeys(mock)).find((key) => key.prefix === prefix);
}

/** The secret canary: none of `secrets` in any output or in any file under `dirs` (except `allowed` files). */
export function expectNoSecrets(secrets: readonly string[], results: readonly CliResult[], dirs: readonly string[], allowed: readonly string[] = []): void {
  const files = dirs.flatMap((dir) => filesUnder(dir)).filter((file) => !allowed.includes(file));
  for (const secret of secrets) {
    for (const [i, result] of results.entries()) {
      expect(result.stdout, `stdout of run ${i}`).not.toContain(secret);
      expect(result.stderr, `stderr of run ${i}`).not.toContain(secret);
    }
    const leaking = files.filter((file) => readFileSync(file).includes(secret));
    expect(leaking, 'files holding a secret').toEqual([]);
  }
}

/** The prefixes named in a message, in order. */
export function prefixesIn(text: string): string[] {
  return [...text.matchAll(/\bapk_[A-Za-z0-9]{8}\b/g)].map((match) => match[0]);
}
