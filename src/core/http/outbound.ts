// A client for a URL that is not the service (watch --forward-to's webhook receiver): POST a body with
// the caller's headers, once, and say what came back. It never holds the API key (it is made without
// one, and adds no header but the user-agent), never follows a redirect (a 3xx is an answer like any
// other: the caller decides), trusts its own extra CA, and bounds each attempt by its own timeout.
// Retrying is the caller's: a webhook's schedule (hours, dead letters) is not the API client's.
import { EventEmitter } from 'node:events';
import type { Dispatcher } from 'undici';
import { createDispatcher } from './agent.js';
import { networkFailure, timeoutFailure, type FailureSite, type TlsProblem } from './network-errors.js';
import { discardBody } from './response-body.js';
import { parseRetryAfter } from './retry.js';
import type { Env } from '../env.js';
import { UsageError } from '../errors.js';

export interface OutboundSettings {
  /** Extra trusted CA (PEM), added to the bundled roots. */
  caFile?: string | undefined;
  /** One attempt, from connecting to the last byte of the answer. */
  timeoutMs: number;
  /** The flag that named the CA file, for its messages (`--forward-ca-file`). */
  caFlag?: string | undefined;
}

/** What one POST came to. */
export type OutboundAnswer =
  | {
      kind: 'answer';
      status: number;
      /** Retry-After, in milliseconds, when the answer carried a readable one. */
      retryAfterMs: number | undefined;
      /** Location of a 3xx, for messages. */
      location: string | undefined;
    }
  | {
      kind: 'failure';
      /** Short cause: "timed out", "connection refused". */
      reason: string;
      /** The whole message, with where it went. */
      message: string;
      /** Trying again could help (a TLS or DNS failure will not pass by itself). */
      retryable: boolean;
      /** The kind of TLS failure, when it was one (each has its own fix). */
      tls: TlsProblem | undefined;
    };

export interface OutboundClient {
  post(url: URL, body: string, headers: Readonly<Record<string, string>>, signal: AbortSignal): Promise<OutboundAnswer>;
  close(): Promise<void>;
}

/**
 * What cuts one attempt: its own timer, or the caller's signal. An EventEmitter, which undici takes as
 * a request's signal (an 'abort' event, `aborted`, `reason`): an AbortController per attempt costs
 * ~16 µs more in EventTarget listeners (and AbortSignal.timeout() with AbortSignal.any() ~35 µs), a
 * tenth of a delivery to a receiver on this machine.
 */
class AttemptSignal extends EventEmitter {
  aborted = false;
  reason: unknown;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** An answer's body is not read for anything: at most this much is drained so the connection is reused. */
const DRAIN_LIMIT = 64 * 1024;

export interface OutboundDeps {
  env: Env;
  userAgent: string;
}

export function createOutboundClient(settings: OutboundSettings, deps: OutboundDeps): OutboundClient {
  let dispatcher: Dispatcher;
  try {
    dispatcher = createDispatcher({ caFile: settings.caFile, env: deps.env, timeoutMs: settings.timeoutMs });
  } catch (error) {
    // The shared reader's hint names --ca-file; this CA came with another flag.
    if (error instanceof UsageError && settings.caFlag !== undefined && settings.caFile !== undefined) {
      throw new UsageError(error.message, { hint: `pass a readable PEM certificate with ${settings.caFlag} PATH` });
    }
    throw error;
  }
  // The attempts in flight under each caller's signal, cut together when it aborts: one listener per
  // signal rather than one added and removed per attempt (~15 µs of EventTarget work each time).
  const inFlight = new WeakMap<AbortSignal, Set<AttemptSignal>>();
  const attemptsUnder = (signal: AbortSignal): Set<AttemptSignal> => {
    let attempts = inFlight.get(signal);
    if (attempts === undefined) {
      const created = new Set<AttemptSignal>();
      signal.addEventListener('abort', () => created.forEach((attempt) => attempt.abort(signal.reason)), { once: true });
      inFlight.set(signal, created);
      attempts = created;
    }
    return attempts;
  };
  return {
    async post(url, body, headers, signal) {
      const attempt = new AttemptSignal();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        attempt.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      }, settings.timeoutMs);
      timer.unref();
      const attempts = attemptsUnder(signal);
      attempts.add(attempt);
      if (signal.aborted) attempt.abort(signal.reason);
      let response: Dispatcher.ResponseData | undefined;
      try {
        response = await dispatcher.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          // undici adds the content-length of a string body itself.
          headers: { ...headers, 'user-agent': deps.userAgent },
          body,
          signal: attempt,
        });
        const answer: OutboundAnswer = {
          kind: 'answer',
          status: response.statusCode,
          retryAfterMs: parseRetryAfter(header(response.headers['retry-after'])),
          location: header(response.headers.location),
        };
        // The status is the answer: a body that fails or stalls after it changes nothing. The attempt's
        // signal still cuts it (undici destroys the body when the request's signal aborts).
        await response.body.dump({ limit: DRAIN_LIMIT }).catch(() => undefined);
        return answer;
      } catch (error) {
        if (response) discardBody(response.body);
        if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : error;
        const site: FailureSite = { method: 'POST', path: url.pathname, origin: url.origin, timeoutMs: settings.timeoutMs };
        const failure = timedOut ? timeoutFailure(site) : networkFailure(error, site);
        return {
          kind: 'failure',
          reason: timedOut ? 'timed out' : failure.reason,
          // The hints speak of the service's flags; the message names what happened and where.
          message: failure.error.message,
          retryable: timedOut || failure.retryable,
          tls: timedOut ? undefined : failure.tls,
        };
      } finally {
        clearTimeout(timer);
        attempts.delete(attempt);
      }
    },
    close: () => dispatcher.close(),
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
