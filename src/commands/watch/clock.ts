// Time, handed in: the poller asks a Clock for "now" and to sleep, so tests run a day of polling in
// milliseconds with a fake one.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Wait `ms`, or less if `signal` aborts first (never rejects). */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export function systemClock(now: () => Date): Clock {
  return {
    now: () => now().getTime(),
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        if (signal.aborted || ms <= 0) return resolve();
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
      }),
  };
}
