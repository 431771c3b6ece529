// A small HTTP(S) server that breaks the rules on purpose, for tests of how the CLI copes with a
// service that does not behave (issue 14). It is NOT the mock: `appraisal mock` follows the contract
// and injects documented faults; this one answers whatever a test tells it to, including answers no
// real service should give (control sequences in messages, the key echoed back, endless bodies…).
//
// A test starts it on a free port, registers routes (method + path or RegExp → a Route that writes
// the raw response), runs the CLI against `server.url`, then reads `server.requests`: every request
// as it arrived (method, path with query, headers, body). Unmatched requests get a plain 404.
// Ready-made answers live in answers.ts; add new kinds there (huge bodies, endless streams, insane
// pagination) rather than here.
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface LoggedRequest {
  method: string;
  /** Path and query exactly as the client sent them (not normalised). */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Writes the whole answer to `res` (status, headers, body); may stream or never end (`res.req` is the raw request). */
export type Route = (req: LoggedRequest, res: ServerResponse) => void | Promise<void>;

/** A route that reads the request body itself (slowly, or not at all), then answers. */
export type StreamRoute = (req: IncomingMessage, res: ServerResponse) => void;

export interface HostileOptions {
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
  /** Interface to listen on; loopback by default. */
  host?: string;
}

export interface HostileServer {
  /** `http(s)://127.0.0.1:PORT` — a base URL for the CLI. */
  readonly url: string;
  readonly port: number;
  /** Every request received so far, in order. */
  readonly requests: LoggedRequest[];
  /** Answer `method` (or '*') on `path` (exact path without query, or a RegExp tested on path+query). Later routes win. */
  on(method: string, path: string | RegExp, route: Route): HostileServer;
  /** Like on(), but the route gets the request before its body was read (it is logged with an empty body). */
  onStream(method: string, path: string | RegExp, route: StreamRoute): HostileServer;
  /** Resolves once `count` requests have arrived (or rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Stop listening and destroy open connections (endless answers included). */
  close(): Promise<void>;
}

type Entry = { method: string; path: string | RegExp } & ({ streams: false; route: Route } | { streams: true; route: StreamRoute });

function matches(entry: Entry, method: string, path: string): boolean {
  if (entry.method !== '*' && entry.method.toUpperCase() !== method.toUpperCase()) return false;
  if (typeof entry.path === 'string') return entry.path === (path.split('?')[0] ?? path);
  return entry.path.test(path);
}

function notFound(_req: LoggedRequest, res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'no route in the hostile test server' } }));
}

export async function startHostile(options: HostileOptions = {}): Promise<HostileServer> {
  const entries: Entry[] = [];
  const requests: LoggedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();

  const handle = (raw: IncomingMessage, res: ServerResponse): void => {
    // Later routes win, whichever kind: a streaming one gets the request before its body is read.
    const entry = [...entries].reverse().find((candidate) => matches(candidate, raw.method ?? 'GET', raw.url ?? '/'));
    if (entry?.streams) {
      requests.push({ method: raw.method ?? 'GET', path: raw.url ?? '/', headers: raw.headers, body: Buffer.alloc(0) });
      for (const wake of waiters) wake();
      entry.route(raw, res);
      return;
    }
    const route = entry?.route ?? notFound;
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const logged: LoggedRequest = {
        method: raw.method ?? 'GET',
        path: raw.url ?? '/',
        headers: raw.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(logged);
      for (const wake of waiters) wake();
      Promise.resolve(route(logged, res)).catch((error: unknown) => {
        // A broken route is a broken test: answer 599 so the failure is visible, never hang.
        if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(`hostile route failed: ${String(error)}`);
      });
    });
  };

  const server: Server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handle)
    : createHttpServer(handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;

  const hostile: HostileServer = {
    url: `${options.tls ? 'https' : 'http'}://${shownHost}:${port}`,
    port,
    requests,
    on(method, path, route) {
      entries.push({ method, path, streams: false, route });
      return hostile;
    },
    onStream(method, path, route) {
      entries.push({ method, path, streams: true, route });
      return hostile;
    },
    waitForRequests(count, timeoutMs = 20_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} requests, got ${requests.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return hostile;
}
