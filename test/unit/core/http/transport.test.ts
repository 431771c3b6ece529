// core/http/transport.ts alone, over a scripted dispatcher (no socket): what one exchange does
// before a byte is sent (the key in one header only, never in the URL or a hand-made header, never
// over plain http to another machine), which requests are sent again (safe methods only, on
// 429/502/503/504 or a connection failure, within --retries, Retry-After honoured), what the trace
// shows (the key prefix, never the key), and how an answer becomes an error or a value.
import { getEventListeners } from 'node:events';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { holdSecret } from '../../../../src/core/credentials/credential.js';
import {
  AuthenticationError,
  ContractError,
  InterruptedError,
  MissingCredentialError,
  NetworkError,
  RejectedError,
  ServiceUnavailableError,
  UsageError,
} from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { DeferredJson } from '../../../../src/core/http/response-body.js';
import { retryPolicy } from '../../../../src/core/http/retry.js';
import { LONG_RETRY_WAIT_MS, Transport, type TransportConfig } from '../../../../src/core/http/transport.js';
import { fakeContext } from '../../../helpers/fake-context.js';

const KEY = 'apk_Transp01_TransportS3cretTransportS3cret42';
const PREFIX = 'apk_Transp01';

interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}
/** One attempt's outcome: an answer, or an error as undici throws it (a code such as ECONNRESET). */
type Script = Answer | { fail: string };

interface Sent {
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A dispatcher that records each request and plays the script, one entry per attempt. */
function scripted(script: Script[]) {
  const sent: Sent[] = [];
  const dispatcher = {
    async request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
      let body: string | undefined;
      if (typeof options.body === 'string') body = options.body;
      else if (options.body) {
        const chunks: Buffer[] = [];
        for await (const chunk of options.body as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(chunk));
        body = Buffer.concat(chunks).toString('utf8');
      }
      sent.push({
        origin: String(options.origin),
        path: options.path,
        method: options.method,
        headers: { ...(options.headers as Record<string, string>) },
        body,
      });
      const next = script.shift();
      if (next === undefined) throw new Error('the script has no answer for this attempt');
      if ('fail' in next) throw Object.assign(new Error(`socket ${next.fail}`), { code: next.fail });
      const text = next.body === undefined ? '' : typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
      return {
        statusCode: next.status ?? 200,
        headers: { 'content-type': 'application/json', ...next.headers },
        body: Readable.from(text === '' ? [] : [Buffer.from(text)]),
      } as unknown as Dispatcher.ResponseData;
    },
  };
  return { dispatcher: dispatcher as unknown as Dispatcher, sent };
}

function transport(script: Script[], options: { verbose?: boolean; baseUrl?: string; key?: string | null; retries?: number } = {}) {
  const made = fakeContext({ globals: { verbose: options.verbose ?? false } });
  const { dispatcher, sent } = scripted(script);
  const controller = new AbortController();
  const config: TransportConfig = {
    baseUrl: new URL(options.baseUrl ?? 'https://api.example.com/'),
    profileName: 'staging',
    credential: options.key === null ? undefined : holdSecret(made.io, options.key ?? KEY, 'keychain'),
    timeoutMs: 5_000,
    retry: retryPolicy(options.retries ?? 3, { APPRAISAL_RETRY_BASE_MS: '1' }),
    userAgent: 'appraisal-cli/9.9.9',
    maxResponseBytes: 1024 * 1024,
    io: made.io,
    signal: controller.signal,
    dispatcher,
  };
  return { transport: new Transport(config), sent, stderr: made.stderr, io: made.io, abort: () => controller.abort() };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('transport: before a byte is sent', () => {
  it('puts the key in x-api-key and nowhere else, with the user-agent and accept', async () => {
    const { transport: t, sent } = transport([{ body: { ok: true } }]);
    const answer = await t.json({ method: 'GET', path: '/api/things', query: { q: 'a b', tags: ['x', 'y'], skip: undefined } });
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.origin).toBe('https://api.example.com');
    expect(sent[0]!.path).toBe('/api/things?q=a+b&tags=x&tags=y');
    expect(sent[0]!.headers).toEqual({ 'user-agent': 'appraisal-cli/9.9.9', accept: 'application/json', 'x-api-key': KEY });
  });

  it('a bearer token goes in authorization instead; auth: false sends no credential', async () => {
    const made = fakeContext();
    const { transport: bearer, sent } = transport([{ body: {} }]);
    Object.assign(bearer.config, { credential: holdSecret(made.io, 'tok_abcdefghijklmnopqrstuvwxyz', 'env', 'bearer') });
    await bearer.json({ method: 'GET', path: '/a' });
    expect(sent[0]!.headers.authorization).toBe('Bearer tok_abcdefghijklmnopqrstuvwxyz');
    expect(sent[0]!.headers['x-api-key']).toBeUndefined();
    const { transport: anonymous, sent: plain } = transport([{ body: {} }]);
    await anonymous.json({ method: 'GET', path: '/a', auth: false });
    expect(Object.keys(plain[0]!.headers).sort()).toEqual(['accept', 'user-agent']);
  });

  it('sends a JSON body with its content type; a body that is not JSON is a usage error before sending', async () => {
    const { transport: t, sent } = transport([{ status: 201, body: { id: 'n1' } }]);
    await t.json({ method: 'POST', path: '/api/things', body: { name: 'N' } });
    expect(sent[0]).toMatchObject({ method: 'POST', body: '{"name":"N"}', headers: { 'content-type': 'application/json' } });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const { transport: refusing, sent: none } = transport([]);
    expect(() => refusing.json({ method: 'POST', path: '/a', body: circular })).toThrow(UsageError);
    expect(none).toEqual([]);
  });

  it('refuses the key, or anything shaped like a key, in the URL, and credential headers given by hand', async () => {
    const { transport: t, sent } = transport([]);
    const refusals = [
      () => t.prepare({ method: 'GET', path: `/a/${KEY}`, auth: true, retry: true, timeout: 'exchange' }),
      () => t.prepare({ method: 'GET', path: '/a', query: { key: KEY }, auth: true, retry: true, timeout: 'exchange' }),
      () => t.prepare({ method: 'GET', path: '/a', headers: { 'X-Api-Key': 'anything' }, auth: true, retry: true, timeout: 'exchange' }),
      () => t.prepare({ method: 'GET', path: '/a', headers: { Authorization: 'Bearer x' }, auth: true, retry: true, timeout: 'exchange' }),
    ];
    for (const refuse of refusals) {
      let thrown: unknown;
      try {
        refuse();
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(refuse)).toBeDefined();
      // Whatever it says, it never repeats the key.
      expect(String((thrown as Error).message)).not.toContain(KEY);
    }
    expect(sent).toEqual([]);
  });

  it('without a key: MissingCredentialError (exit 4) naming the profile and the request, nothing sent', async () => {
    const { transport: t, sent } = transport([], { key: null });
    const error = await failure(t.json({ method: 'GET', path: '/api/things' }));
    expect(error).toBeInstanceOf(MissingCredentialError);
    expect(exitCodeFor(error)).toBe(4);
    expect(error.message).toBe('no API key for profile "staging": GET /api/things needs one');
    expect(sent).toEqual([]);
  });

  it('never sends a key over plain http to another machine (exit 10), but does to this one', async () => {
    const { transport: remote, sent } = transport([], { baseUrl: 'http://api.example.com/' });
    const error = await failure(remote.json({ method: 'GET', path: '/a' }));
    expect(exitCodeFor(error)).toBe(10);
    expect(sent).toEqual([]);
    const { transport: local, sent: loopback } = transport([{ body: {} }], { baseUrl: 'http://127.0.0.1:8080/' });
    await local.json({ method: 'GET', path: '/a' });
    expect(loopback[0]!.headers['x-api-key']).toBe(KEY);
  });
});

describe('transport: what is sent again', () => {
  it.each([429, 502, 503, 504])('a GET answered %i is sent again, then succeeds', async (status) => {
    const { transport: t, sent } = transport([{ status, body: { error: { message: 'busy' } } }, { body: { ok: 1 } }]);
    expect((await t.json({ method: 'GET', path: '/a' })).body).toEqual({ ok: 1 });
    expect(sent).toHaveLength(2);
  });

  it.each(['PUT', 'DELETE', 'HEAD'] as const)('%s counts as safe to repeat', async (method) => {
    const { transport: t, sent } = transport([{ status: 503 }, { status: 200, body: {} }]);
    await t.json({ method, path: '/a' });
    expect(sent).toHaveLength(2);
  });

  it.each(['POST', 'PATCH'] as const)('%s is never sent again: a 503 fails at once', async (method) => {
    const { transport: t, sent } = transport([{ status: 503 }, { body: {} }]);
    const error = await failure(t.json({ method, path: '/a', body: {} }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(sent).toHaveLength(1);
  });

  it('a POST whose connection broke says it may have taken effect, instead of "try again"', async () => {
    const { transport: t, sent } = transport([{ fail: 'ECONNRESET' }, { body: {} }]);
    const error = await failure(t.json({ method: 'POST', path: '/a', body: {} }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(sent).toHaveLength(1);
    expect((error as NetworkError).hint).toContain('POST is not retried automatically, and the service may have carried it out');
  });

  it('a GET sent once (retry: false, the description) never says it may have taken effect', async () => {
    const broke = await failure(transport([{ fail: 'ECONNRESET' }]).transport.json({ method: 'GET', path: '/a', retry: false }));
    expect(broke).toBeInstanceOf(NetworkError);
    expect((broke as NetworkError).hint ?? '').not.toMatch(/may have carried it out|took effect/);
    const failing = await failure(transport([{ status: 503 }]).transport.json({ method: 'GET', path: '/a', retry: false }));
    expect(failing).toBeInstanceOf(ServiceUnavailableError);
    expect((failing as ServiceUnavailableError).hint).toBe('the service is overloaded or failing; try again later');
  });

  it('a GET whose connection broke is sent again', async () => {
    const { transport: t, sent } = transport([{ fail: 'ECONNRESET' }, { body: { ok: 1 } }]);
    expect((await t.json({ method: 'GET', path: '/a' })).body).toEqual({ ok: 1 });
    expect(sent).toHaveLength(2);
  });

  it('an explicit retry: true makes a POST repeatable (an idempotent call the caller vouches for)', async () => {
    const { transport: t, sent } = transport([{ status: 502 }, { status: 201, body: {} }]);
    await t.json({ method: 'POST', path: '/a', body: {}, retry: true });
    expect(sent).toHaveLength(2);
  });

  it('gives up after --retries more attempts with exit 8, saying how many were made', async () => {
    const { transport: t, sent } = transport([{ status: 503 }, { status: 503 }, { status: 503 }], { retries: 2 });
    const error = await failure(t.json({ method: 'GET', path: '/a' }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(exitCodeFor(error)).toBe(8);
    expect(sent).toHaveLength(3);
    expect(`${error.message} ${(error as ServiceUnavailableError).hint ?? ''}`).toMatch(/3 attempts/);
  });

  it('never repeats a 500 or a 4xx', async () => {
    for (const status of [500, 400, 404, 409]) {
      const { transport: t, sent } = transport([{ status, body: { error: { message: 'no' } } }, { body: {} }]);
      await failure(t.json({ method: 'GET', path: '/a' }));
      expect(sent, String(status)).toHaveLength(1);
    }
  });

  it('a 500 under --retries 3 does not suggest --retries (it would not be repeated); a 503 under --retries 0 does', async () => {
    const { transport: t } = transport([{ status: 500 }], { retries: 3 });
    const hint = ((await failure(t.json({ method: 'GET', path: '/a' }))) as ServiceUnavailableError).hint ?? '';
    expect(hint).not.toContain('--retries');
    expect(hint).toContain('500 is never retried automatically');
    const { transport: none } = transport([{ status: 503 }], { retries: 0 });
    expect(((await failure(none.json({ method: 'GET', path: '/a' }))) as ServiceUnavailableError).hint).toContain('--retries N');
  });

  it('announces a long Retry-After even without --verbose, and not a short one', async () => {
    const { transport: t, stderr, abort } = transport([{ status: 429, headers: { 'retry-after': '60' } }, { body: {} }]);
    const waiting = failure(t.json({ method: 'GET', path: '/a' }));
    await expect.poll(stderr).toContain('retrying GET /a after 429 (attempt 2/4) in 60.0s');
    expect(LONG_RETRY_WAIT_MS).toBeLessThanOrEqual(60_000);
    // Ctrl-C during the wait ends it at once, as an interrupt.
    abort();
    expect(await waiting).toBeInstanceOf(InterruptedError);
    const { transport: quick, stderr: quiet } = transport([{ status: 503 }, { body: {} }]);
    await quick.json({ method: 'GET', path: '/a' });
    expect(quiet()).toBe('');
  });
});

describe('transport: the trace and the answers', () => {
  it('--verbose traces the request with the key prefix only, and the answer with its request id', async () => {
    const { transport: t, stderr } = transport([{ body: {}, headers: { 'x-request-id': 'req_42' } }], { verbose: true });
    await t.json({ method: 'GET', path: '/api/things' });
    expect(stderr()).toContain('> GET https://api.example.com/api/things');
    expect(stderr()).toContain(`> x-api-key: ${PREFIX}…`);
    expect(stderr()).toMatch(/< 200 OK \(\d+ ms, request id req_42\)/);
    expect(stderr()).not.toContain(KEY);
  });

  it('a key the service echoes in an error is never printed: the redactor knows it from the start', async () => {
    const { transport: t, io } = transport([{ status: 401, body: { error: { message: `bad key ${KEY}` } } }]);
    const error = await failure(t.json({ method: 'GET', path: '/a' }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(exitCodeFor(error)).toBe(4);
    expect(io.redactor.redact(`${error.message} ${(error as AuthenticationError).hint ?? ''}`)).not.toContain(KEY);
    expect(error.message).toContain(PREFIX);
  });

  it('a 4xx carries the service message and request id', async () => {
    const { transport: t } = transport([
      { status: 422, headers: { 'x-request-id': 'req_7' }, body: { error: { code: 'invalid', message: 'name is required' } } },
    ]);
    const error = await failure(t.json({ method: 'POST', path: '/api/things', body: {} }));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toContain('name is required');
    expect(error.message).toContain('req_7');
  });

  it('does not follow a redirect: a contract break naming where it pointed (exit 9)', async () => {
    const { transport: t, sent } = transport([{ status: 302, headers: { location: 'https://elsewhere.example.com/a' } }]);
    const error = await failure(t.json({ method: 'GET', path: '/a' }));
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toBe('GET /a: the service answered 302 Found (to https://elsewhere.example.com/a); redirects are not followed');
    expect(sent).toHaveLength(1);
  });

  it('a 2xx that is not JSON is a contract break (exit 9)', async () => {
    const { transport: t } = transport([{ body: '<html>login</html>', headers: { 'content-type': 'text/html' } }]);
    const error = await failure(t.json({ method: 'GET', path: '/a' }));
    expect(exitCodeFor(error)).toBe(9);
  });

  it('jsonDeferred keeps the bytes and parses them when asked (pages fetched ahead)', async () => {
    const { transport: t } = transport([{ body: { items: [], pagination: { page: 1 } } }]);
    const answer = await t.jsonDeferred({ method: 'GET', path: '/a' });
    expect(answer.body).toBeInstanceOf(DeferredJson);
    expect(answer.body.parse()).toEqual({ items: [], pagination: { page: 1 } });
  });

  it('shows every answer’s headers to onAnswer, whatever the status', async () => {
    const seen: string[] = [];
    const { transport: t } = transport([{ status: 503, headers: { link: '</d>; rel="service-desc"' } }, { body: {} }]);
    Object.assign(t.config, {
      onAnswer: (headers: Record<string, string | undefined>, url: URL) => seen.push(`${url.pathname} ${headers.link ?? '-'}`),
    });
    await t.json({ method: 'GET', path: '/a' });
    expect(seen).toEqual(['/a </d>; rel="service-desc"', '/a -']);
  });

  it('a request after Ctrl-C is not sent', async () => {
    const { transport: t, sent, abort } = transport([{ body: {} }]);
    abort();
    expect(await failure(t.json({ method: 'GET', path: '/a' }))).toBeInstanceOf(InterruptedError);
    expect(sent).toEqual([]);
  });
});

describe('transport: many requests in flight', () => {
  it('64 requests sharing one signal raise no leak warning, and leave no listener behind', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    let arrived = 0;
    const dispatcher = {
      async request(): Promise<Dispatcher.ResponseData> {
        arrived++;
        await answered;
        return {
          statusCode: 200,
          headers: { 'content-type': 'application/json' },
          body: Readable.from([Buffer.from('{}')]),
        } as unknown as Dispatcher.ResponseData;
      },
    } as unknown as Dispatcher;
    const made = fakeContext();
    const controller = new AbortController();
    const t = new Transport({
      baseUrl: new URL('https://api.example.com/'),
      profileName: 'staging',
      credential: holdSecret(made.io, KEY, 'keychain'),
      timeoutMs: 5_000,
      retry: retryPolicy(0, {}),
      userAgent: 'appraisal-cli/9.9.9',
      maxResponseBytes: 1024 * 1024,
      io: made.io,
      signal: controller.signal,
      dispatcher,
    });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const requests = Array.from({ length: 64 }, (_, n) => t.json({ method: 'GET', path: `/a/${n}` }));
      await vi.waitFor(() => expect(arrived).toBe(64));
      // Every attempt listens for Ctrl-C on the one signal at once.
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(64);
      release();
      await Promise.all(requests);
      // Node emits the warning on the next tick after the listener that crossed the limit.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
