// The pipe of records: from a source (the pager and a list's transforms, a command's own rows) into
// the run's one sink, which the output plan chose from the flags when the context was made
// (ctx.output.sink, and the encoder a text sink writes with: ctx.output.encoder) and sinks.ts opens.
// write() pumps the records into it (pump: the one loop moving records from a producer into a sink),
// then finishes it, or discards it on any failure, and says what was written.
// Every format streams except table, which buffers bounded chunks (see table.ts). Nothing here
// chooses a sink or a format: the plan did, once.
import type { PageDone } from '../core/api-client.js';
import type { Context } from '../core/context.js';
import { InterruptedError } from '../core/errors.js';
import type { OutputPlan } from '../core/output-plan.js';
import type { ExportedCollection } from './checkpoint.js';
import { getField } from './fields.js';
import type { RecordSink, Resumed } from './sink.js';
import { openSink } from './sinks.js';
import type { FilePart } from './split.js';
import { countOf, type View } from './view.js';

// The pump: stops quietly when the reader goes away, closes the producer on any failure, and fails at
// once on Ctrl-C even while a record is awaited.
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new InterruptedError();
}

/** Records taken from the source so far (a resumed export's included), read while the pump runs. */
export interface PumpTally {
  count: number;
}

/**
 * Feed every record into the sink (an encoder and its destination, or split files). Stops early, quietly, when the reader
 * goes away; in that case and on any failure the records' iterator is closed (return()), so the
 * producer stops fetching. An abort (Ctrl-C) fails at once even while a record is still awaited.
 * `tally` follows the count as it grows: a source checkpointing a page reads how many were handed
 * over (counted here rather than by one more generator around the source: a hop per record).
 */
export async function pump(
  ctx: Context,
  records: AsyncIterable<Record<string, unknown>>,
  sink: RecordSink,
  tally: PumpTally = { count: 0 },
): Promise<number> {
  const signal = ctx.signal;
  const iterator = records[Symbol.asyncIterator]();
  // A resumed export counts the records its interrupted run wrote.
  tally.count = sink.resumed?.written ?? 0;
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
    if (!(await sink.begin())) return tally.count;
    for (;;) {
      const step = await next();
      if (step.done) break;
      tally.count++;
      if (!(await sink.record(step.value))) return tally.count;
    }
    if (signal.aborted) throw abortReason(signal);
    await sink.end(tally.count);
    return tally.count;
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

/**
 * Passes records through, noting which --fields some record has: a field no record has is a
 * warning (a typo), not a silently empty column.
 */
function watchFields(
  ctx: Context,
  plan: OutputPlan,
  records: AsyncIterable<Record<string, unknown>>,
  view: View,
): { records: AsyncIterable<Record<string, unknown>>; report(count: number): void } {
  const fields = plan.fields;
  if (!fields) return { records, report: () => undefined };
  const missing = new Map(fields.names.map((name, i) => [name, fields.paths[i]!]));
  async function* watched(): AsyncGenerator<Record<string, unknown>> {
    for await (const record of records) {
      if (missing.size > 0) for (const [name, path] of missing) if (getField(record, path) !== undefined) missing.delete(name);
      yield record;
    }
  }
  return {
    records: watched(),
    report(count) {
      // Named by the record's kind: an export of several families says whose field it is.
      if (count > 0 && missing.size > 0) ctx.io.warn(`--fields: no ${view.singular ?? 'record'} has ${[...missing.keys()].join(', ')}`);
    },
  };
}

/** An open pipe: its source may ask where a resumed export continues, and says when a page is done. */
export interface RecordPipe {
  /** A resumable export continued (--resume): the page the source starts after, and the records already written. */
  readonly resumed: Resumed | undefined;
  /** A page of the source is complete (a resumable export checkpoints it). */
  pageDone(done: PageDone): Promise<void>;
  /** Pump every record into the sink and finish it; on any failure it is discarded. */
  write(records: AsyncIterable<Record<string, unknown>>): Promise<{ count: number; files?: FilePart[] }>;
  /** The source failed before write(): leave nothing behind. */
  discard(): Promise<void>;
}

/** Open the run's sink for records shown as `view`; `exported`: the collection a list exports (for a resumable one). */
export async function openPipe(ctx: Context, view: View, exported?: ExportedCollection, bursts?: boolean): Promise<RecordPipe> {
  const plan = ctx.output;
  const sink = await openSink(ctx, view, exported, bursts);
  // Records handed to the sink so far: a page is checkpointed with how many were written with it.
  const handed: PumpTally = { count: sink.resumed?.written ?? 0 };
  return {
    resumed: sink.resumed,
    pageDone: async (done) => sink.pageDone?.(done, handed.count),
    discard: () => sink.discard(),
    async write(records) {
      const fields = watchFields(ctx, plan, records, view);
      let count: number;
      try {
        count = await pump(ctx, fields.records, sink, handed);
        await sink.finish();
      } catch (error) {
        await sink.discard();
        throw error;
      }
      fields.report(count);
      sink.report?.();
      const where = sink.describe();
      if (where !== undefined) ctx.io.notice(`Wrote ${countOf(count, view)} to ${where}`);
      else if (plan.format === 'table' && count === 0) ctx.io.notice(`No ${view.label} found`);
      const files = sink.files?.();
      return files ? { count, files } : { count };
    },
  };
}

/**
 * Stream records in the plan's format to its one sink (stdout, --out, a resumable export, parts).
 * Resolves with how many were written, and for parts the files written (name, records, bytes, sha256).
 */
export async function writeRecords(
  ctx: Context,
  records: AsyncIterable<Record<string, unknown>>,
  view: View,
  source: { bursts?: boolean } = {},
): Promise<{ count: number; files?: FilePart[] }> {
  return (await openPipe(ctx, view, undefined, source.bursts)).write(records);
}
