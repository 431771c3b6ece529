// The floor under a transfer's rate, on fake timers: a verdict only after a whole window, bytes
// counted over the window as it slides, a reader that is behind restarts the window, stop() ends it.
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pacedResponseBody, TransferPace } from '../../../../src/core/http/transfer-pace.js';

const FLOOR = { bytes: 1000, windowMs: 1000 };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('TransferPace', () => {
  it('says nothing before a whole window, then reports the bytes of the last window once', () => {
    const tooSlow = vi.fn();
    const pace = new TransferPace(FLOOR, tooSlow);
    pace.start();
    pace.moved(999);
    vi.advanceTimersByTime(900);
    expect(tooSlow).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(tooSlow).toHaveBeenCalledWith(999);
    vi.advanceTimersByTime(5000);
    expect(tooSlow).toHaveBeenCalledTimes(1);
  });

  it('a transfer at the floor or above goes on for as long as it lasts', () => {
    const tooSlow = vi.fn();
    const pace = new TransferPace(FLOOR, tooSlow);
    pace.start();
    for (let slice = 0; slice < 600; slice++) {
      pace.moved(100);
      vi.advanceTimersByTime(100);
    }
    expect(tooSlow).not.toHaveBeenCalled();
    pace.stop();
  });

  it('the window slides: a burst, then a trickle, is too slow one window after the burst', () => {
    const tooSlow = vi.fn();
    const pace = new TransferPace(FLOOR, tooSlow);
    pace.start();
    pace.moved(1_000_000);
    for (let slice = 0; slice < 10; slice++) {
      vi.advanceTimersByTime(100);
      pace.moved(1);
    }
    expect(tooSlow).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(tooSlow).toHaveBeenCalledWith(10);
  });

  it('while our side is behind, the window starts again; stop() ends the watch', () => {
    const tooSlow = vi.fn();
    let behind = true;
    const pace = new TransferPace(FLOOR, tooSlow, () => behind);
    pace.start();
    vi.advanceTimersByTime(10_000);
    expect(tooSlow).not.toHaveBeenCalled();
    behind = false;
    vi.advanceTimersByTime(900);
    expect(tooSlow).not.toHaveBeenCalled();
    pace.stop();
    vi.advanceTimersByTime(10_000);
    expect(tooSlow).not.toHaveBeenCalled();
  });
});

describe('pacedResponseBody', () => {
  it('counts what arrives, and bytes its reader has not taken yet hold the verdict', async () => {
    const tooSlow = vi.fn();
    const source = new PassThrough();
    const body = pacedResponseBody(source, (localBehind) => new TransferPace(FLOOR, tooSlow, localBehind));
    source.write(Buffer.alloc(10));
    await vi.waitFor(() => expect(body.readableLength).toBe(10));
    // Nobody reads `body`: the 10 bytes wait in it, so the reader is behind, not the service.
    vi.advanceTimersByTime(5000);
    expect(tooSlow).not.toHaveBeenCalled();
    body.resume();
    await vi.waitFor(() => expect(body.readableLength).toBe(0));
    vi.advanceTimersByTime(1000);
    expect(tooSlow).toHaveBeenCalledWith(0);
    source.destroy();
  });
});
