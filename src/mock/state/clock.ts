// Timestamps for created and updated records. Strictly increasing, even for two writes in the same
// millisecond, and never earlier than the newest seeded timestamp: a client polling with
// `updatedSince` must see every later change.

export class MonotonicClock {
  private last: number;

  constructor(floorMs = 0) {
    this.last = floorMs;
  }

  /** Move the floor forward (after seeding or a reset). */
  advanceTo(ms: number): void {
    if (ms > this.last) this.last = ms;
  }

  nowMs(): number {
    const now = Math.max(Date.now(), this.last + 1);
    this.last = now;
    return now;
  }

  nowIso(): string {
    return new Date(this.nowMs()).toISOString();
  }
}
