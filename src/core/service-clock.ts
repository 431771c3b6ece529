// The service's clock, as its answers tell it. Times that are compared with the service's timestamps
// (an export's watermark against `updatedAt`, a watch's mark) must come from the clock that wrote
// those timestamps, not this machine's: with the service ten minutes behind, a watermark read from
// the local clock skipped a change made after the previous run (issue 26 §13). Every answer's `Date`
// header (RFC 9110 §6.6.1) is recorded here by the context's client (factory.ts); `now()` is this
// machine's time moved by the offset the latest answer showed. The header has whole seconds and is
// written before the answer travels, so the reading is never later than the service's true time:
// a watermark taken from it can only re-read a little more, never skip.
import type { ApiClient } from './api-client.js';
import { formatDuration } from './duration.js';
import { ContractError, RejectedError } from './errors.js';

/**
 * How far past the service's clock a stored time may be and still count as "now": the Date header's
 * whole seconds and a slow answer. Anything later is a time in the future (forged, or written by a
 * clock that was wrong).
 */
export const FUTURE_TOLERANCE_MS = 5_000;

// IMF-fixdate, the form every sender must use ("Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse alone
// takes far more ("1" is the year 2001).
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** A `Date` header's time in milliseconds, or undefined when it is absent or not an IMF-fixdate. */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (value === undefined || !IMF_FIXDATE.test(value.trim())) return undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : undefined;
}

export class ServiceClock {
  private offset: number | undefined;

  /** `localNow`: this machine's clock (the context's, so tests can move it). */
  constructor(private readonly localNow: () => number) {}

  /** An answer's `Date` header, as it arrives (must not throw: it is on the request's path). */
  observe(dateHeader: string | undefined): void {
    const at = parseHttpDate(dateHeader);
    if (at !== undefined) this.offset = at - this.localNow();
  }

  /** The service's time minus this machine's, in ms (negative: the service is behind); undefined before any dated answer. */
  get offsetMs(): number | undefined {
    return this.offset;
  }

  /** The service's time now (ms since the epoch), or undefined before any dated answer. */
  now(): number | undefined {
    return this.offset === undefined ? undefined : this.localNow() + this.offset;
  }

  /**
   * The service's time now, asking it first when no answer has told it yet: one small GET of `path`
   * (a collection the command reads anyway). Whatever the service answers carries its Date, so an
   * answer it rejects or shapes oddly still gives the reading; a failure with no answer (network,
   * 401, 403, 5xx after retries) is the command's failure and is thrown. Undefined when the service
   * sends no Date header.
   */
  async measure(api: Pick<ApiClient, 'request'>, path: string, signal?: AbortSignal): Promise<number | undefined> {
    if (this.offset === undefined) {
      try {
        await api.request({ method: 'GET', path, query: { page: 1, limit: 1 }, signal });
      } catch (error) {
        if (!(error instanceof RejectedError || error instanceof ContractError)) throw error;
      }
    }
    return this.now();
  }
}

/** "10m ahead of" / "3s behind": how the service's clock stands to this machine's, for messages (to the second). */
export function describeOffset(offsetMs: number): string {
  return `${formatDuration(Math.round(Math.abs(offsetMs) / 1000) * 1000)} ${offsetMs >= 0 ? 'ahead of' : 'behind'}`;
}
