// When a failed delivery is tried again, and when it is given up. Standard Webhooks' advice: retry
// what may pass (408, 409, 425, 429, 5xx, timeouts, connection failures) with exponential backoff and
// jitter, honouring Retry-After, for a bounded time (--retry-for, from the first attempt, or earlier:
// forwarder.ts); anything else is the receiver refusing this event, which no retry changes: dead
// letter at once. A 410 or a TLS failure concerns every event, not this one: the watch stops.
import type { OutboundAnswer } from '../../../core/http/outbound.js';
import { shownFailure, shownLocation } from './target.js';

const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429]);

/** The first wait is about a second, the longest five minutes, both shorter for a short --retry-for. */
const BASE_MS = 1_000;
const MAX_MS = 5 * 60_000;

/** 'gone' (410) and 'tls' stop the watch (stop.ts). */
export type Verdict = 'delivered' | 'retry' | 'dead-letter' | 'gone' | 'tls';

export function verdictOf(answer: OutboundAnswer): Verdict {
  if (answer.kind === 'failure') return answer.tls === undefined ? 'retry' : 'tls';
  const { status } = answer;
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  if (RETRYABLE_STATUSES.has(status) || status >= 500) return 'retry';
  // Other 4xx, and 3xx: redirects are not followed, and a receiver that moved will not come back.
  return 'dead-letter';
}

/**
 * The wait before attempt `failed + 1`: Retry-After when the receiver sent one, else "equal jitter"
 * exponential backoff (at least half the ceiling, so the wait still grows), its base and cap scaled
 * down for a short --retry-for (a hundredth and a tenth of it) so several attempts fit.
 */
export function retryDelay(
  failed: number,
  retryAfterMs: number | undefined,
  retryForMs: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const base = Math.min(BASE_MS, retryForMs / 100);
  const ceiling = Math.min(MAX_MS, retryForMs / 10, base * 2 ** Math.min(failed - 1, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** What an answer was, in words, for the dead-letter file and -v; never the path of `url`, the receiver. */
export function describeAnswer(answer: OutboundAnswer, url: URL): string {
  if (answer.kind === 'failure') return shownFailure(answer.message, url);
  if (answer.status >= 300 && answer.status < 400) {
    const location = answer.location ? ` to ${shownLocation(answer.location, url)}` : '';
    return `${answer.status} redirect${location}: redirects are not followed`;
  }
  return `${answer.status}`;
}
