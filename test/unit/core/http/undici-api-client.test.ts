import { createServer as createNetServer, Socket as NetSocket, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ContractError,
  InterruptedError,
  MissingCredentialError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RejectedError,
  SafetyError,
  ServiceUnavailableError,
  UsageError,
} from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { waitFor } from '../../../helpers/wait.js';
import { KEY, PREFIX, closedAfterEach, json, makeClient, rejection } from './helpers.js';
import { holdSecret } from '../../../../src/core/credentials/credential.js';

const { serve, client } = closedAfterEach();

describe('request headers and trace', () => {
  it('sends x-api-key, user-agent and accept, and JSON bodies with content-type', async () => {
    const server = await serve((_req, res) => json(res, 200, { ok: true }));
    const { client: api } = client(server.url);
    const answer = await api.send('POST', '/api/properties', { name: 'A' });
    expect(answer).toEqual({ ok: true });
    const [seen] = server.requests;
    expect(seen?.headers['x-api-key']).toBe(KEY);
    expect(seen?.headers['user-agent']).toBe('appraisal-cli/9.9.9');
    expect(seen?.headers.accept).toBe('application/json');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers.authorization).toBeUndefined();
    expect(JSON.parse(seen?.body.toString() ?? '')).toEqual({ name: 'A' });
  });

  it('sends a bearer token in authorization instead', async () => {
    const server = await serve((_req, res) => json(res, 200, { id: '1' }));
    const token = 'tok_0123456789abcdefghijkl';
    const { client: api } = client(server.url, { credential: { secret: token, prefix: 'tok_', source: 'env', kind: 'bearer' } });
    await api.get('/api/keys/current');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(server.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('sends no credential with auth: false, and exposes the credential without its secret', async () => {
    const server = await serve((_req, res) => json(res, 200, {}));
    const { client: api } = client(server.url);
    await api.request({ method: 'GET', path: '/api/openapi.json', auth: false });
    expect(server.requests[0]?.headers['x-api-key']).toBeUndefined();
    expect(api.credential).toEqual({ prefix: PREFIX, source: 'keychain', kind: 'api-key' });
    expect(JSON.stringify(api.credential)).not.toContain(KEY);
  });

  it('builds the URL from base path, path and query (arrays repeated, undefined skipped)', async () => {
    const server = await serve((_req, res) => json(res, 200, {}));
    const { client: api } = client(`${server.url}/prefix/`);
    await api.get('/api/properties?q=a b', { status: ['x', 'y'], page: 2, skip: undefined, on: true });
    expect(server.requests[0]?.url).toBe('/prefix/api/properties?q=a+b&status=x&status=y&page=2&on=true');
  });

  it('traces requests under --verbose with the key prefix only', async () => {
    const server = await serve((_req, res) => json(res, 200, { ok: 1 }, { 'x-request-id': 'req_42' }));
    const { client: api, io } = client(server.url, {}, { verbose: true });
    await api.get('/api/properties', { page: 2, limit: 100 });
    const err = io.stderr();
    expect(err).toContain(`> GET ${server.url}/api/properties?page=2&limit=100`);
    expect(err).toContain(`> x-api-key: ${PREFIX}…`);
    expect(err).toMatch(/< 200 OK \(\d+ ms, request id req_42\)/);
    expect(err).not.toContain(KEY);
    expect(err).not.toContain(KEY.slice(PREFIX.length + 1));
  });

  it('registers the secret with the redactor', () => {
    const { io } = client('https://localhost:4000');
    expect(io.io.redactor.redact(`x ${KEY} y`)).not.toContain(KEY);
  });

  it('keeps connections alive across requests', async () => {
    const server = await serve((_req, res) => json(res, 200, {}));
    const sockets = new Set<Socket>();
    server.server.on('connection', (socket: Socket) => sockets.add(socket));
    const { client: api } = client(server.url);
    for (let i = 0; i < 6; i++) await api.get('/api/properties');
    // undici may open a second connection while the first is being released; never one per request.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });
});

describe('refusals before any request', () => {
  it('refuses a credential over plain http to a non-loopback host (exit 10)', async () => {
    const { client: api } = client('http://example.invalid');
    const error = await rejection(api.get('/api/properties'));
    expect(error).toBeInstanceOf(SafetyError);
    expect(exitCodeFor(error)).toBe(10);
    expect(error.message).toContain('example.invalid');
  });

  it.each(['http://localhost:1', 'http://127.0.0.5:1', 'http://[::1]:1'])('allows plain http to loopback %s', async (base) => {
    const { client: api } = client(base, { retries: 0 });
    const error = await rejection(api.get('/api/properties'));
    expect(error).toBeInstanceOf(NetworkError);
  });

  it.each([
    ['/api/properties?api_key=abc', 'api_key'],
    ['/api/properties?apiKey=abc', 'apiKey'],
    ['/api/properties?token=abc', 'token'],
    ['/api/properties?access_token=abc', 'access_token'],
    ['/api/properties?x-api-key=abc', 'x-api-key'],
    ['/api/properties?key=abc', 'key'],
  ])('refuses a credential-named query parameter: %s', async (path, name) => {
    const server = await serve((_req, res) => json(res, 200, {}));
    const { client: api } = client(server.url);
    const error = await rejection(api.get(path));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain(name);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a key-shaped value or the secret anywhere in the URL', async () => {
    const server = await serve((_req, res) => json(res, 200, {}));
    const { client: api } = client(server.url);
    for (const [path, query] of [
      ['/api/properties', { q: 'apk_zzzzzzzz_abcdefghijklmnop' }],
      ['/api/properties', { q: KEY }],
      [`/api/files/${KEY}`, {}],
    ] as const) {
      const error = await rejection(api.get(path, query));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).not.toContain(KEY);
    }
    const other = client(server.url, { credential: { secret: 'plain-secret-token-123', prefix: 'plai', source: 'env', kind: 'bearer' } });
    expect(await rejection(other.client.get('/api/x', { q: 'plain-secret-token-123' }))).toBeInstanceOf(UsageError);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses credential headers passed by hand', async () => {
    const server = await serve((_req, res) => json(res, 200, {}));
    const { client: api } = client(server.url);
    const error = await rejection(api.request({ method: 'GET', path: '/api/x', headers: { 'X-Api-Key': 'other' } }));
    expect(error).toBeInstanceOf(UsageError);
    expect(server.requests).toHaveLength(0);
  });

  it('fails with MissingCredentialError (exit 4) when no credential is configured', async () => {
    const server = await serve((_req, res) => json(res, 200, {}));
    const { client: api } = client(server.url, { credential: undefined, profileName: 'ci' });
    const error = await rejection(api.get('/api/properties'));
    expect(error).toBeInstanceOf(MissingCredentialError);
    expect(exitCodeFor(error)).toBe(4);
    expect(error.message).toContain('"ci"');
    expect((error as MissingCredentialError).hint).toContain('appraisal auth login');
    expect((error as MissingCredentialError).hint).toContain('APPRAISAL_API_KEY');
    expect(server.requests).toHaveLength(0);
  });

  it('rejects a base URL that is not http(s) or carries user info', () => {
    expect(() => makeClient('ftp://host')).toThrow(UsageError);
    expect(() => makeClient('https://user:pw@host')).toThrow(UsageError);
    expect(() => makeClient('not a url')).toThrow(UsageError);
  });
});

describe('status → error', () => {
  it.each([
    [400, RejectedError, 7],
    [401, AuthenticationError, 4],
    [403, PermissionError, 5],
    [404, NotFoundError, 6],
    [409, RejectedError, 7],
    [410, RejectedError, 7],
    [422, RejectedError, 7],
    [429, ServiceUnavailableError, 8],
    [500, ServiceUnavailableError, 8],
    [503, ServiceUnavailableError, 8],
  ])('%i → %o', async (status, errorClass, exit) => {
    const server = await serve((_req, res) => json(res, status, { error: { code: 'X', message: 'nope', requestId: 'r1' } }));
    const { client: api } = client(server.url, { retries: 0 });
    const error = await rejection(api.get('/api/properties/abc'));
    expect(error).toBeInstanceOf(errorClass);
    expect(exitCodeFor(error)).toBe(exit);
    expect(error).toMatchObject({
      status,
      method: 'GET',
      path: '/api/properties/abc',
      requestId: 'r1',
      serviceCode: 'X',
      serviceMessage: 'nope',
    });
  });

  it('formats other errors on one line with the service message and request id', async () => {
    const server = await serve((_req, res) =>
      json(res, 404, { error: { code: 'NOT_FOUND', message: 'Property not found', requestId: 'req_9' } }),
    );
    const { client: api } = client(server.url);
    const error = await rejection(api.get('/api/properties/ID'));
    expect(error.message).toBe('GET /api/properties/ID: 404 Not Found — Property not found (request id req_9)');
  });

  it.each([
    ['empty', '', 'text/plain', 'GET /api/x: 422 Unprocessable Entity (request id hdr_1)'],
    ['html', '<html><body>Bad gateway</body></html>', 'text/html', 'GET /api/x: 422 Unprocessable Entity (request id hdr_1)'],
    [
      'plain text',
      'field name is required\nmore',
      'text/plain',
      'GET /api/x: 422 Unprocessable Entity — field name is required (request id hdr_1)',
    ],
    ['broken JSON', '{"error": ', 'application/json', 'GET /api/x: 422 Unprocessable Entity (request id hdr_1)'],
    [
      '{message}',
      '{"message":"name too long"}',
      'application/json',
      'GET /api/x: 422 Unprocessable Entity — name too long (request id hdr_1)',
    ],
    [
      '{error: string}',
      '{"error":"name too long"}',
      'application/json',
      'GET /api/x: 422 Unprocessable Entity — name too long (request id hdr_1)',
    ],
    ['array', '[1,2]', 'application/json', 'GET /api/x: 422 Unprocessable Entity (request id hdr_1)'],
    [
      'problem+json',
      '{"title":"Invalid","detail":"bad date"}',
      'application/problem+json',
      'GET /api/x: 422 Unprocessable Entity — bad date (request id hdr_1)',
    ],
  ])('reads a %s error body tolerantly', async (_name, body, type, expected) => {
    const server = await serve((_req, res) => {
      res.writeHead(422, { 'content-type': type, 'x-request-id': 'hdr_1' });
      res.end(body);
    });
    const { client: api } = client(server.url);
    const error = await rejection(api.get('/api/x'));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toBe(expected);
  });

  it('401 names profile, key prefix, source, method, path, service message, request id, and the next step', async () => {
    const server = await serve((_req, res) =>
      json(res, 401, { error: { code: 'UNAUTHORIZED', message: 'API key revoked', requestId: 'req_401' } }),
    );
    const { client: api } = client(server.url);
    const error = (await rejection(api.get('/api/properties'))) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    for (const part of ['GET /api/properties', '401', PREFIX, '"staging"', 'keychain', 'API key revoked', 'req_401']) {
      expect(error.message).toContain(part);
    }
    expect(error.hint).toContain('appraisal auth login --profile staging');
    expect(`${error.message} ${error.hint}`).not.toContain(KEY);
  });

  it('401 with a key from the environment points at APPRAISAL_API_KEY', async () => {
    const server = await serve((_req, res) => json(res, 401, {}));
    const { client: api } = client(server.url, { credential: { secret: KEY, prefix: PREFIX, source: 'env', kind: 'api-key' } });
    const error = (await rejection(api.get('/api/properties'))) as AuthenticationError;
    expect(error.message).toContain('from APPRAISAL_API_KEY');
    expect(error.hint).toContain('check APPRAISAL_API_KEY');
  });

  it('403 names the scope the service said it needs', async () => {
    const server = await serve((_req, res) =>
      json(res, 403, { error: { code: 'FORBIDDEN', message: 'requires one of: properties:write, api:write', requestId: 'req_403' } }),
    );
    const { client: api } = client(server.url);
    const error = (await rejection(api.send('POST', '/api/properties', {}))) as PermissionError;
    expect(error).toBeInstanceOf(PermissionError);
    for (const part of ['POST /api/properties', '403', PREFIX, '"staging"', 'req_403']) expect(error.message).toContain(part);
    expect(error.hint).toContain('properties:write or api:write');
    expect(error.hint).toContain('appraisal auth login --profile staging');
    expect(`${error.message} ${error.hint}`).not.toContain(KEY);
  });

  it('403 reads details.requiredScopes', async () => {
    const server = await serve((_req, res) =>
      json(res, 403, { error: { code: 'FORBIDDEN', message: 'Forbidden', details: { requiredScopes: ['files:delete', 'api:delete'] } } }),
    );
    const { client: api } = client(server.url);
    const error = (await rejection(api.send('DELETE', '/api/files/1'))) as PermissionError;
    expect(error.hint).toContain('files:delete or api:delete');
  });

  it.each([
    ['GET', '/api/contacts/1', 'clients:read or api:read'],
    ['PATCH', '/api/assignments/1', 'assignments:write or api:write'],
    ['PUT', '/api/assignments/1/properties/2', 'assignments:write or api:write'],
    ['DELETE', '/api/properties/1', 'properties:delete or api:delete'],
    ['POST', '/api/keys', 'keys:admin or api:admin'],
    ['GET', '/api/reference/enums', 'reference:read or api:read'],
  ] as const)('403 without scope details derives the scope from %s %s', async (method, path, scopes) => {
    const server = await serve((_req, res) => json(res, 403, { error: { message: 'Forbidden' } }));
    const { client: api } = client(server.url, { retries: 0 });
    const error = (await rejection(api.request({ method, path }))) as PermissionError;
    expect(error.hint).toContain(scopes);
  });

  it('turns a 2xx body that is not JSON into ContractError (exit 9)', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login page</html>');
    });
    const { client: api } = client(server.url);
    const error = await rejection(api.get('/api/properties/1'));
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain('the service answered with a body that is not JSON');
  });

  it('does not follow redirects', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(301, { location: 'https://elsewhere.example/api/x' });
      res.end();
    });
    const { client: api } = client(server.url);
    const error = await rejection(api.get('/api/x'));
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain('redirects are not followed');
    expect(server.requests).toHaveLength(1);
  });
});

describe('envelopes of get/send', () => {
  it('unwraps {success: true, data}', async () => {
    const server = await serve((_req, res) => json(res, 200, { success: true, data: { propertyTypes: ['office'] } }));
    const { client: api } = client(server.url);
    expect(await api.get('/api/reference/enums')).toEqual({ propertyTypes: ['office'] });
  });

  it('returns plain bodies unchanged and undefined for 204', async () => {
    const server = await serve((req, res) => {
      if (req.method === 'DELETE') {
        res.writeHead(204);
        res.end();
      } else json(res, 200, { id: '1', success: 'yes' });
    });
    const { client: api } = client(server.url);
    expect(await api.get('/api/properties/1')).toEqual({ id: '1', success: 'yes' });
    expect(await api.send('DELETE', '/api/properties/1')).toBeUndefined();
  });

  it('turns {success: false} on a 2xx into ContractError', async () => {
    const server = await serve((_req, res) => json(res, 200, { success: false, error: { message: 'could not attach' } }));
    const { client: api } = client(server.url);
    const error = await rejection(api.send('POST', '/api/files/1/attachments', {}));
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain('could not attach');
  });

  it('request() returns status, headers, body and request id', async () => {
    const server = await serve((_req, res) => json(res, 201, { id: 'n' }, { 'x-request-id': 'rid' }));
    const { client: api } = client(server.url);
    const response = await api.request({ method: 'POST', path: '/api/properties', body: {} });
    expect(response).toMatchObject({ status: 201, body: { id: 'n' }, requestId: 'rid' });
    expect(response.headers['content-type']).toBe('application/json');
  });
});

describe('retries', () => {
  it('retries a GET on 503 and 502 with backoff, then succeeds; notices only under --verbose', async () => {
    let calls = 0;
    const server = await serve((_req, res) => {
      calls++;
      if (calls === 1) json(res, 503, { error: { message: 'busy' } });
      else if (calls === 2) json(res, 502, {});
      else json(res, 200, { id: 'ok' });
    });
    const quiet = client(server.url);
    expect(await quiet.client.get('/api/properties/1')).toEqual({ id: 'ok' });
    expect(calls).toBe(3);
    expect(quiet.io.stderr()).toBe('');

    calls = 0;
    const loud = client(server.url, {}, { verbose: true });
    await loud.client.get('/api/properties/1');
    expect(loud.io.stderr()).toMatch(/retrying GET \/api\/properties\/1 after 503 \(attempt 2\/4\) in \d+\.\ds/);
    expect(loud.io.stderr()).toMatch(/after 502 \(attempt 3\/4\)/);
  });

  it('honours Retry-After in seconds', async () => {
    let calls = 0;
    const server = await serve((_req, res) => {
      calls++;
      if (calls === 1) json(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '1' });
      else json(res, 200, { id: 'ok' });
    });
    const { client: api } = client(server.url);
    const started = Date.now();
    await api.get('/api/properties/1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(calls).toBe(2);
  });

  it('honours Retry-After as an HTTP-date', async () => {
    let calls = 0;
    const server = await serve((_req, res) => {
      calls++;
      if (calls === 1) json(res, 503, {}, { 'retry-after': new Date(Date.now() + 1500).toUTCString() });
      else json(res, 200, { id: 'ok' });
    });
    const { client: api } = client(server.url);
    const started = Date.now();
    await api.get('/api/properties/1');
    // HTTP dates have whole seconds: the wait is between 0.5 s and 1.5 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(calls).toBe(2);
  });

  it('never retries a POST or PATCH', async () => {
    const server = await serve((_req, res) => json(res, 503, {}));
    const { client: api } = client(server.url);
    const error = (await rejection(api.send('POST', '/api/properties', {}))) as ServiceUnavailableError;
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.hint).toContain('not retried');
    await rejection(api.send('PATCH', '/api/properties/1', {}));
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after the retry budget with ServiceUnavailableError (exit 8)', async () => {
    const server = await serve((_req, res) => json(res, 503, { error: { message: 'down' } }));
    const { client: api } = client(server.url, { retries: 2 });
    const error = (await rejection(api.get('/api/properties'))) as ServiceUnavailableError;
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(exitCodeFor(error)).toBe(8);
    expect(error.hint).toContain('3 attempts');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry 500 or 4xx', async () => {
    const server = await serve((_req, res) => json(res, 500, {}));
    const { client: api } = client(server.url);
    await rejection(api.get('/api/properties'));
    expect(server.requests).toHaveLength(1);
  });

  it('retries a dropped connection for a GET', async () => {
    let calls = 0;
    const server = await serve((req, res) => {
      calls++;
      if (calls < 3) req.socket.destroy();
      else json(res, 200, { id: 'ok' });
    });
    const { client: api } = client(server.url);
    expect(await api.get('/api/properties/1')).toEqual({ id: 'ok' });
    expect(calls).toBe(3);
  });

  it('treats a truncated body as a network error, retried, and names it', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"id": "trunc', () => res.socket?.destroy());
    });
    const { client: api } = client(server.url, { retries: 1 });
    const error = await rejection(api.get('/api/properties/1'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/closed before the whole response arrived \(got 13 of 100 bytes\)/);
    expect(server.requests).toHaveLength(2);
  });

  it('maps connection refused to NetworkError (exit 3) after retries', async () => {
    const probe = createNetServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { client: api } = client(`http://127.0.0.1:${port}`, { retries: 1 });
    const error = await rejection(api.get('/api/properties'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(exitCodeFor(error)).toBe(3);
    expect(error.message).toContain('connection refused');
  });
});

describe('timeouts and interrupts', () => {
  it('times out a request that gets no answer → NetworkError', async () => {
    const server = await serve(() => undefined);
    const { client: api } = client(server.url, { timeoutMs: 200, retries: 0 });
    const started = Date.now();
    const error = await rejection(api.get('/api/properties'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('timed out after 200ms');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('aborting the process signal gives InterruptedError (exit 130), not a network error', async () => {
    const server = await serve(() => undefined);
    const { client: api, abort } = client(server.url);
    const pending = api.get('/api/properties');
    // Interrupted in flight: once the server holds the request.
    await waitFor(() => server.requests.length === 1, 'the request to reach the server');
    abort.abort();
    const error = await rejection(pending);
    expect(error).toBeInstanceOf(InterruptedError);
    expect(exitCodeFor(error)).toBe(130);
  });

  it('a request signal aborts too, and an abort during a retry wait interrupts it', async () => {
    const server = await serve((_req, res) => json(res, 503, {}, { 'retry-after': '30' }));
    const { client: api } = client(server.url);
    const controller = new AbortController();
    const pending = api.request({ method: 'GET', path: '/api/x', signal: controller.signal });
    // The first attempt has been answered 503 (retry in 30 s): the abort lands in or just before the wait.
    await waitFor(() => server.requests.length === 1, 'the first attempt to reach the server');
    controller.abort();
    const started = Date.now();
    expect(await rejection(pending)).toBeInstanceOf(InterruptedError);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('proxies', () => {
  it('goes through HTTP_PROXY from the given env, bypasses it for NO_PROXY hosts, and never proxies loopback targets', async () => {
    const target = await serve((_req, res) => json(res, 200, { id: 'via' }));
    const tunnels: string[] = [];
    const proxy = await serve((_req, res) => json(res, 500, {}));
    proxy.server.on('connect', (req, clientSocket: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      // Every host the proxy is asked for is this machine's test server.
      const port = (req.url ?? '').split(':').pop();
      const upstream = new NetSocket();
      upstream.connect(Number(port), '127.0.0.1', () => {
        clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(clientSocket);
        clientSocket.pipe(upstream);
      });
      upstream.on('error', () => clientSocket.destroy());
      clientSocket.on('error', () => upstream.destroy());
    });
    const env = { APPRAISAL_RETRY_BASE_MS: '1', HTTP_PROXY: proxy.url };
    // Plain http to another host is allowed only without a credential.
    const remote = `http://service.invalid:${target.port}`;
    const proxied = client(remote, { env, credential: undefined });
    expect((await proxied.client.request({ method: 'GET', path: '/api/x', auth: false })).body).toEqual({ id: 'via' });
    expect(tunnels).toEqual([`service.invalid:${target.port}`]);

    const bypass = client(remote, { env: { ...env, NO_PROXY: 'service.invalid' }, credential: undefined, retries: 0 });
    await expect(bypass.client.request({ method: 'GET', path: '/api/x', auth: false })).rejects.toThrow(/service\.invalid/);
    expect(tunnels).toHaveLength(1);

    // Loopback, with the credential: straight to this machine, never through the proxy.
    const local = client(target.url, { env });
    expect(await local.client.get('/api/x')).toEqual({ id: 'via' });
    expect(tunnels).toHaveLength(1);
  });
});

describe('withCredential and close', () => {
  it('uses another key, held (so registered for redaction) once by holdSecret, on the same settings', async () => {
    const server = await serve((_req, res) => json(res, 200, { id: 'me' }));
    const { client: api, io } = client(server.url);
    const other = 'apk_newkey99_AAAAbbbbCCCCddddEEEEffffGGGGhhhh';
    const rotated = api.withCredential(holdSecret(io.io, other, 'api-key-file'));
    await rotated.get('/api/keys/current');
    expect(server.requests[0]?.headers['x-api-key']).toBe(other);
    expect(rotated.credential).toEqual({ prefix: 'apk_newkey99', source: 'api-key-file', kind: 'api-key' });
    expect(io.io.redactor.redact(other)).not.toContain(other);
    await rotated.close();
    // The original still works: the derived client does not close the shared connections.
    expect(await api.get('/api/keys/current')).toEqual({ id: 'me' });
  });
});
