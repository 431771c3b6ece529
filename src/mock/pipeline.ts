// One request, start to finish:
//   request id → log entry → (/__mock/: admin routes) → latency → fault (header or queue) →
//   route → authentication (401) → rate limit (429) → scope (403) → handler → response faults → write.
// Nothing a client sends can crash it: every failure becomes an error body, unexpected ones a 500.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { authorizeAdmin } from './admin/admin-auth.js';
import type { AdminRoute } from './admin/admin-context.js';
import { authenticate, credentialOf } from './auth/authenticate.js';
import { keyPrefixOf } from './auth/key-secret.js';
import { isAllowed, scopesAllowing } from './auth/scopes.js';
import type { FaultQueue } from './faults/fault-queue.js';
import { changesResponse, FaultSyntaxError, parseFault, type Fault } from './faults/fault-syntax.js';
import { applyResponseFault } from './faults/response-faults.js';
import { errorResponse } from './http/error-response.js';
import { codeForStatus, MockHttpError } from './http/http-error.js';
import type { MockResponse } from './http/mock-response.js';
import type { Router } from './http/router.js';
import type { DescriptionRouting } from './description/routing.js';
import { killConnection, writeResponse, type TransportFault } from './http/write-response.js';
import type { TokenBucketLimiter } from './rate-limit.js';
import { formatLogLine, loggableQuery, type RequestLog, type RequestLogEntry } from './request-log.js';
import type { PageCache } from './page-cache.js';
import type { MockState } from './state/mock-state.js';
import type { ApiKeyRecord } from './state/records.js';

export interface PipelineDeps {
  state: MockState;
  /** The description variant in use and its routes; switchable by POST /__mock/description. */
  description: { current: DescriptionRouting };
  adminRouter: Router<AdminRoute>;
  faults: FaultQueue;
  limiter: TokenBucketLimiter | undefined;
  log: RequestLog;
  /** Called with one line per finished request (--log). */
  logLine: ((line: string) => void) | undefined;
  /** Called with unexpected errors (bugs), which are answered with a 500. */
  onInternalError: (error: unknown) => void;
  latencyMs: number;
  uploadDir: string;
  maxUploadBytes: number;
  /** Aborted when the server shuts down: pending latency waits end at once. */
  signal: AbortSignal;
  /** --prerender: collection pages served from their cached bytes. */
  pages?: PageCache | undefined;
}

function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}

function startLogEntry(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string, deps: PipelineDeps): RequestLogEntry {
  const secret = credentialOf(req.headers);
  const entry = deps.log.add({
    at: new Date().toISOString(),
    requestId,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: loggableQuery(url.searchParams),
    status: null,
    keyPrefix: secret === undefined ? null : (keyPrefixOf(secret) ?? null),
    fault: null,
    durationMs: null,
  });
  const started = performance.now();
  res.once('close', () => {
    entry.status = res.headersSent ? res.statusCode : 0;
    entry.durationMs = Math.round(performance.now() - started);
    deps.logLine?.(formatLogLine(entry));
  });
  return entry;
}

function faultFor(req: IncomingMessage, method: string, url: URL, deps: PipelineDeps): { fault: Fault; text: string } | undefined {
  const header = req.headers['x-mock-fault'];
  const text = Array.isArray(header) ? header[0] : header;
  if (text !== undefined && text.trim() !== '') {
    try {
      return { fault: parseFault(text), text: text.trim() };
    } catch (error) {
      if (error instanceof FaultSyntaxError) throw new MockHttpError(400, 'INVALID_FAULT', `x-mock-fault: ${error.message}`);
      throw error;
    }
  }
  return deps.faults.take(method, url.pathname, url.searchParams);
}

function statusFault(fault: Extract<Fault, { kind: 'status' }>): MockHttpError {
  const headers: Record<string, string> = {};
  if (fault.retryAfter === 'date') headers['retry-after'] = new Date(Date.now() + 2000).toUTCString();
  else if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  return new MockHttpError(fault.status, codeForStatus(fault.status), `injected fault: status ${fault.status}`, { headers });
}

async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  requestId: string,
  entry: RequestLogEntry,
  deps: PipelineDeps,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  let transport: TransportFault | undefined;
  let responseFault: Fault | undefined;
  let response: MockResponse;
  deps.pages?.invalidate(method);
  try {
    if (deps.latencyMs > 0) await sleep(deps.latencyMs, undefined, { signal: deps.signal });
    const injected = faultFor(req, method, url, deps);
    if (injected) {
      entry.fault = injected.text;
      const { fault } = injected;
      if (fault.kind === 'reset') return killConnection(req.socket);
      if (fault.kind === 'hang') return;
      if (fault.kind === 'status') throw statusFault(fault);
      if (fault.kind === 'delay') await sleep(fault.ms, undefined, { signal: deps.signal });
      if (fault.kind === 'hold') await deps.faults.hold(deps.signal);
      if (fault.kind === 'truncate' || fault.kind === 'reset-mid-body') transport = fault.kind;
      if (changesResponse(fault)) responseFault = fault;
    }
    response = await routeApi(req, url, method, requestId, entry, deps, injected === undefined ? deps.pages : undefined);
    // The request took effect (a create is committed); its answer never reaches the client.
    if (injected?.fault.kind === 'lost-answer') return killConnection(req.socket);
  } catch (error) {
    if (deps.signal.aborted) return;
    response = failure(error, requestId, deps);
  }
  if (responseFault) response = applyResponseFault(response, responseFault);
  send(res, response, transport);
}

async function routeApi(
  req: IncomingMessage,
  url: URL,
  method: string,
  requestId: string,
  entry: RequestLogEntry,
  deps: PipelineDeps,
  pages: PageCache | undefined,
): Promise<MockResponse> {
  const match = deps.description.current.router.match(method, url.pathname);
  if (match.kind === 'not-found') throw new MockHttpError(404, 'NOT_FOUND', `no route ${method} ${url.pathname}`);
  if (match.kind === 'method-not-allowed') {
    throw new MockHttpError(
      405,
      'METHOD_NOT_ALLOWED',
      `${method} is not allowed on ${url.pathname} (allowed: ${match.allowed.join(', ')})`,
      {
        headers: { allow: match.allowed.join(', ') },
      },
    );
  }
  const { route, params } = match;
  const state = deps.state;
  let key: ApiKeyRecord | undefined;
  if (route.access !== 'public') {
    key = authenticate(req.headers, state.keys, state.clock.wallMs());
    entry.keyPrefix = key.prefix;
    const decision = deps.limiter?.take(key.id, Date.now());
    if (decision && !decision.allowed) {
      throw new MockHttpError(
        429,
        'RATE_LIMITED',
        `rate limit of ${deps.limiter!.perSecond} requests per second exceeded; retry in ${decision.retryAfterSeconds} s`,
        {
          headers: { 'retry-after': String(decision.retryAfterSeconds) },
        },
      );
    }
    if (route.access !== 'any-key' && !isAllowed(key.scopes, route.access)) {
      throw new MockHttpError(
        403,
        'INSUFFICIENT_SCOPE',
        `${method} ${route.path} requires one of: ${scopesAllowing(route.access).join(', ')} (key ${key.prefix} has: ${key.scopes.join(', ') || 'no scopes'})`,
      );
    }
  }
  const cached = pages?.lookup(method, url.pathname, url.search);
  if (cached) return cached;
  const response = await route.handler({
    method,
    path: url.pathname,
    params,
    query: url.searchParams,
    req,
    requestId,
    state,
    key,
    uploadDir: deps.uploadDir,
    maxUploadBytes: deps.maxUploadBytes,
  });
  return pages ? pages.store(method, url.pathname, url.search, response) : response;
}

async function handleAdmin(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  requestId: string,
  entry: RequestLogEntry,
  deps: PipelineDeps,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  let response: MockResponse;
  deps.pages?.invalidate(method);
  try {
    const match = deps.adminRouter.match(method, url.pathname);
    if (match.kind === 'not-found') throw new MockHttpError(404, 'NOT_FOUND', `no admin route ${method} ${url.pathname}`);
    if (match.kind === 'method-not-allowed') {
      throw new MockHttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}`, {
        headers: { allow: match.allowed.join(', ') },
      });
    }
    entry.keyPrefix = authorizeAdmin(req.headers, deps.state, deps.state.clock.wallMs());
    response = await match.route.handler({
      req,
      params: match.params,
      query: url.searchParams,
      state: deps.state,
      faults: deps.faults,
      log: deps.log,
      limiter: deps.limiter,
      description: deps.description,
    });
  } catch (error) {
    response = failure(error, requestId, deps);
  }
  send(res, response);
}

function failure(error: unknown, requestId: string, deps: PipelineDeps): MockResponse {
  if (error instanceof MockHttpError) return errorResponse(error, requestId);
  deps.onInternalError(error);
  return errorResponse(new MockHttpError(500, 'INTERNAL_ERROR', 'the mock failed unexpectedly (this is a bug in the mock)'), requestId);
}

function send(res: ServerResponse, response: MockResponse, transport?: TransportFault): void {
  if (res.headersSent || res.destroyed || res.socket?.destroyed) return;
  writeResponse(res, response, transport);
}

export async function handleRequest(req: IncomingMessage, res: ServerResponse, deps: PipelineDeps): Promise<void> {
  req.on('error', () => {});
  res.on('error', () => {});
  const requestId = newRequestId();
  res.setHeader('x-request-id', requestId);
  // A clock set off by POST /__mock/clock shows in the Date header (else Node writes the right one).
  if (deps.state.clock.offsetMs !== 0) res.setHeader('date', new Date(deps.state.clock.wallMs()).toUTCString());
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://mock.invalid');
  } catch {
    return send(res, errorResponse(new MockHttpError(400, 'BAD_REQUEST', 'malformed request target'), requestId));
  }
  const entry = startLogEntry(req, res, url, requestId, deps);
  try {
    if (url.pathname === '/__mock' || url.pathname.startsWith('/__mock/')) return await handleAdmin(req, res, url, requestId, entry, deps);
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      const link = deps.description.current.link;
      if (link) res.setHeader('link', link);
      return await handleApi(req, res, url, requestId, entry, deps);
    }
    send(
      res,
      errorResponse(new MockHttpError(404, 'NOT_FOUND', `no route ${req.method} ${url.pathname} (the API is under /api)`), requestId),
    );
  } catch (error) {
    send(res, failure(error, requestId, deps));
  }
}
