// startMockServer(): the stateful mock of the appraisal API over HTTPS (certificate generated at
// start) or plain HTTP. It owns a temp dir (CA file, uploads) that close() removes.
import { chmodSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_ROUTES } from './admin/admin-routes.js';
import { generateKeySecret, keyPrefixOf } from './auth/key-secret.js';
import { FaultQueue } from './faults/fault-queue.js';
import { Router } from './http/router.js';
import { MockOptionError, resolveOptions, type MockServerOptions } from './options.js';
import { PageCache } from './page-cache.js';
import { handleRequest } from './pipeline.js';
import { TokenBucketLimiter } from './rate-limit.js';
import { RequestLog } from './request-log.js';
import { OPENAPI_DOCUMENT } from './description/document.js';
import { routingFor } from './description/routing.js';
import { apiRoutes, standardFamilySeeds } from './routes.js';
import { FAMILIES } from '../model/families.js';
import { MockState } from './state/mock-state.js';
import { generateCertificate } from './tls-certificate.js';

export interface MockServer {
  /** e.g. https://127.0.0.1:4000 */
  baseUrl: string;
  protocol: 'http' | 'https';
  host: string;
  port: number;
  /** The CA certificate file to trust (HTTPS only). */
  caFile: string | undefined;
  caPem: string | undefined;
  /** The admin key's secret. */
  adminKey: string;
  /** The temp dir (CA file, uploads); removed by close(). */
  tempDir: string;
  /** The live state, for in-process tests. */
  state: MockState;
  /** Stop listening, drop every connection, remove the temp dir. Safe to call twice. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') reject(new MockOptionError(`port ${port} on ${host} is already in use`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(new MockOptionError(`cannot listen on host ${host}: ${error.message}`));
      else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const resolved = resolveOptions(options);
  if (resolved.adminKey !== undefined && !keyPrefixOf(resolved.adminKey)) {
    throw new MockOptionError('the admin key must look like apk_<8 letters/digits>_<32 letters/digits>');
  }
  const adminKey = resolved.adminKey ?? generateKeySecret();
  const tempDir = mkdtempSync(join(options.tmpRoot ?? tmpdir(), 'appraisal-mock-'));
  const uploadDir = join(tempDir, 'uploads');
  const sockets = new Set<Socket>();
  const shutdown = new AbortController();
  let server: Server | undefined;
  const cleanUp = () => rmSync(tempDir, { recursive: true, force: true });

  try {
    mkdirSync(uploadDir);
    const model = options.model ?? { families: FAMILIES, document: OPENAPI_DOCUMENT };
    const state = new MockState({
      records: resolved.records,
      seed: resolved.seed,
      adminSecret: adminKey,
      standard: standardFamilySeeds(model.families, model.document),
    });
    state.clock.startOffsetMs = resolved.clockOffsetMs;
    state.clock.setOffset(resolved.clockOffsetMs);
    const deps = {
      state,
      description: { current: routingFor(resolved.description, options.model && apiRoutes(model.families, model.document)) },
      adminRouter: new Router(ADMIN_ROUTES),
      faults: new FaultQueue(),
      limiter: resolved.rateLimit > 0 ? new TokenBucketLimiter(resolved.rateLimit) : undefined,
      log: new RequestLog(),
      logLine: options.log,
      onInternalError: options.onInternalError ?? (() => {}),
      latencyMs: resolved.latencyMs,
      uploadDir,
      maxUploadBytes: resolved.maxUploadBytes,
      signal: shutdown.signal,
      pages: options.prerender ? new PageCache(model.families) : undefined,
    };
    const onRequest = (req: IncomingMessage, res: ServerResponse) => void handleRequest(req, res, deps);

    let caFile: string | undefined;
    let caPem: string | undefined;
    if (resolved.http) {
      server = createHttpServer(onRequest);
    } else {
      const certificate = await generateCertificate([resolved.host]);
      caPem = certificate.caPem;
      caFile = join(tempDir, 'ca.pem');
      writeFileSync(caFile, caPem);
      // Public material: readable by anyone, whatever the umask.
      chmodSync(caFile, 0o644);
      server = createHttpsServer({ key: certificate.keyPem, cert: certificate.certPem }, onRequest);
    }
    server.keepAliveTimeout = 5_000;
    server.headersTimeout = 15_000;
    // Large uploads may take long; hung requests (the hang fault) must stay open until the client gives up.
    server.requestTimeout = 0;
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    server.on('clientError', (_error, socket: Socket) => {
      if (socket.writable && !socket.destroyed) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      else socket.destroy();
    });
    await listen(server, resolved.port, resolved.host);
    const port = (server.address() as AddressInfo).port;
    const protocol = resolved.http ? 'http' : 'https';
    const listening = server;

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= new Promise<void>((resolve) => {
        shutdown.abort();
        listening.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        listening.closeAllConnections();
      }).finally(cleanUp));

    return {
      baseUrl: `${protocol}://${urlHost(resolved.host)}:${port}`,
      protocol,
      host: resolved.host,
      port,
      caFile,
      caPem,
      adminKey,
      tempDir,
      state,
      close,
    };
  } catch (error) {
    server?.close();
    cleanUp();
    throw error;
  }
}
