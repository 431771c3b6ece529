// core/http/outbound.ts against a receiver of our own on a free port: each attempt bounded by its own
// timeout (waiting for the answer, and draining a body that stalls after the status), cut by the
// caller's signal, and keep-alive connections for attempts one after another.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient, type OutboundClient } from '../../../../src/core/http/outbound.js';

type Script = (req: IncomingMessage, res: ServerResponse) => void;

let script: Script = (_req, res) => void res.writeHead(204).end();
const sockets = new Set<unknown>();
const bodies: string[] = [];
const server = createServer((req, res) => {
  sockets.add(req.socket);
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    bodies.push(body);
    script(req, res);
  });
});
let url: URL;
let client: OutboundClient;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?token=t`);
  client = createOutboundClient({ timeoutMs: 300 }, { env: {}, userAgent: 'appraisal-cli/test' });
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const open = () => new AbortController().signal;

describe('the outbound client', () => {
  it('posts the body with the headers given, over kept-alive connections', async () => {
    script = (req, res) => void res.writeHead(req.headers['x-n'] === '2' ? 503 : 204, { 'retry-after': '7' }).end();
    sockets.clear();
    bodies.length = 0;
    const first = await client.post(url, '{"n":1}', { 'content-type': 'application/json', 'x-n': '1' }, open());
    const second = await client.post(url, '{"n":2}', { 'content-type': 'application/json', 'x-n': '2' }, open());
    expect(first).toMatchObject({ kind: 'answer', status: 204 });
    expect(second).toEqual({ kind: 'answer', status: 503, retryAfterMs: 7_000, location: undefined });
    for (const n of [3, 4, 5, 6]) await client.post(url, `{"n":${n}}`, { 'x-n': String(n) }, open());
    expect(bodies).toEqual([1, 2, 3, 4, 5, 6].map((n) => `{"n":${n}}`));
    // Kept alive: undici's pool opens a second connection when the next request goes out before it
    // has seen the first one's end, and then takes turns between the two; never one per attempt.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it('a receiver that never answers: the attempt ends at its timeout, retryable', async () => {
    script = () => {};
    const started = Date.now();
    const answer = await client.post(url, '{}', {}, open());
    expect(answer).toMatchObject({ kind: 'failure', reason: 'timed out', retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a body that stalls after the status: the status is the answer, the drain cut at the timeout', async () => {
    script = (_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('x');
    };
    const started = Date.now();
    const answer = await client.post(url, '{}', {}, open());
    expect(answer).toMatchObject({ kind: 'answer', status: 200 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("the caller's signal cuts the attempt in flight with its reason", async () => {
    script = () => {};
    const caller = new AbortController();
    const reason = new Error('stopped');
    const attempt = client.post(url, '{}', {}, caller.signal);
    setTimeout(() => caller.abort(reason), 20);
    await expect(attempt).rejects.toBe(reason);
    const aborted = new AbortController();
    aborted.abort(reason);
    await expect(client.post(url, '{}', {}, aborted.signal)).rejects.toBe(reason);
  });

  it('HTTPS to a receiver that speaks plain HTTP: a TLS failure of the handshake kind, not retryable', async () => {
    const https = new URL(url);
    https.protocol = 'https:';
    const answer = await client.post(https, '{}', {}, open());
    expect(answer).toMatchObject({ kind: 'failure', reason: 'a TLS error', retryable: false, tls: 'handshake' });
    // A failure that is not TLS has no kind: what the watch retries rather than stops for.
    const refused = await client.post(new URL('http://127.0.0.1:9/'), '{}', {}, open());
    expect(refused).toMatchObject({ kind: 'failure', tls: undefined });
  });
});
