// One exchange with the service, with the guards, retries, timeouts and error mapping every request
// shares. JSON requests, pages, uploads and downloads differ only in how a 2xx answer is consumed,
// which the caller passes in as `onSuccess`.
// Over 300 lines because its steps (prepare, send, retry, map an answer to an error) are one sequence
// read top to bottom; each step is a small function here rather than a file of its own.
import { hrtime } from 'node:process';
import type { Dispatcher } from 'undici';
import type { AnswerObserver, ApiResponse, HttpMethod, Query, RequestOptions, RetryPolicy } from '../api-client.js';
import { AppError, ContractError, InterruptedError, MissingCredentialError, NetworkError, UsageError } from '../errors.js';
import type { CredentialInfo, ResolvedCredential } from '../credentials/credential.js';
import type { IO } from '../io.js';
import type { MinRate } from '../min-rate.js';
import { AttemptScope, type TimeoutMode } from './attempt-scope.js';
import { httpErrorFor, statusLine } from './http-errors.js';
import type { FailureSite } from './network-errors.js';
import {
  contentLengthOf,
  DeferredJson,
  discardBody,
  flattenHeaders,
  parseJsonBody,
  readJsonBytes,
  readText,
  type ResponseHeaders,
} from './response-body.js';
import { mayRetry, parseRetryAfter, RETRYABLE_STATUSES, retryDelay, sleep } from './retry.js';
import { traceRequest, traceResponse } from './trace.js';
import { assertNoCredentialHeaders, assertNoCredentialInUrl, assertSafeTransport, buildUrl } from './url-guard.js';

export interface TransportConfig {
  baseUrl: URL;
  profileName: string;
  /** The secret goes into one header and nowhere else. */
  credential: ResolvedCredential | undefined;
  timeoutMs: number;
  retry: RetryPolicy;
  userAgent: string;
  /** The most a 2xx JSON answer may hold (bytes received). */
  maxResponseBytes: number;
  /** The floor under the rate of an upload's or a download's bodies (--min-rate); unset, none. */
  minRate?: MinRate | undefined;
  io: IO;
  /** The process-wide abort (Ctrl-C). */
  signal: AbortSignal;
  dispatcher: Dispatcher;
  /** The proxy a URL is reached through, if any (failure messages name it). */
  proxyFor?: ((url: URL) => string | undefined) | undefined;
  /** Sees the headers of every answer, whatever its status (the description's service-desc Link). */
  onAnswer?: AnswerObserver | undefined;
}

export interface OutgoingBody {
  /** Produce the bytes for one attempt (a string can be sent again; chunks only once, each taken before the next is asked for). */
  open(): string | AsyncIterable<Uint8Array>;
  contentType: string;
  contentLength?: number | undefined;
}

export interface Outgoing {
  method: HttpMethod;
  path: string;
  query?: Query | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  body?: OutgoingBody | undefined;
  /** Send the credential. */
  auth: boolean;
  /** May be sent again after a 429/502/503/504 or a connection failure. */
  retry: boolean;
  signal?: AbortSignal | undefined;
  /**
   * 'exchange': the timeout bounds the whole exchange (JSON requests). 'idle': it bounds each wait
   * for bytes, so a long upload or download that keeps moving is not cut off; its bodies are held
   * to --min-rate instead, so one that trickles is.
   */
  timeout: TimeoutMode;
  /** This request's own timeout (shorter than the client's); unset, the client's. */
  timeoutMs?: number | undefined;
  accept?: string | undefined;
}

export interface Prepared {
  method: HttpMethod;
  url: URL;
  /** Path and query as sent: what messages show. */
  target: string;
  headers: Record<string, string>;
  /** The credential this request carries, if any (never the secret). */
  credential: CredentialInfo | undefined;
}

export interface SuccessContext {
  prepared: Prepared;
  headers: ResponseHeaders;
  scope: AttemptScope;
  site: FailureSite;
}

export type SuccessHandler<T> = (response: Dispatcher.ResponseData, context: SuccessContext) => Promise<T>;

type Outcome<T> =
  | { kind: 'done'; value: T }
  | { kind: 'status'; status: number; headers: ResponseHeaders; body: string; retryAfterMs: number | undefined }
  | { kind: 'failure'; error: AppError; retryable: boolean; reason: string };

/** A wait before a retry at least this long is announced on stderr even without --verbose. */
export const LONG_RETRY_WAIT_MS = 5_000;

/** Error bodies are for messages: read at most this much of one. */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * A connection failure of a request that is never retried (POST, PATCH): "try again" would be the
 * wrong advice, since the service may have carried it out before the answer was lost.
 */
function notRetried(outcome: Extract<Outcome<unknown>, { kind: 'failure' }>, method: string): AppError {
  // A GET sent once (the service description's) changed nothing: its own hint stands.
  if (method === 'GET' || method === 'HEAD') return outcome.error;
  if (!outcome.retryable || !(outcome.error instanceof NetworkError)) return outcome.error;
  return new NetworkError(outcome.error.message, {
    hint: `${method} is not retried automatically, and the service may have carried it out before the answer was lost: check whether it took effect before repeating it`,
    cause: outcome.error.cause,
  });
}

export class Transport {
  constructor(readonly config: TransportConfig) {}

  /** Everything checked before a byte is sent: URL, credential placement, transport safety. */
  prepare(out: Outgoing): Prepared {
    const { credential, profileName } = this.config;
    const url = buildUrl(this.config.baseUrl, out.path, out.query);
    assertNoCredentialInUrl(url, credential?.secret);
    if (out.headers) assertNoCredentialHeaders(out.headers, credential?.secret);
    const target = `${url.pathname}${url.search}`;
    if (out.auth && credential === undefined) {
      throw new MissingCredentialError(`no API key for profile "${profileName}": ${out.method} ${target} needs one`, {
        hint: 'run `appraisal auth login` to store a key, or set APPRAISAL_API_KEY (e.g. in CI)',
      });
    }
    const sent = out.auth ? credential : undefined;
    if (sent) assertSafeTransport(url);
    const headers: Record<string, string> = {
      'user-agent': this.config.userAgent,
      accept: out.accept ?? 'application/json',
    };
    for (const [name, value] of Object.entries(out.headers ?? {})) headers[name.toLowerCase()] = value;
    if (out.body) {
      headers['content-type'] = out.body.contentType;
      if (out.body.contentLength !== undefined) headers['content-length'] = String(out.body.contentLength);
    }
    if (sent) {
      if (sent.kind === 'bearer') headers.authorization = `Bearer ${sent.secret}`;
      else headers['x-api-key'] = sent.secret;
    }
    const info = sent ? { prefix: sent.prefix, source: sent.source, kind: sent.kind } : undefined;
    return { method: out.method, url, target, headers, credential: info };
  }

  /** Send with retries; a 2xx answer goes to onSuccess, anything else becomes the matching error. */
  async perform<T>(out: Outgoing, onSuccess: SuccessHandler<T>): Promise<T> {
    const prepared = this.prepare(out);
    const userSignals = out.signal ? [this.config.signal, out.signal] : [this.config.signal];
    const maxAttempts = out.retry ? this.config.retry.retries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(prepared, out, userSignals, onSuccess);
      if (outcome.kind === 'done') return outcome.value;
      const again = attempt < maxAttempts && (outcome.kind === 'status' ? RETRYABLE_STATUSES.has(outcome.status) : outcome.retryable);
      if (!again) {
        if (outcome.kind === 'failure') throw out.retry ? outcome.error : notRetried(outcome, prepared.method);
        throw this.statusError(prepared, outcome, attempt, out.retry);
      }
      const delay = retryDelay(attempt, this.config.retry, outcome.kind === 'status' ? outcome.retryAfterMs : undefined);
      this.noteRetry(prepared, outcome, attempt + 1, maxAttempts, delay);
      await sleep(delay, userSignals);
    }
  }

  /** A JSON request: the `request()` of ApiClient. */
  json<T>(options: RequestOptions): Promise<ApiResponse<T>> {
    return this.exchange(
      options,
      (bytes, status, headers, prepared) => parseJsonBody(bytes.toString('utf8'), status, headers, prepared) as T,
    );
  }

  /** A JSON request whose 2xx body is parsed only when used (pages fetched ahead of their consumer). */
  jsonDeferred(options: RequestOptions): Promise<ApiResponse<DeferredJson>> {
    return this.exchange(options, (bytes, status, headers, prepared) => new DeferredJson(bytes, status, headers, prepared));
  }

  private exchange<T>(
    options: RequestOptions,
    decode: (bytes: Buffer, status: number, headers: ResponseHeaders, prepared: Prepared) => T,
  ): Promise<ApiResponse<T>> {
    let body: OutgoingBody | undefined;
    if (options.body !== undefined) {
      let text: string;
      try {
        text = JSON.stringify(options.body);
      } catch (error) {
        throw new UsageError(`the request body cannot be sent as JSON: ${(error as Error).message}`);
      }
      body = { open: () => text, contentType: 'application/json' };
    }
    const out: Outgoing = {
      method: options.method,
      path: options.path,
      query: options.query,
      headers: options.headers,
      body,
      auth: options.auth !== false,
      retry: mayRetry(options.method, options.retry),
      signal: options.signal,
      timeout: 'exchange',
      timeoutMs: options.timeoutMs,
    };
    const maxBytes = Math.min(options.maxResponseBytes ?? Infinity, this.config.maxResponseBytes);
    return this.perform(out, async (response, { headers, prepared }) => {
      const bytes = await readJsonBytes(response.body, headers, maxBytes, prepared);
      return {
        status: response.statusCode,
        headers,
        body: decode(bytes, response.statusCode, headers, prepared),
        requestId: headers['x-request-id'],
      };
    });
  }

  private async attempt<T>(
    prepared: Prepared,
    out: Outgoing,
    userSignals: readonly AbortSignal[],
    onSuccess: SuccessHandler<T>,
  ): Promise<Outcome<T>> {
    if (userSignals.some((signal) => signal.aborted)) {
      return { kind: 'failure', error: new InterruptedError(), retryable: false, reason: 'interrupted' };
    }
    const { io, dispatcher } = this.config;
    const timeoutMs = Math.min(out.timeoutMs ?? Infinity, this.config.timeoutMs);
    const site: FailureSite = {
      method: prepared.method,
      path: prepared.target,
      origin: prepared.url.origin,
      timeoutMs,
      proxy: this.config.proxyFor?.(prepared.url),
    };
    const scope = new AttemptScope(userSignals, timeoutMs, out.timeout, out.timeout === 'idle' ? this.config.minRate : undefined);
    const started = hrtime.bigint();
    traceRequest(io, prepared.method, prepared.url, prepared.headers, prepared.credential);
    let response: Dispatcher.ResponseData | undefined;
    try {
      response = await dispatcher.request({
        origin: prepared.url.origin,
        path: `${prepared.url.pathname}${prepared.url.search}`,
        method: prepared.method,
        headers: prepared.headers,
        body: out.body ? undiciBody(scope.pacedRequest(out.body.open())) : null,
        signal: scope.signal,
      });
      // An 'idle' attempt's answer (an upload's record, a download, an error body) is held to the floor.
      if (out.timeout === 'idle') response = { ...response, body: scope.pacedResponse(response.body) as Dispatcher.ResponseData['body'] };
      const headers = flattenHeaders(response.headers);
      traceResponse(io, response.statusCode, Number(hrtime.bigint() - started) / 1e6, headers['x-request-id']);
      this.config.onAnswer?.(headers, prepared.url);
      if (response.statusCode >= 200 && response.statusCode < 300) {
        return { kind: 'done', value: await onSuccess(response, { prepared, headers, scope, site }) };
      }
      const body = await readText(response.body, contentLengthOf(headers), ERROR_BODY_LIMIT);
      return {
        kind: 'status',
        status: response.statusCode,
        headers,
        body,
        retryAfterMs: parseRetryAfter(headers['retry-after']),
      };
    } catch (error) {
      if (response) discardBody(response.body);
      return { kind: 'failure', ...scope.classify(error, site) };
    } finally {
      scope.release();
    }
  }

  private statusError(
    prepared: Prepared,
    outcome: Extract<Outcome<unknown>, { kind: 'status' }>,
    attempts: number,
    retryable: boolean,
  ): AppError {
    if (outcome.status < 400) {
      // undici does not follow redirects, and neither do we: a key must not follow one blindly.
      const location = outcome.headers.location;
      return new ContractError(
        `${prepared.method} ${prepared.target}: the service answered ${statusLine(outcome.status)}${location ? ` (to ${location})` : ''}; redirects are not followed`,
        { hint: 'check the base URL (https:// rather than http://, the right host and path prefix)' },
      );
    }
    return httpErrorFor({
      status: outcome.status,
      method: prepared.method,
      path: prepared.target,
      headers: outcome.headers,
      body: outcome.body,
      profileName: this.config.profileName,
      credential: prepared.credential,
      attempts,
      retryable,
      retryAfterMs: outcome.retryAfterMs,
    });
  }

  private noteRetry(
    prepared: Prepared,
    outcome: Exclude<Outcome<unknown>, { kind: 'done' }>,
    nextAttempt: number,
    maxAttempts: number,
    delayMs: number,
  ): void {
    const { io } = this.config;
    const reason = outcome.kind === 'status' ? String(outcome.status) : outcome.reason;
    if (outcome.kind === 'failure') io.debug(`! ${outcome.error.message}`);
    // A wait long enough to look like a hang (a Retry-After of up to a minute) is said even
    // without --verbose; --quiet still silences it.
    if (io.verbose || delayMs >= LONG_RETRY_WAIT_MS) {
      io.notice(
        `retrying ${prepared.method} ${prepared.target} after ${reason} (attempt ${nextAttempt}/${maxAttempts}) in ${(delayMs / 1000).toFixed(1)}s`,
      );
    }
  }
}

/**
 * A body as undici's request() takes it: undici sends an async iterable chunk by chunk (its
 * lib/core/request.js accepts one, client-h1.js's writeIterable sends it), though its types name
 * only Readable among the streaming bodies.
 */
function undiciBody(body: string | AsyncIterable<Uint8Array>): Dispatcher.RequestOptions['body'] {
  return body as Dispatcher.RequestOptions['body'];
}
