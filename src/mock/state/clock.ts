// Timestamps for created and updated records. Strictly increasing, even for two writes in the same
// millisecond, and never earlier than the newest seeded timestamp: a client polling with
// `updatedSince` must see every later change. A test may set the mock's clock off by an offset
// (`POST /__mock/clock`): its `Date` header, timestamps and expiry checks then all follow that
// wrong clock, as a real service with a wrong clock would.

export class MonotonicClock {
  private last: number;

  constructor(private readonly floorMs = 0) {
    this.last = floorMs;
  }

  /**
   * Run `offsetMs` off the machine's clock from now on, as a service whose clock has always been that
   * far off: new timestamps follow it even when that is earlier than the last one stamped (a key's
   * lastUsedAt at start-up), never earlier than the seeded data.
   */
  setOffset(offsetMs: number): void {
    this.offsetMs = offsetMs;
    this.last = Math.max(this.floorMs, Math.min(this.last, this.wallMs() - 1));
  }

  /** Move the floor forward (after seeding or a reset). */
  advanceTo(ms: number): void {
    if (ms > this.last) this.last = ms;
  }

  /** How far this clock is off the machine's (milliseconds; POST /__mock/clock). */
  offsetMs = 0;

  /** The offset the mock was started with (`--clock-offset`): POST /__mock/reset returns to it. */
  startOffsetMs = 0;

  /** The service's idea of now, not forced to increase (expiry checks, the Date header). */
  wallMs(): number {
    return Date.now() + this.offsetMs;
  }

  nowMs(): number {
    const now = Math.max(this.wallMs(), this.last + 1);
    this.last = now;
    return now;
  }

  nowIso(): string {
    return new Date(this.nowMs()).toISOString();
  }
}
