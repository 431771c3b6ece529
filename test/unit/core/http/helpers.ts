// Real local servers on port 0 and a client wired to them, for the HTTP core tests.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { ApiClient } from '../../../../src/core/api-client.js';
import type { IO } from '../../../../src/core/io.js';
import type { ClientSettings } from '../../../../src/core/api-client.js';
import { createApiClient } from '../../../../src/core/http/undici-api-client.js';
import { fakeContext } from '../../../helpers/fake-context.js';

export const KEY = 'apk_abcd1234_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe';
export const PREFIX = 'apk_abcd1234';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

export interface TestServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  server: Server;
  close(): Promise<void>;
}

export interface ServerOptions {
  tls?: { key: string; cert: string };
  /** Hand the request stream to the handler unread (body is then empty). */
  raw?: boolean;
  host?: string;
}

export async function startServer(handler: Handler, options: ServerOptions = {}): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => {
      let body = Buffer.alloc(0);
      if (!options.raw) {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        body = Buffer.concat(chunks);
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      try {
        await handler(req, res, body);
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      }
    })();
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, listener) : createHttpServer(listener);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const scheme = options.tls ? 'https' : 'http';
  return {
    url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    requests,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export interface FakeIO {
  io: IO;
  stderr(): string;
}

export function fakeIO(options: { verbose?: boolean; quiet?: boolean } = {}): FakeIO {
  const fake = fakeContext({ globals: { verbose: options.verbose ?? false, quiet: options.quiet ?? false, noInput: true } });
  return { io: fake.io, stderr: fake.stderr };
}

export interface TestClient {
  client: ApiClient;
  io: FakeIO;
  abort: AbortController;
}

export function makeClient(
  baseUrl: string,
  overrides: Partial<ClientSettings> = {},
  ioOptions: { verbose?: boolean; quiet?: boolean } = {},
): TestClient {
  const io = fakeIO(ioOptions);
  const abort = new AbortController();
  const client = createApiClient({
    baseUrl,
    credential: { secret: KEY, prefix: PREFIX, source: 'keychain', kind: 'api-key' },
    profileName: 'staging',
    timeoutMs: 5_000,
    retries: 3,
    userAgent: 'appraisal-cli/9.9.9',
    io: io.io,
    env: { APPRAISAL_RETRY_BASE_MS: '1' },
    signal: abort.signal,
    ...overrides,
  });
  return { client, io, abort };
}

/** What a test file starts, closed after each test: `serve` is startServer, `client` makeClient. */
export interface ClosedAfterEach {
  serve(...args: Parameters<typeof startServer>): Promise<TestServer>;
  client(...args: Parameters<typeof makeClient>): TestClient;
}

/**
 * The servers and clients of one test file, closed after each test: the clients first (closing a
 * client waits for its connections), then the servers. Called once, at the top of the file.
 */
export function closedAfterEach(): ClosedAfterEach {
  const servers: TestServer[] = [];
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return {
    async serve(...args) {
      const server = await startServer(...args);
      servers.push(server);
      return server;
    },
    client(...args) {
      const made = makeClient(...args);
      closers.push(() => made.client.close());
      return made;
    },
  };
}

/** The rejection of a promise, failing the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}
