// One family into its tables: records read in batches of at most 1,000; each batch checked against
// the published schema (a record that breaks it stops the run with exit 9 and nothing of its batch
// written), sorted into new, changed and unchanged against the table, and its new and changed rows
// committed in one transaction with the family's state row. A full pass then marks the rows whose
// records the service no longer lists (never deleting them), in batches too; last, the state row's
// watermark moves to the service time this pass started at (in the last batch's transaction when
// there is nothing to mark). A dry run reads and counts, and writes nothing.
import type { ApiRecord } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { IdSet } from '../../core/http/id-set.js';
import type { Database } from './database.js';
import { checkBatch, type BatchChecks } from './batch-check.js';
import { classify, countRows, liveIdsAfter, markGone, writeRecords, type Classified } from './rows.js';
import { startPass, type Reading } from './reading.js';
import type { FamilySource } from './source.js';
import { writeState, type FamilyState } from './state.js';
import type { TableChange } from './tables.js';

/** The most rows one transaction writes. */
export const BATCH_ROWS = 1000;
/** Live ids read at a time when a full pass looks for the rows gone from the service. */
const LIVE_PAGE = 10_000;

/**
 * The batch size of this run: BATCH_ROWS, or less when APPRAISAL_SYNC_BATCH_ROWS asks (the crash
 * tests use small batches, so a few hundred records make many transactions to be killed in).
 */
export function batchRows(env: Readonly<Record<string, string | undefined>>): number {
  const asked = Number(env.APPRAISAL_SYNC_BATCH_ROWS);
  return Number.isInteger(asked) && asked >= 1 && asked < BATCH_ROWS ? asked : BATCH_ROWS;
}

/** A family to sync: its source, its record checks (compiled before the database opened), its tables and state. */
export interface FamilyJob extends BatchChecks {
  source: FamilySource;
  changes: readonly TableChange[];
  state: FamilyState | undefined;
  origin: string;
  /** Whether the family's table is already there (so rows may be in it). */
  tableExists: boolean;
  /** The pass's reading when it was started before the job was made (run.ts: the first family's). */
  reading?: Reading;
}

export interface FamilyResult {
  table: string;
  mode: 'full' | 'incremental';
  /** updatedSince of an incremental pass (ISO 8601). */
  since: string | null;
  new: number;
  changed: number;
  unchanged: number;
  gone: number;
  /** `table.column` of each column added (a dry run: would be added). */
  columnsAdded: string[];
  /** Tables created (a dry run: would be created). */
  tablesCreated: string[];
  /** Live rows after the run (a dry run: before it). */
  records: number;
}

export interface RunFacts {
  db: Database;
  schema: string;
  cliVersion: string;
  overlapMs: number;
  full: boolean;
  dryRun: boolean;
  /** Rows per transaction (batchRows). */
  batchRows: number;
}

/** A batch's records to write: new ones, and changed ones. */
type Written = Pick<Classified, 'fresh' | 'changed'>;
const NOTHING: Written = { fresh: [], changed: [] };
const size = (written: Written) => written.fresh.length + written.changed.length;

/** Service time now (ms), this machine's when the service sends no Date header. */
function serviceNow(ctx: Context): number {
  return ctx.serviceClock.now() ?? ctx.now().getTime();
}

/** When (ISO 8601) an incremental pass from this watermark reads from: the watermark less the overlap. */
export function sinceOf(watermark: number, overlapMs: number): string {
  return new Date(watermark - overlapMs).toISOString();
}

/** When (ISO 8601) this pass reads from: null for a full pass. */
export function passSince(job: Pick<FamilyJob, 'source' | 'state'>, run: Pick<RunFacts, 'full' | 'overlapMs'>): string | null {
  const watermark = job.state?.watermark;
  const incremental = !run.full && job.source.incremental && watermark != null;
  return incremental ? sinceOf(watermark, run.overlapMs) : null;
}

/** The records of the family's pass (reading.ts), its first page asked for at once. */
export function readPass(
  ctx: Context,
  job: Pick<FamilyJob, 'family' | 'source' | 'state'>,
  run: Pick<RunFacts, 'full' | 'overlapMs'>,
): Reading {
  return startPass(ctx, job.family, passSince(job, run) ?? undefined);
}

/** A family synced: what the run says of it, and the watermark its state row now holds (null: a dry run wrote none). */
export interface FamilyOutcome {
  result: FamilyResult;
  watermark: number | null;
}

export async function syncFamily(ctx: Context, job: FamilyJob, run: RunFacts): Promise<FamilyOutcome> {
  const reading = job.reading ?? readPass(ctx, job, run);
  try {
    return await syncPass(ctx, job, reading, run);
  } finally {
    // The count's line is cleared before the family's summary, or the error, is printed.
    reading.progress.stop();
  }
}

async function syncPass(ctx: Context, job: FamilyJob, reading: Reading, run: RunFacts): Promise<FamilyOutcome> {
  const { db, schema } = run;
  const { shape } = job.source;
  const previous = job.state;
  const since = passSince(job, run);
  const incremental = since !== null;
  // The service time the pass started at (its first page asked for), the watermark it leaves.
  const startedAt = serviceNow(ctx) - (ctx.now().getTime() - reading.startedAt);
  const result: FamilyResult = {
    table: shape.name,
    mode: incremental ? 'incremental' : 'full',
    since,
    new: 0,
    changed: 0,
    unchanged: 0,
    gone: 0,
    columnsAdded: job.changes.flatMap((change) => (change.create ? [] : change.add.map((column) => `${change.spec.name}.${column.name}`))),
    tablesCreated: job.changes.filter((change) => change.create).map((change) => change.spec.name),
    records: previous?.records ?? 0,
  };
  let tableExists = job.tableExists;
  // Counted while the first page travels (a failure ends the reading); a writing run over rows its
  // state counts takes that count (the last transaction counts again), a query less on the way of a
  // short run whose page has already come.
  const known = !run.dryRun && job.tableExists && (previous?.records ?? 0) > 0;
  const counted = known
    ? { live: previous!.records, all: previous!.records }
    : job.tableExists
      ? await countRows(db, schema, shape.name).catch(async (error: unknown) => {
          await reading.stop();
          throw error;
        })
      : { live: 0, all: 0 };
  let records = counted.live;
  // A table with no rows at all when the pass begins: every record read is new (the reader never
  // gives an id twice), so batches are not compared with the table, and no row can be gone.
  const startedEmpty = counted.all === 0;
  // The ids a full pass read, to find the rows whose records are gone.
  const seen = incremental || startedEmpty ? undefined : new IdSet();
  // Child tables this run creates hold only this pass's rows: nothing of theirs to replace.
  const freshChildren = new Set(job.changes.filter((change) => change.create).map((change) => change.spec.name));
  if (run.dryRun) result.records = records;
  const facts = () => ({ cliVersion: run.cliVersion, syncedAt: ctx.now().toISOString() });
  // The state a batch commits with: the previous pass's watermark until this pass has finished.
  const state = (): FamilyState => ({
    origin: job.origin,
    watermark: previous?.watermark ?? null,
    lastFullAt: previous?.lastFullAt ?? null,
    records,
  });

  // The first page was asked for (readPass): new tables and columns are made while it travels.
  try {
    await reading.asked;
    if (!run.dryRun && job.changes.some((change) => change.create || change.add.length > 0)) {
      const { applyTables } = await import('./tables.js');
      await db.transaction(() => applyTables(db, schema, job.changes));
      tableExists = true;
    }
  } catch (error) {
    await reading.stop();
    throw error;
  }

  /** A batch checked and counted; the records to write (none in a dry run). */
  const sort = async (batch: readonly ApiRecord[]): Promise<Written> => {
    // Compared with the table (on DuckDB's or the server's side) while its records are checked here.
    const sorting = classify(db, schema, shape, batch, tableExists && !startedEmpty);
    try {
      checkBatch(job, batch);
    } catch (error) {
      await sorting.catch(() => undefined);
      throw error;
    }
    const sorted = await sorting;
    result.new += sorted.fresh.length;
    result.changed += sorted.changed.length;
    result.unchanged += sorted.unchanged;
    if (run.dryRun) return NOTHING;
    records += sorted.fresh.length;
    return sorted;
  };
  const write = (written: Written) => writeRecords(db, schema, shape, written, ctx.now().toISOString(), freshChildren);
  /** One transaction: the records and the state row. */
  const commit = async (written: Written) => {
    if (size(written) === 0) return;
    await db.transaction(async () => {
      await write(written);
      await writeState(db, schema, shape.name, state(), facts());
    });
  };

  // A batch's transaction runs while the next batch is read (one at a time, in order, the next
  // sorted only once it committed): the database's time overlaps the service's latency.
  let writing: Promise<void> = Promise.resolve();
  const flush = async (batch: readonly ApiRecord[]) => {
    await writing;
    writing = commit(await sort(batch));
    writing.catch(() => undefined);
  };

  let batch: ApiRecord[] = [];
  try {
    for await (const record of reading.records) {
      seen?.add(record.id);
      batch.push(record);
      if (batch.length >= run.batchRows) {
        await flush(batch);
        batch = [];
      }
    }
  } catch (error) {
    // The batch on its way ends (committed or not) before the run stops.
    await writing.catch(() => undefined);
    throw error;
  }
  await writing;
  // The last batch commits with the finished state (one transaction less), unless rows gone from
  // the service are still to be marked after it.
  let last = batch.length > 0 ? await sort(batch) : NOTHING;

  if (seen) {
    await commit(last);
    last = NOTHING;
    // The live rows in pages (in id order, so marking some gone does not move the next page), the
    // gone ones marked a batch at a time.
    let gone: string[] = [];
    const mark = async () => {
      result.gone += gone.length;
      if (!run.dryRun && gone.length > 0) {
        const some = gone;
        await db.transaction(async () => {
          await markGone(db, schema, shape.name, some, ctx.now().toISOString());
          await writeState(db, schema, shape.name, state(), facts());
        });
      }
      gone = [];
    };
    for (let after: string | null = null; ;) {
      const page = await liveIdsAfter(db, schema, shape.name, after, LIVE_PAGE);
      for (const id of page) {
        if (!seen.add(id)) continue;
        gone.push(id);
        if (gone.length >= run.batchRows) await mark();
      }
      if (page.length < LIVE_PAGE) break;
      after = page[page.length - 1]!;
    }
    await mark();
  }
  if (run.dryRun) return { result, watermark: null };

  await db.transaction(async () => {
    if (size(last) > 0) await write(last);
    records = (await countRows(db, schema, shape.name)).live;
    const finished: FamilyState = {
      ...state(),
      records,
      watermark: startedAt,
      lastFullAt: incremental ? (previous?.lastFullAt ?? null) : startedAt,
    };
    await writeState(db, schema, shape.name, finished, facts());
  });
  result.records = records;
  return { result, watermark: startedAt };
}
