// The abort plumbing of one attempt: Ctrl-C, the caller's own signal and the timeout all end the
// exchange through one AbortController, and a failure is classified by which of them fired.
import { AppError, InterruptedError } from '../errors.js';
import { type FailureSite, networkFailure, timeoutFailure } from './network-errors.js';

/** 'exchange': the timeout bounds the whole exchange; 'idle': each wait for bytes (undici's own timeouts). */
export type TimeoutMode = 'exchange' | 'idle';

/** The abort plumbing of one attempt: user aborts and the timeout both end the exchange. */
export class AttemptScope {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private kept = false;
  timedOut = false;

  constructor(
    private readonly userSignals: readonly AbortSignal[],
    timeoutMs: number,
    mode: TimeoutMode,
  ) {
    for (const signal of userSignals) signal.addEventListener('abort', this.onAbort, { once: true });
    if (mode === 'exchange') {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort();
      }, timeoutMs);
    }
  }

  private readonly onAbort = (): void => this.controller.abort();

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.userSignals.some((signal) => signal.aborted);
  }

  /** The response body outlives the exchange (a download): the owner disposes later. */
  keep(): void {
    this.kept = true;
  }

  /** End of the exchange, unless kept. */
  release(): void {
    if (!this.kept) this.dispose();
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const signal of this.userSignals) signal.removeEventListener('abort', this.onAbort);
  }

  /** What a failure during this attempt means for the user. */
  classify(error: unknown, site: FailureSite): { error: AppError; retryable: boolean; reason: string } {
    if (this.interrupted) return { error: new InterruptedError(), retryable: false, reason: 'interrupted' };
    if (this.timedOut) return timeoutFailure(site);
    if (error instanceof AppError) return { error, retryable: false, reason: error.message };
    return networkFailure(error, site);
  }
}
