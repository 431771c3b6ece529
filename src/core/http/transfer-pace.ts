// The floor under a transfer's rate (`--min-rate`, core/min-rate.ts), measured where bytes move: the
// request body as undici takes it, the response body as it arrives. A window of `windowMs` slides
// in tenths; once a whole window has passed with fewer than `bytes` moved, the transfer is too slow
// and the attempt is ended (attempt-scope.ts says why). Waiting on our own side is not the peer's
// fault: a download whose reader is behind (a full disk, `| less` paused) restarts the window.
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import type { MinRate } from '../min-rate.js';

/** How many slices a window is measured in. */
const SLICES = 10;

export class TransferPace {
  private slices: number[] = [];
  private current = 0;
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param tooSlow called once, with the bytes moved in the last window, when they fall below the floor
   * @param localBehind whether our side, not the peer, holds the transfer up right now
   */
  constructor(
    private readonly floor: MinRate,
    private readonly tooSlow: (moved: number) => void,
    private readonly localBehind: () => boolean = () => false,
  ) {}

  /** Start measuring (again a whole window before the first verdict). */
  start(): void {
    if (this.timer !== undefined) return;
    this.slices = [];
    this.current = 0;
    this.timer = setInterval(() => this.tick(), this.floor.windowMs / SLICES);
    // A transfer keeps the process alive by its socket; the pace's timer must not.
    this.timer.unref();
  }

  moved(bytes: number): void {
    this.current += bytes;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    if (this.localBehind()) {
      this.slices = [];
      this.current = 0;
      return;
    }
    this.slices.push(this.current);
    this.current = 0;
    if (this.slices.length > SLICES) this.slices.shift();
    if (this.slices.length < SLICES) return;
    const moved = this.slices.reduce((sum, bytes) => sum + bytes, 0);
    if (moved >= this.floor.bytes) return;
    this.stop();
    this.tooSlow(moved);
  }
}

/** A stream that passes bytes through and counts them into `pace`. */
function meter(pace: TransferPace): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      pace.moved(chunk.length);
      callback(null, chunk);
    },
  });
}

/**
 * The request body as sent: measured from the moment undici first asks for a chunk (after
 * connecting) to its end; the wait for the answer after it is the headers timeout's (--timeout).
 * Each chunk is asked for only when undici asks for it (nothing read ahead: the body may reuse its
 * buffer, upload.ts), counted as undici takes it. A failure of the body's (a file changed while
 * sent) reaches undici; undici ending the body early (an abort) ends the body's reading too.
 */
export async function* pacedRequestBody(body: AsyncIterable<Uint8Array>, pace: TransferPace): AsyncGenerator<Uint8Array> {
  pace.start();
  try {
    for await (const chunk of body) {
      pace.moved(chunk.length);
      yield chunk;
    }
  } finally {
    pace.stop();
  }
}

/** The response body as it arrives, measured from now to its end; a reader that is behind pauses the verdict. */
export function pacedResponseBody(body: Readable, makePace: (localBehind: () => boolean) => TransferPace): Readable {
  // Bytes waiting in the meter mean our reader is behind, not the service (asked only at ticks, once it exists).
  const pace = makePace(() => metered.readableLength > 0);
  const metered = meter(pace);
  pipeline(body, metered, () => pace.stop());
  pace.start();
  return metered;
}
