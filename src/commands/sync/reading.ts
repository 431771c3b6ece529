// A family's pass as sync reads it: its records with the first page asked for at once (so that the
// database is opened and its tables read while it travels), and, for a person watching stderr, how
// many were read so far (output/progress.ts: a terminal, not --quiet). A reading that will not be
// iterated (a refusal, or a page asked from a hint the database did not confirm) stops at once: its
// requests in flight are aborted, not waited for.
import type { ApiRecord } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import type { ResourceFamily } from '../../core/resources.js';
import { createProgress, type Progress } from '../../output/index.js';
import { familyRecords } from './source.js';

/** A pass's records, the first already asked for. */
export interface Reading {
  /** updatedSince of the reading (ISO 8601), undefined for every record. */
  since: string | undefined;
  records: AsyncIterable<ApiRecord>;
  /** Resolves once the asking had its turn (the request is on its way); never rejects: a failure is the first item's. */
  asked: Promise<void>;
  /** This machine's time (ms) the first item was asked for at. */
  startedAt: number;
  /** Ends the reading when its records will not be iterated (its requests aborted). */
  stop(): Promise<void>;
  /** The count read so far on stderr: stopped (its line cleared) before the family's summary. */
  progress: Progress;
}

/** The family's records (updated at or after `since`, when given), the first asked for now. */
export function startPass(ctx: Context, family: ResourceFamily, since: string | undefined): Reading {
  const progress = createProgress(ctx, family.view.label);
  // Until the first page answers (the database is opened and its tables read meanwhile).
  progress.text(`Reading ${family.view.label}`);
  const stopping = new AbortController();
  const signal = AbortSignal.any([ctx.signal, stopping.signal]);
  const records = familyRecords(ctx, family, since, (read, total) => progress.update(read, total), signal);
  const iterator = records[Symbol.asyncIterator]();
  const startedAt = ctx.now().getTime();
  const first = iterator.next();
  first.catch(() => undefined);
  async function* rest(): AsyncGenerator<ApiRecord> {
    let finished = false;
    try {
      for (let step = await first; !step.done; step = await iterator.next()) yield step.value;
      finished = true;
    } finally {
      if (!finished) await iterator.return?.();
    }
  }
  return {
    since,
    records: rest(),
    asked: new Promise((resolve) => setImmediate(resolve)),
    startedAt,
    stop: async () => {
      progress.stop();
      stopping.abort();
      await iterator.return?.();
    },
    progress,
  };
}
