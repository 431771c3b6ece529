// Regressions found by the fault matrix and the property tests (issue 8): answers that used to crash
// the formatter (exit 1) or pass silently, and advice that was wrong for requests never retried.
import { describe, expect, it } from 'vitest';
import { ContractError, NetworkError, ServiceUnavailableError, UsageError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { proxyFor, proxySettings } from '../../../../src/core/http/agent.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../../../src/core/http/response-body.js';
import { writeRecord } from '../../../../src/output/index.js';
import { fakeContext } from '../../../helpers/fake-context.js';
import { type TestServer, closedAfterEach, makeClient, rejection } from './helpers.js';

const started = closedAfterEach();

async function serve(body: string | ((url: URL) => string), status = 200): Promise<TestServer> {
  const server = await started.serve((req, res) => {
    const text = typeof body === 'string' ? body : body(new URL(req.url ?? '/', 'http://x'));
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  return server;
}

function clientFor(server: TestServer) {
  const made = started.client(server.url, { retries: 0 });
  return made.client;
}

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('JSON nesting depth', () => {
  it('counts only brackets outside strings, escapes included', () => {
    expect(jsonNestsDeeperThan(nested(3), 3)).toBe(false);
    expect(jsonNestsDeeperThan(nested(4), 3)).toBe(true);
    expect(jsonNestsDeeperThan(`{"a":"${'['.repeat(50)}"}`, 2)).toBe(false);
    expect(jsonNestsDeeperThan(`{"a":"\\"${'{'.repeat(50)}"}`, 2)).toBe(false);
    expect(jsonNestsDeeperThan(`["\\\\",${nested(3)}]`, 3)).toBe(true);
  });

  it('many shallow brackets (a page of records) pass the quick count and the full walk alike', () => {
    const page = `{"items":[${Array.from({ length: 400 }, (_, i) => `{"id":"${i}","a":{"b":[1,{"c":2}]}}`).join(',')}]}`;
    expect(jsonNestsDeeperThan(page, 6)).toBe(false);
    expect(jsonNestsDeeperThan(page, 5)).toBe(true);
    expect(jsonNestsDeeperThan(page, MAX_JSON_DEPTH)).toBe(false);
    // Exactly `max` brackets nested: the quick count alone cannot tell, the walk does.
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('an answer nested deeper than the limit is a contract break (exit 9), not a stack overflow (exit 1)', async () => {
    const deep = await serve(`{"id":"a","deep":${nested(20_000)}}`);
    const error = await rejection(clientFor(deep).get('/api/properties/a'));
    expect(error).toBeInstanceOf(ContractError);
    expect(exitCodeFor(error)).toBe(9);
    expect(error.message).toContain(`more than ${MAX_JSON_DEPTH} levels`);
  });

  it('a page of a collection nested too deep fails the export the same way', async () => {
    const deep = await serve(
      (url) =>
        `{"items":[{"id":"a","x":${nested(5_000)}}],"pagination":{"page":${url.searchParams.get('page')},"limit":25,"total":1,"pages":1}}`,
    );
    const pages = clientFor(deep).paginate('/api/properties');
    const error = await rejection(pages.next());
    expect(error).toBeInstanceOf(ContractError);
  });

  it('nesting up to the limit is data like any other', async () => {
    const ok = await serve(`{"id":"a","deep":${nested(MAX_JSON_DEPTH - 1)}}`);
    const record = await clientFor(ok).get<{ id: string }>('/api/properties/a');
    expect(record.id).toBe('a');
  });
});

describe('single-resource answers', () => {
  it.each([
    ['a record wrapped in an array', '[{"id":"a"}]', 'an array of 1'],
    ['a bare string', '"a"', 'a string'],
    ['null', 'null', 'null'],
    ['{success, data} around an array', '{"success":true,"data":[1,2]}', 'an array of 2'],
    ['an empty body', '', 'an empty body'],
  ])('get(): %s is a ContractError (exit 9)', async (_name, body, described) => {
    const server = await serve(body);
    const error = await rejection(clientFor(server).get('/api/properties/a'));
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain(`the service answered ${described}`);
  });

  it('send(): an empty 201 is undefined (the caller decides), an array is a ContractError', async () => {
    const empty = await serve('', 201);
    expect(await clientFor(empty).send('POST', '/api/properties', { name: 'x' })).toBeUndefined();
    const array = await serve('[]', 201);
    expect(await rejection(clientFor(array).send('POST', '/api/properties', { name: 'x' }))).toBeInstanceOf(ContractError);
  });

  it('writeRecord() with no record (an empty answer to a create) is a ContractError, not a TypeError', async () => {
    const { ctx, stdout } = fakeContext();
    const error = await rejection(writeRecord(ctx, undefined as never, { label: 'properties', singular: 'property', columns: ['id'] }));
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain('without a property');
    expect(stdout()).toBe('');
  });
});

describe('connection failures of requests that are never retried', () => {
  it('a POST whose connection breaks does not advise "try again": it may have taken effect', async () => {
    const server = await started.serve((_req, res) => void res.socket?.destroy());
    const made = started.client(server.url);
    const error = await rejection(made.client.send('POST', '/api/properties', { name: 'x' }));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).hint).toMatch(/POST is not retried automatically.*check whether it took effect/);
    expect(server.requests).toHaveLength(1);
  });

  it('a GET keeps its own advice after its retries', async () => {
    const server = await started.serve((_req, res) => void res.socket?.destroy());
    const made = started.client(server.url, { retries: 1 });
    const error = await rejection(made.client.get('/api/properties/a'));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).hint ?? '').not.toContain('not retried');
    expect(server.requests).toHaveLength(2);
  });

  it('the depth limit stays below what printing survives', () => {
    expect(() => JSON.stringify(JSON.parse(nested(MAX_JSON_DEPTH)), null, 2)).not.toThrow();
  });
});

describe('rate limiting (429)', () => {
  it('a POST refused with 429 is safe to repeat: the hint says when, not "check whether it took effect"', async () => {
    const server = await started.serve((_req, res) => {
      res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' });
      res.end('{"error":{"message":"slow down"}}');
    });
    const made = started.client(server.url);
    const error = await rejection(made.client.send('POST', '/api/properties', { name: 'x' }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(exitCodeFor(error)).toBe(8);
    expect((error as ServiceUnavailableError).hint).toBe(
      'the service is rate-limiting this key (POST is not retried automatically): run it again in 7 s (Retry-After), or lower --concurrency',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a GET still rate-limited after its retries says how many attempts were made', async () => {
    const server = await started.serve((_req, res) => {
      res.writeHead(429, { 'retry-after': '0' });
      res.end();
    });
    const made = started.client(server.url, { retries: 1 });
    const error = await rejection(made.client.get('/api/properties/a'));
    expect((error as ServiceUnavailableError).hint).toMatch(/^the service is rate-limiting this key after 2 attempts: run it again in 1 s/);
  });
});

describe('long waits before a retry', () => {
  it('a Retry-After of a minute is announced without --verbose (it would look like a hang)', async () => {
    const server = await started.serve((_req, res) => {
      res.writeHead(503, { 'retry-after': '60' });
      res.end();
    });
    const made = started.client(server.url);
    const pending = rejection(made.client.get('/api/properties/a'));
    while (!made.io.stderr().includes('retrying')) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(made.io.stderr()).toBe('retrying GET /api/properties/a after 503 (attempt 2/4) in 60.0s\n');
    made.abort.abort();
    expect((await pending).name).toBe('InterruptedError');
  });

  it('a short one stays quiet', async () => {
    let calls = 0;
    const server = await started.serve((_req, res) => {
      calls++;
      res.writeHead(calls === 1 ? 503 : 200, { 'retry-after': '1', 'content-type': 'application/json' });
      res.end(calls === 1 ? '' : '{"id":"a"}');
    });
    const made = started.client(server.url);
    await made.client.get('/api/properties/a');
    expect(made.io.stderr()).toBe('');
  });
});

describe('proxy variables', () => {
  it.each([
    [{ HTTPS_PROXY: '::::' }, 'HTTPS_PROXY'],
    [{ http_proxy: 'proxy.example.com:3128x' }, 'http_proxy'],
    [{ HTTP_PROXY: 'socks5://127.0.0.1:1080' }, 'HTTP_PROXY'],
  ])('%j is a usage error naming the variable (exit 2), not an "unexpected failure" (exit 1)', (env, name) => {
    let error: unknown;
    try {
      proxySettings(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(exitCodeFor(error)).toBe(2);
    expect((error as Error).message).toContain(`${name} is not a proxy URL`);
  });

  it('never shows the password of a broken proxy value', () => {
    expect(() => proxySettings({ HTTPS_PROXY: 'alice:s3cretPass@proxy:3128' })).toThrow('HTTPS_PROXY is not a proxy URL: "…@proxy:3128"');
  });

  it('a client with a broken proxy variable fails before any request, with exit 2', () => {
    expect(() => makeClient('http://127.0.0.1:1', { env: { HTTPS_PROXY: '::::' } })).toThrow(UsageError);
  });
});

describe('failures through a proxy name the proxy', () => {
  it('picks the proxy undici uses, and honours NO_PROXY', () => {
    const env = { HTTPS_PROXY: 'http://p:3128', HTTP_PROXY: 'http://q:8080', NO_PROXY: 'internal.example, .corp.example:8443' };
    expect(proxyFor(new URL('https://api.example.com/x'), env)).toBe('http://p:3128');
    expect(proxyFor(new URL('http://api.example.com/x'), env)).toBe('http://q:8080');
    expect(proxyFor(new URL('https://internal.example/x'), env)).toBeUndefined();
    expect(proxyFor(new URL('https://a.internal.example/x'), env)).toBeUndefined();
    expect(proxyFor(new URL('https://b.corp.example:8443/x'), env)).toBeUndefined();
    expect(proxyFor(new URL('https://b.corp.example/x'), env)).toBe('http://p:3128');
    expect(proxyFor(new URL('https://api.example.com/x'), { ...env, NO_PROXY: '*' })).toBeUndefined();
    expect(proxyFor(new URL('https://api.example.com/x'), {})).toBeUndefined();
  });

  it('a proxy that refuses connections is named (not the service, which was never reached)', async () => {
    // Loopback targets are never proxied: a remote one, without a credential (plain http).
    const made = started.client('http://service.invalid:9', {
      retries: 0,
      credential: undefined,
      env: { HTTP_PROXY: 'http://user:secret@127.0.0.1:1' },
    });
    const error = await rejection(made.client.request({ method: 'GET', path: '/api/properties/a', auth: false }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(
      'GET /api/properties/a: cannot connect to the proxy http://127.0.0.1:1 (on the way to http://service.invalid:9): connection refused',
    );
    expect((error as NetworkError).hint).toContain('NO_PROXY');
  });
});
