// How many tool calls run at once, and how many may wait their turn. An assistant can send any
// number of calls in one burst (a loop gone wrong, a plan fanned out over every record): each runs a
// command in this process, with its own requests to the service and up to DEFAULT_LIMITS.maxBytes of
// result held until it is answered. Unbounded, 500 calls would be 500 requests at the service at once
// and up to 2 GB here. So CALLS_AT_ONCE run (the CLI's own default --concurrency), the next ones
// wait in order, and beyond CALLS_ACCEPTED in all a call is refused at once, as a tool error that
// says why, rather than queued without end. p-limit keeps the order and the count.
import * as pLimitModule from 'p-limit';
import type { LimitFunction } from 'p-limit';
import { defaultExport } from '../../core/default-export.js';

// p-limit is an ES module package: bundled, its function is the default of the default (default-export.ts).
const pLimit = defaultExport(pLimitModule) as typeof pLimitModule.default;

const CALLS_AT_ONCE = 4;
/** Running and waiting together. */
export const CALLS_ACCEPTED = 64;

export class CallGate {
  readonly #limit: LimitFunction;

  constructor(
    atOnce = CALLS_AT_ONCE,
    private readonly accepted = CALLS_ACCEPTED,
  ) {
    this.#limit = pLimit(atOnce);
  }

  /** `call` run in its turn; undefined, and never run, when CALLS_ACCEPTED calls are already running or waiting. */
  run<T>(call: () => Promise<T>): Promise<T> | undefined {
    if (this.#limit.activeCount + this.#limit.pendingCount >= this.accepted) return undefined;
    return this.#limit(call);
  }
}
