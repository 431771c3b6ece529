// Fault injection: every fault through the x-mock-fault header, the admin queue (path, method,
// query match, count, skip), rate limiting (429 + Retry-After) and latency that keeps concurrency.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { waitFor } from '../helpers/wait.js';
import { adminKey, attempt, call, useMock } from '../helpers/mock-admin.js';

const mock = useMock({ records: 40, seed: 9 });

function fault(path: string, value: string, timeoutMs?: number) {
  return attempt(mock.server, 'GET', path, { headers: { 'x-mock-fault': value }, ...(timeoutMs ? { timeoutMs } : {}) });
}

async function answered(path: string, value: string) {
  const outcome = await fault(path, value);
  if (!outcome.ok) throw new Error(`expected an answer, got ${outcome.error.message}`);
  return outcome.reply;
}

describe('x-mock-fault: status faults', () => {
  it.each([
    ['status=503', 503, 'SERVICE_UNAVAILABLE'],
    ['status=401', 401, 'UNAUTHENTICATED'],
    ['status=403', 403, 'FORBIDDEN'],
    ['status=500', 500, 'INTERNAL_ERROR'],
  ])('%s answers %i with the error body and a request id', async (value, status, code) => {
    const reply = await answered('/api/properties', value);
    expect(reply.status).toBe(status);
    expect(reply.json()).toEqual({
      error: { code, message: expect.stringContaining('injected'), requestId: reply.headers['x-request-id'] },
    });
  });

  it('status=429;retry-after=1 sends Retry-After in seconds', async () => {
    const reply = await answered('/api/properties', 'status=429;retry-after=1');
    expect(reply.status).toBe(429);
    expect(reply.headers['retry-after']).toBe('1');
    expect(reply.json().error.code).toBe('RATE_LIMITED');
  });

  it('status=429;retry-after=date sends an HTTP-date 1-2 s ahead', async () => {
    const reply = await answered('/api/properties', 'status=429;retry-after=date');
    expect(reply.status).toBe(429);
    const header = reply.headers['retry-after']!;
    expect(header).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    const ahead = Date.parse(header) - Date.now();
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThanOrEqual(2000);
  });

  it('a status fault does not run the request (nothing is created)', async () => {
    const before = (await call(mock.server, 'GET', '/api/clients')).json().pagination.total;
    const reply = await attempt(mock.server, 'POST', '/api/clients', {
      body: { name: 'Never', clientType: 'lender' },
      headers: { 'x-mock-fault': 'status=503' },
    });
    expect(reply.ok && reply.reply.status).toBe(503);
    expect((await call(mock.server, 'GET', '/api/clients')).json().pagination.total).toBe(before);
  });

  it('an unknown fault is a 400 INVALID_FAULT', async () => {
    const reply = await answered('/api/properties', 'explode');
    expect(reply.status).toBe(400);
    expect(reply.json().error.code).toBe('INVALID_FAULT');
    expect((await answered('/api/properties', 'status=200')).status).toBe(400);
  });
});

describe('x-mock-fault: connection faults', () => {
  it('reset destroys the connection before any header', async () => {
    const outcome = await fault('/api/properties', 'reset');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.status).toBeUndefined();
    expect(outcome.error.code).toMatch(/ECONNRESET|EPIPE/);
  });

  it('reset-mid-body sends the headers and part of the body, then destroys the connection', async () => {
    const outcome = await fault('/api/properties?limit=50', 'reset-mid-body');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.status).toBe(200);
    expect(outcome.partial?.length ?? 0).toBeGreaterThan(0);
  });

  it('lost-answer commits the request, then destroys the connection before any header', async () => {
    const before = (await call(mock.server, 'GET', '/api/clients')).json().pagination.total;
    const outcome = await attempt(mock.server, 'POST', '/api/clients', {
      body: { name: 'Committed, answer lost', clientType: 'lender' },
      headers: { 'x-mock-fault': 'lost-answer' },
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.status).toBeUndefined();
    const after = (await call(mock.server, 'GET', `/api/clients?page=1&limit=100`)).json();
    expect(after.pagination.total).toBe(before + 1);
  });

  it('truncate promises more bytes than it sends', async () => {
    const outcome = await fault('/api/properties?limit=50', 'truncate');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.status).toBe(200);
    const full = (await call(mock.server, 'GET', '/api/properties?limit=50')).body.length;
    expect(outcome.partial!.length).toBeLessThan(full);
  });

  it('hang never answers (the client times out) and the mock keeps serving', async () => {
    const started = Date.now();
    const outcome = await fault('/api/properties', 'hang', 400);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('ETIMEDOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect((await call(mock.server, 'GET', '/api/properties')).status).toBe(200);
  });

  it('delay=MS answers normally, late', async () => {
    const started = Date.now();
    const reply = await answered('/api/properties', 'delay=250');
    expect(reply.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(245);
  });
});

describe('hold: answered once released', () => {
  it('waits for POST /__mock/release, however long that takes, then answers normally', async () => {
    let settled = false;
    const held = answered('/api/properties', 'hold').finally(() => (settled = true));
    const inFlight = async () =>
      (
        (await call(mock.server, 'GET', '/__mock/requests?limit=20')).json() as { items: Array<{ fault?: string; status: number | null }> }
      ).items.some((entry) => entry.fault === 'hold' && entry.status === null);
    await waitFor(inFlight, 'the held request to arrive');
    // Other requests go on while one is held.
    expect((await call(mock.server, 'GET', '/api/properties?limit=1')).status).toBe(200);
    expect(settled).toBe(false);
    expect((await call(mock.server, 'POST', '/__mock/release')).json()).toEqual({ released: 1 });
    expect((await held).status).toBe(200);
    expect((await call(mock.server, 'POST', '/__mock/release')).json()).toEqual({ released: 0 });
  });

  it('clearing the fault queue releases what it holds', async () => {
    await call(mock.server, 'POST', '/__mock/faults', { body: { path: '/api/clients', fault: 'hold' } });
    const held = call(mock.server, 'GET', '/api/clients');
    const inFlight = async () =>
      (
        (await call(mock.server, 'GET', '/__mock/requests?limit=20')).json() as { items: Array<{ path: string; status: number | null }> }
      ).items.some((entry) => entry.path === '/api/clients' && entry.status === null);
    await waitFor(inFlight, 'the held request to arrive');
    expect((await call(mock.server, 'DELETE', '/__mock/faults')).status).toBe(204);
    expect((await held).status).toBe(200);
  });
});

describe('x-mock-fault: body faults', () => {
  it('garbage answers 200 with a body that is not JSON', async () => {
    const reply = await answered('/api/properties', 'garbage');
    expect(reply.status).toBe(200);
    expect(() => JSON.parse(reply.text)).toThrow();
  });

  it('malformed-envelope drops pagination; =items makes items not an array', async () => {
    const noPagination = (await answered('/api/properties', 'malformed-envelope')).json();
    expect(Array.isArray(noPagination.items)).toBe(true);
    expect(noPagination.pagination).toBeUndefined();
    const itemsObject = (await answered('/api/properties', 'malformed-envelope=items')).json();
    expect(itemsObject.pagination).toBeDefined();
    expect(Array.isArray(itemsObject.items)).toBe(false);
    expect(typeof itemsObject.items).toBe('object');
  });

  it('missing-id removes the id of one record', async () => {
    const body = (await answered('/api/properties?limit=10', 'missing-id')).json();
    expect(body.items).toHaveLength(10);
    expect(body.items.filter((item: { id?: string }) => item.id === undefined)).toHaveLength(1);
    const single = (await call(mock.server, 'GET', '/api/properties?limit=1')).json().items[0];
    const record = (await answered(`/api/properties/${single.id}`, 'missing-id')).json();
    expect(record.id).toBeUndefined();
    expect(record.name).toBe(single.name);
  });

  it('wrong-page answers another page number than the one asked for', async () => {
    const body = (await answered('/api/properties?page=2&limit=10', 'wrong-page')).json();
    expect(body.pagination.page).not.toBe(2);
  });

  it('total-change reports one more record than there are', async () => {
    const real = (await call(mock.server, 'GET', '/api/properties?limit=10')).json().pagination;
    const body = (await answered('/api/properties?limit=10', 'total-change')).json();
    expect(body.pagination.total).toBe(real.total + 1);
  });

  it("duplicate starts the page with the previous page's last record", async () => {
    const first = (await call(mock.server, 'GET', '/api/properties?page=1&limit=10')).json();
    const second = (await call(mock.server, 'GET', '/api/properties?page=2&limit=10')).json();
    const faulted = (await answered('/api/properties?page=2&limit=10', 'duplicate')).json();
    expect(faulted.items).toHaveLength(10);
    expect(faulted.items[0]).toEqual(first.items[9]);
    expect(faulted.items.slice(1)).toEqual(second.items.slice(0, 9));
  });
});

describe('queued faults (POST /__mock/faults)', () => {
  it('fault the next `count` requests matching path, method and query, after skipping `skip`', async () => {
    const queued = await call(mock.server, 'POST', '/__mock/faults', {
      body: { path: '/api/properties', method: 'GET', query: { page: '3' }, fault: 'status=503', count: 2, skip: 1 },
    });
    expect(queued.status).toBe(201);
    expect(queued.json()).toMatchObject({ path: '/api/properties', fault: 'status=503', count: 2, skip: 1 });
    const status = async (path: string) => (await call(mock.server, 'GET', path)).status;
    expect(await status('/api/properties?page=3&limit=5')).toBe(200); // skipped
    expect(await status('/api/properties?page=2&limit=5')).toBe(200); // other page
    expect(await status('/api/clients?page=3')).toBe(200); // other path
    expect((await call(mock.server, 'POST', '/api/properties?page=3', { body: {} })).status).toBe(422); // other method
    expect(await status('/api/properties?page=3&limit=5')).toBe(503);
    expect((await call(mock.server, 'GET', '/__mock/faults')).json().items).toHaveLength(1);
    expect(await status('/api/properties?page=3&limit=5')).toBe(503);
    expect(await status('/api/properties?page=3&limit=5')).toBe(200);
    expect((await call(mock.server, 'GET', '/__mock/faults')).json().items).toEqual([]);
  });

  it('queues any fault, a prefix with *, several at once, the status shorthand; DELETE clears', async () => {
    await call(mock.server, 'POST', '/__mock/faults', { body: { path: '/api/clients*', fault: 'reset' } });
    const reset = await attempt(mock.server, 'GET', '/api/clients/whatever');
    expect(reset.ok).toBe(false);
    const batch = await call(mock.server, 'POST', '/__mock/faults', {
      body: {
        faults: [
          { status: 429, retryAfter: 1 },
          { status: 429, retryAfter: 1 },
        ],
      },
    });
    expect(batch.status).toBe(201);
    expect(batch.json().items).toHaveLength(2);
    const first = await call(mock.server, 'GET', '/api/reference/enums');
    const second = await call(mock.server, 'GET', '/api/assignments');
    expect([first.status, second.status, first.headers['retry-after']]).toEqual([429, 429, '1']);
    expect((await call(mock.server, 'GET', '/api/assignments')).status).toBe(200);
    await call(mock.server, 'POST', '/__mock/faults', { body: { path: '/api/files', fault: 'garbage', count: 5 } });
    expect((await call(mock.server, 'DELETE', '/__mock/faults')).status).toBe(204);
    expect((await call(mock.server, 'GET', '/api/files')).json().items).toBeDefined();
  });

  it('rejects a bad rule with 422', async () => {
    const reply = await call(mock.server, 'POST', '/__mock/faults', { body: { path: 'api/x', fault: 'boom', count: 0 } });
    expect(reply.status).toBe(422);
    expect(
      reply
        .json()
        .error.details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['count', 'path']);
    const unknown = await call(mock.server, 'POST', '/__mock/faults', { body: { path: '/api/x', fault: 'boom' } });
    expect(unknown.status).toBe(422);
  });

  it('records the fault in the request log', async () => {
    await answered('/api/properties?limit=2', 'wrong-page');
    const entries = (await call(mock.server, 'GET', '/__mock/requests?limit=5')).json().items;
    expect(entries.some((e: { fault: string | null }) => e.fault === 'wrong-page')).toBe(true);
  });
});

describe('rate limiting and latency', () => {
  let limited: MockServer;
  let slow: MockServer;
  beforeAll(async () => {
    limited = await startMockServer({ port: 0, records: 5, rateLimit: 5, http: true });
    slow = await startMockServer({ port: 0, records: 5, latencyMs: 40, http: true });
  });
  afterAll(async () => {
    await limited?.close();
    await slow?.close();
  });

  it('answers 429 with Retry-After and the error body once the bucket is empty, per key', async () => {
    const replies = [];
    for (let i = 0; i < 8; i++) replies.push(await call(limited, 'GET', '/api/properties'));
    const statuses = replies.map((r) => r.status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    const rejected = replies.find((r) => r.status === 429)!;
    expect(rejected).toBeDefined();
    expect(Number(rejected.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(rejected.json().error).toMatchObject({ code: 'RATE_LIMITED', requestId: rejected.headers['x-request-id'] });
    const other = await adminKey(limited, ['api:read']);
    expect((await call(limited, 'GET', '/api/properties', { key: other.secret })).status).toBe(200);
    // Once the Retry-After it gave has passed (the mock's clock moved on, not a wait), the key is served again.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + Number(rejected.headers['retry-after']) * 1000 });
    try {
      expect((await call(limited, 'GET', '/api/properties')).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('--latency delays every /api request without serialising them', async () => {
    const started = performance.now();
    const replies = await Promise.all(Array.from({ length: 8 }, () => call(slow, 'GET', '/api/properties')));
    const elapsed = performance.now() - started;
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(38);
    // Not by the clock (a loaded machine stretches it): from the mock's own log, every request was
    // delayed, and they were in flight at the same time (serialised, no two would overlap).
    const ids = new Set(replies.map((r) => r.headers['x-request-id']));
    const entries = (
      (await call(slow, 'GET', '/__mock/requests?limit=50')).json().items as Array<{ requestId: string; at: string; durationMs: number }>
    ).filter((e) => ids.has(e.requestId));
    expect(entries).toHaveLength(8);
    for (const entry of entries) expect(entry.durationMs).toBeGreaterThanOrEqual(38);
    const spans = entries.map((e) => ({ start: Date.parse(e.at), end: Date.parse(e.at) + e.durationMs }));
    const overlapping = Math.max(...spans.map((a) => spans.filter((b) => b.start < a.end && a.start < b.end).length));
    expect(overlapping).toBeGreaterThan(1);
  });
});

describe('over plain HTTP, and on shutdown', () => {
  let plain: MockServer;
  beforeAll(async () => {
    plain = await startMockServer({ port: 0, records: 30, http: true });
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('reset is a TCP reset; reset-mid-body and truncate cut the body short', async () => {
    const reset = await attempt(plain, 'GET', '/api/properties', { headers: { 'x-mock-fault': 'reset' } });
    expect(reset.ok).toBe(false);
    if (!reset.ok) expect(reset.error.code).toBe('ECONNRESET');
    for (const value of ['reset-mid-body', 'truncate']) {
      const cut = await attempt(plain, 'GET', '/api/properties?limit=30', { headers: { 'x-mock-fault': value } });
      expect(cut.ok, value).toBe(false);
      if (!cut.ok) {
        expect(cut.status).toBe(200);
        expect(cut.partial!.length).toBeGreaterThan(0);
      }
    }
  });

  it('close() ends hung requests at once and the clients see the connection end', async () => {
    const server = await startMockServer({ port: 0, records: 1, http: true });
    const hung = attempt(server, 'GET', '/api/properties', { headers: { 'x-mock-fault': 'hang' }, timeoutMs: 30_000 });
    const slow = attempt(server, 'GET', '/api/properties', { headers: { 'x-mock-fault': 'delay=20000' }, timeoutMs: 30_000 });
    // Both in the mock's hands (open in its log), not a guess at how long they take to get there.
    const open = async () => {
      const entries = (await call(server, 'GET', '/__mock/requests?limit=10')).json().items as Array<{
        path: string;
        status: number | null;
      }>;
      return entries.filter((e) => e.path === '/api/properties' && e.status === null).length === 2;
    };
    await waitFor(open, 'the hung and the delayed request to reach the mock');
    const started = Date.now();
    await server.close();
    const outcomes = await Promise.all([hung, slow]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcomes.map((o) => o.ok)).toEqual([false, false]);
  });
});
