// When and how long to wait before trying a request again. Only safe requests are retried (a POST
// might have taken effect), only on answers that mean "try later" or on connection failures, with
// exponential backoff and full jitter so that many clients do not retry in lock-step.
import type { Env } from '../env.js';
import type { HttpMethod, RetryPolicy } from '../api-client.js';
import { InterruptedError } from '../errors.js';
import { listenForAbort } from '../shared-signal.js';

/** Statuses that mean "not now" rather than "no". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set<HttpMethod>(['GET', 'HEAD', 'PUT', 'DELETE']);

export const DEFAULT_RETRY_BASE_MS = 250;
export const RETRY_CAP_MS = 8_000;
/** A Retry-After longer than this is shortened: the CLI never sits silent for minutes. */
export const RETRY_AFTER_CAP_MS = 60_000;

/** The policy for `--retries N`; `APPRAISAL_RETRY_BASE_MS` shortens the backoff (tests, benchmarks). */
export function retryPolicy(retries: number, env: Env, random: () => number = Math.random): RetryPolicy {
  const raw = env.APPRAISAL_RETRY_BASE_MS?.trim();
  const parsed = raw === undefined || raw === '' ? Number.NaN : Number(raw);
  const baseMs = Number.isFinite(parsed) && parsed >= 0 ? parsed : DEFAULT_RETRY_BASE_MS;
  return { retries: Math.max(0, Math.floor(retries)), baseMs, capMs: RETRY_CAP_MS, random };
}

/** Whether a request may be sent again: explicit choice, else by method (never POST/PATCH). */
export function mayRetry(method: HttpMethod, override?: boolean): boolean {
  return override ?? IDEMPOTENT_METHODS.has(method);
}

/** Full jitter: a random delay in [0, min(cap, base * 2^(n-1))) before retry number n (1-based). */
export function backoffDelay(retryNumber: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, retryNumber - 1));
  return Math.floor(policy.random() * ceiling);
}

/**
 * `Retry-After` in milliseconds: delay-seconds or an HTTP-date (RFC 9110 §10.2.3), capped at
 * RETRY_AFTER_CAP_MS. Undefined when absent or unreadable, so the caller falls back to backoff.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  let ms: number;
  if (/^\d+$/.test(text)) {
    ms = Number(text) * 1000;
  } else {
    // An HTTP-date names its day and month ("Wed, 21 Oct 2015 07:28:00 GMT"); Date.parse alone
    // would also accept "-5" as a year.
    if (!/[a-z]{3}/i.test(text)) return undefined;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, RETRY_AFTER_CAP_MS);
}

/** The wait before retry number n: what the service asked for, else backoff. */
export function retryDelay(retryNumber: number, policy: RetryPolicy, retryAfterMs: number | undefined): number {
  return retryAfterMs ?? backoffDelay(retryNumber, policy);
}

/** Wait, unless one of the signals aborts first (then InterruptedError). */
export function sleep(ms: number, signals: readonly AbortSignal[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signals.some((signal) => signal.aborted)) {
      reject(new InterruptedError());
      return;
    }
    const stopListening = (): void => {
      for (const stop of listening) stop();
    };
    const timer = setTimeout(() => {
      stopListening();
      resolve();
    }, ms);
    const listening = signals.map((signal) =>
      listenForAbort(signal, () => {
        clearTimeout(timer);
        stopListening();
        reject(new InterruptedError());
      }),
    );
  });
}
