// The abort plumbing of one attempt: Ctrl-C, the caller's own signal, the timeout and the floor
// under a transfer's rate all end the exchange through one AbortController, and a failure is
// classified by which of them fired.
import type { Readable } from 'node:stream';
import { AppError, InterruptedError } from '../errors.js';
import type { MinRate } from '../min-rate.js';
import { type FailureSite, networkFailure, timeoutFailure, tooSlowFailure, type TransferDirection } from './network-errors.js';
import { listenForAbort } from '../shared-signal.js';
import { pacedRequestBody, pacedResponseBody, TransferPace } from './transfer-pace.js';

/** 'exchange': the timeout bounds the whole exchange; 'idle': each wait for bytes (undici's own timeouts). */
export type TimeoutMode = 'exchange' | 'idle';

/** The abort plumbing of one attempt: user aborts and the timeout both end the exchange. */
export class AttemptScope {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private kept = false;
  private readonly paces: TransferPace[] = [];
  private readonly stopListening: ReadonlyArray<() => void>;
  timedOut = false;
  /** Set when a body moved slower than the floor: which one, and how much it moved in the last window. */
  tooSlow: { direction: TransferDirection; moved: number } | undefined;

  /** @param minRate the floor under the bodies' rate ('idle' attempts: uploads, downloads); unset, none. */
  constructor(
    private readonly userSignals: readonly AbortSignal[],
    timeoutMs: number,
    mode: TimeoutMode,
    private readonly minRate?: MinRate | undefined,
  ) {
    this.stopListening = userSignals.map((signal) => listenForAbort(signal, this.onAbort));
    if (mode === 'exchange') {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort();
      }, timeoutMs);
    }
  }

  private readonly onAbort = (): void => this.controller.abort();

  private pace(direction: TransferDirection, localBehind?: () => boolean): TransferPace {
    const pace = new TransferPace(
      this.minRate!,
      (moved) => {
        this.tooSlow = { direction, moved };
        this.controller.abort();
      },
      localBehind,
    );
    this.paces.push(pace);
    return pace;
  }

  /** The request body, held to the floor while it is sent (as it is when there is none). */
  pacedRequest(body: string | AsyncIterable<Uint8Array>): string | AsyncIterable<Uint8Array> {
    return this.minRate === undefined || typeof body === 'string' ? body : pacedRequestBody(body, this.pace('sending'));
  }

  /** The response body, held to the floor from now until its end (as it is when there is none). */
  pacedResponse(body: Readable): Readable {
    return this.minRate === undefined ? body : pacedResponseBody(body, (localBehind) => this.pace('receiving', localBehind));
  }

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
    for (const pace of this.paces) pace.stop();
    for (const stop of this.stopListening) stop();
  }

  /** What a failure during this attempt means for the user. */
  classify(error: unknown, site: FailureSite): { error: AppError; retryable: boolean; reason: string } {
    if (this.interrupted) return { error: new InterruptedError(), retryable: false, reason: 'interrupted' };
    if (this.tooSlow) return tooSlowFailure(site, this.tooSlow.direction, this.tooSlow.moved, this.minRate!);
    if (this.timedOut) return timeoutFailure(site);
    if (error instanceof AppError) return { error, retryable: false, reason: error.message };
    return networkFailure(error, site);
  }
}
