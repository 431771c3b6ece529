import { describe, expect, it } from 'vitest';
import { BACKOFF_MAX_MS, backoffDelay } from '../../../../src/commands/watch/backoff.js';

describe('backoffDelay', () => {
  it('honours Retry-After, never waiting less, spreading by at most 1 s', () => {
    expect(backoffDelay(1, 3_000, () => 0)).toBe(3_000);
    expect(backoffDelay(1, 3_000, () => 1)).toBe(3_300);
    expect(backoffDelay(5, 60_000, () => 1)).toBe(61_000);
    expect(backoffDelay(1, 0, () => 1)).toBe(0);
  });

  it('grows exponentially from 1 s with equal jitter, capped at 5 minutes', () => {
    expect(backoffDelay(1, undefined, () => 1)).toBe(1_000);
    expect(backoffDelay(1, undefined, () => 0)).toBe(500);
    expect(backoffDelay(2, undefined, () => 1)).toBe(2_000);
    expect(backoffDelay(4, undefined, () => 0)).toBe(4_000);
    expect(backoffDelay(30, undefined, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(1000, undefined, () => 0)).toBe(BACKOFF_MAX_MS / 2);
  });
});
