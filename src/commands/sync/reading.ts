// A family's pass as sync reads it: its records with the first page asked for at once (so that the
// tables are read and the record checks compiled while it travels), and, for a person watching
// stderr, how many were read so far (output/progress.ts: a terminal, not --quiet).
import type { ApiRecord } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import type { ResourceFamily } from '../../core/resources.js';
import { createProgress, type Progress } from '../../output/index.js';
import { familyRecords } from './source.js';

/** A pass's records, the first already asked for. */
export interface Reading {
  records: AsyncIterable<ApiRecord>;
  /** Resolves once the asking had its turn (the request is on its way); never rejects: a failure is the first item's. */
  asked: Promise<void>;
  /** This machine's time (ms) the first item was asked for at. */
  startedAt: number;
  /** Ends the reading when its records will not be iterated (closing the reader once its first page is in). */
  stop(): Promise<void>;
  /** The count read so far on stderr: stopped (its line cleared) before the family's summary. */
  progress: Progress;
}

/** The family's records (updated at or after `since`, when given), the first asked for now. */
export function startPass(ctx: Context, family: ResourceFamily, since: string | undefined): Reading {
  const progress = createProgress(ctx, family.view.label);
  // Until the first page answers (the database is opened and its tables read meanwhile).
  progress.text(`Reading ${family.view.label}`);
  const records = familyRecords(ctx, family, since, (read, total) => progress.update(read, total));
  return startReading(records, ctx.now().getTime(), progress);
}

/** `records` with its first item asked for at once (at `startedAt`). */
function startReading(records: AsyncIterable<ApiRecord>, startedAt: number, progress: Progress): Reading {
  const iterator = records[Symbol.asyncIterator]();
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
    records: rest(),
    asked: new Promise((resolve) => setImmediate(resolve)),
    startedAt,
    stop: async () => {
      progress.stop();
      await iterator.return?.();
    },
    progress,
  };
}
