// How long to wait after a poll failed on 429/5xx or the network: what the service asked for
// (Retry-After), else exponential from 1 s up to 5 minutes, with jitter so many watchers that failed
// together do not come back together.

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/** `failures` counts consecutive failed polls, from 1. */
export function backoffDelay(failures: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) {
    // Honour the service's wait, spread by up to 10 % (at most 1 s) after it, never before it.
    return Math.round(retryAfterMs + Math.min(1_000, retryAfterMs * 0.1) * random());
  }
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(failures - 1, 20));
  // "Equal jitter": at least half the ceiling, so the wait still grows.
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
