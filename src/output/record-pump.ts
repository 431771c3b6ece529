// The one loop that moves records from a producer (pages of a collection, a file's rows) into a
// sink (an encoder and its destination, or files in parts): stops quietly when the reader goes away,
// closes the producer on any failure, and fails at once on Ctrl-C even while a record is awaited.
import type { Context } from '../core/context.js';
import { InterruptedError } from '../core/errors.js';
import type { RecordSink } from './sink.js';

export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new InterruptedError();
}

/**
 * Feed every record into the sink (an encoder and its destination, or split files). Stops early, quietly, when the reader
 * goes away; in that case and on any failure the records' iterator is closed (return()), so the
 * producer stops fetching. An abort (Ctrl-C) fails at once even while a record is still awaited.
 */
export async function pump(ctx: Context, records: AsyncIterable<Record<string, unknown>>, sink: RecordSink): Promise<number> {
  const signal = ctx.signal;
  const iterator = records[Symbol.asyncIterator]();
  // A resumed export counts the records its interrupted run wrote.
  let count = sink.resumed?.written ?? 0;
  let exhausted = false;
  let nextPending = false;
  // One abort listener for the whole pump (not one per record): it rejects the record being awaited.
  // (Not Promise.race with one long-lived promise: every race would leave a reaction on it.)
  let rejectPending: ((error: Error) => void) | undefined;
  const onAbort = () => rejectPending?.(abortReason(signal));
  signal.addEventListener('abort', onAbort, { once: true });
  const next = (): Promise<IteratorResult<Record<string, unknown>>> => {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    nextPending = true;
    return new Promise((resolve, reject) => {
      rejectPending = reject;
      iterator.next().then(
        (step) => {
          rejectPending = undefined;
          nextPending = false;
          if (step.done) exhausted = true;
          resolve(step);
        },
        (error: unknown) => {
          // An iterator that threw is finished: nothing to close.
          rejectPending = undefined;
          nextPending = false;
          exhausted = true;
          reject(error);
        },
      );
    });
  };

  try {
    if (!(await sink.begin())) return count;
    for (;;) {
      const step = await next();
      if (step.done) break;
      count++;
      if (!(await sink.record(step.value))) return count;
    }
    if (signal.aborted) throw abortReason(signal);
    await sink.end(count);
    return count;
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!exhausted) {
      const closing = iterator.return?.();
      // With a next() still running, return() would wait for it: let it finish on its own.
      if (nextPending) void closing?.catch(() => undefined);
      else await closing?.catch(() => undefined);
    }
  }
}
