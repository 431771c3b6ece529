// In-process mock servers for the mock's own tests, and a tiny HTTP(S) client that trusts the mock's
// CA the way the CLI does (added to the system roots) and reports network failures as values.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { afterAll, beforeAll, expect } from 'vitest';
import { startMockServer, type MockServer, type MockServerOptions } from '../../src/mock/index.js';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: Buffer;
  /** The body parsed as JSON (throws when it is not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely and assert on them
  json<T = any>(): T;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export type Outcome =
  { ok: true; reply: Reply } | { ok: false; error: NodeJS.ErrnoException; partial: Buffer | undefined; status: number | undefined };

// Building a secure context with every root certificate is slow: once per mock.
const contexts = new WeakMap<MockServer, SecureContext>();
function secureContextFor(server: MockServer): SecureContext | undefined {
  if (!server.caPem) return undefined;
  let context = contexts.get(server);
  if (!context) contexts.set(server, (context = createSecureContext({ ca: [...rootCertificates, server.caPem] })));
  return context;
}

/** Any request; network failures (reset, truncation, timeout) come back as `{ok: false}`. */
export function attempt(server: MockServer, method: string, path: string, options: CallOptions = {}): Promise<Outcome> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? server.adminKey : options.key;
  if (key !== null) headers['x-api-key'] = key;
  let payload: Buffer | undefined;
  if (options.rawBody !== undefined) payload = Buffer.from(options.rawBody);
  else if (options.body !== undefined) {
    payload = Buffer.from(JSON.stringify(options.body));
    headers['content-type'] ??= 'application/json';
  }
  if (payload) headers['content-length'] = String(payload.length);
  const url = new URL(path, server.baseUrl);
  const send = server.protocol === 'https' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let status: number | undefined;
    const chunks: Buffer[] = [];
    const req = send(
      url,
      // tls.connect() takes the cached secureContext; https.RequestOptions does not declare it.
      { method, headers, agent: false, timeout: options.timeoutMs ?? 10_000, ...({ secureContext: secureContextFor(server) } as object) },
      (res) => {
        status = res.statusCode;
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ ok: false, error, partial: Buffer.concat(chunks), status }));
        res.on('aborted', () =>
          resolve({
            ok: false,
            error: Object.assign(new Error('aborted'), { code: 'ECONNRESET' }),
            partial: Buffer.concat(chunks),
            status,
          }),
        );
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          resolve({ ok: true, reply: { status: res.statusCode ?? 0, headers: res.headers, text, body, json: () => JSON.parse(text) } });
        });
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ ok: false, error, partial: chunks.length ? Buffer.concat(chunks) : undefined, status }),
    );
    req.end(payload);
  });
}

/** A request that must get an answer. */
export async function call(server: MockServer, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const outcome = await attempt(server, method, path, options);
  if (!outcome.ok) throw new Error(`${method} ${path} failed: ${outcome.error.code ?? ''} ${outcome.error.message}`);
  return outcome.reply;
}

/** Start a mock for the tests of one file (HTTPS, free port, 60 records unless told). Any internal
 *  error (a 500: a bug in the mock) fails the file. */
export function useMock(options: MockServerOptions = {}): { readonly server: MockServer } {
  const holder = {} as { server: MockServer };
  const internalErrors: unknown[] = [];
  beforeAll(async () => {
    holder.server = await startMockServer({
      port: 0,
      records: 60,
      seed: 1,
      onInternalError: (error) => internalErrors.push(error),
      ...options,
    });
  });
  afterAll(async () => {
    await holder.server?.close();
    expect(internalErrors).toEqual([]);
  });
  return holder;
}

/** Create a key through the admin route (any scopes, past expiry allowed). */
export async function adminKey(
  server: MockServer,
  scopes: string[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; secret: string; prefix: string }> {
  const reply = await call(server, 'POST', '/__mock/keys', { body: { name: `test ${scopes.join(' ')}`, scopes, ...extra } });
  if (reply.status !== 201) throw new Error(`POST /__mock/keys answered ${reply.status}: ${reply.text}`);
  return reply.json();
}

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
