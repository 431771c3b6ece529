// One `appraisal sync` run: check the flags; open the database while the service's clock is read
// and each family's table shape and record checks are made from the published description (the
// fixed costs of a short run, overlapped); take the one-writer lock; then prepare every family —
// its state, the tables it needs — before anything is written, so a family the database cannot take
// is refused with nothing written (the first family's first page is asked for as soon as its state
// is read, its tables read while the page travels; or before the database opens, from the
// watermark this machine saw last, when the state row then confirms it: watermark-hint.ts); then
// sync them one after another. Rows committed before a failure stay: the next run continues from them.
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { shellWord } from '../../core/shell-word.js';
import type { Database } from './database.js';
import { batchRows, passSince, readPass, syncFamily, type FamilyJob, type FamilyResult } from './family-sync.js';
import { planSync, type SyncFlags, type SyncPlan } from './plan.js';
import { reportFamily, reportRun } from './report.js';
import { familySource, type FamilySource } from './source.js';
import { checkOrigin, readStates, stateTableExists } from './state.js';
import { DEFAULT_TARGET } from './target.js';
import { ensureSchemaAndState, familyTables, planTables, schemaAsSpelled } from './tables.js';
import { RunHints } from './watermark-hint.js';
import { bindFamilies } from '../shared/family-lists.js';

/**
 * The database, opened while `meanwhile` runs: DuckDB opens its file on a thread of its own and
 * Postgres answers over the network, so the run's own set-up (compiling the record checks) costs no
 * time of its own.
 */
async function openDatabase(ctx: Context, plan: SyncPlan, meanwhile: () => Promise<void>): Promise<Database> {
  const { target } = plan;
  if (target.kind === 'duckdb') {
    const { openDuckDB } = await import('./duckdb.js');
    return openDuckDB(target.path, target.shown, { readOnly: plan.dryRun, meanwhile });
  }
  const { openPostgres } = await import('./postgres.js');
  return openPostgres(target.url, ctx.env, meanwhile);
}

/** What a family is read with, found from the description alone (before the database is open). */
type FamilyReader = Pick<FamilyJob, 'family' | 'source' | 'check' | 'formatViolations'>;

/**
 * Each family's table shape, and its record checks (the command binding's validator: ajv loaded),
 * compiled now, while the database opens (a description whose schema cannot be compiled fails here,
 * before anything is written).
 */
async function familyReaders(ctx: Context, plan: SyncPlan): Promise<FamilyReader[]> {
  const { formatViolations } = await import('../../core/description/validate.js');
  const { bindingOf } = await import('../../core/description/routed-client.js');
  const validator = await bindingOf(await ctx.api())!.validator();
  const sources: FamilySource[] = [];
  for (const family of plan.families) sources.push(await familySource(ctx, family));
  for (const source of sources) validator.compileRecord(source.operation);
  return plan.families.map((family, index) => ({
    family,
    source: sources[index]!,
    check: (record) => validator.record(sources[index]!.operation, record),
    formatViolations: (violations) => formatViolations(violations, 3),
  }));
}

/** The flags `appraisal sql` needs to read what this run wrote (none for the default file), or undefined for PostgreSQL. */
function queryingFlags(plan: SyncPlan): string | undefined {
  if (plan.target.kind !== 'duckdb') return undefined;
  const to = `duckdb:${plan.target.shown}` === DEFAULT_TARGET ? '' : ` --to ${shellWord(`duckdb:${plan.target.shown}`)}`;
  return `${to}${plan.schema === undefined ? '' : ` --schema ${shellWord(plan.schema)}`}`;
}

export async function runSync(ctx: Context, words: readonly string[], flags: SyncFlags): Promise<void> {
  const plan = planSync(ctx, words, flags);
  const session = await ctx.session();
  const origin = session.origin;
  const asked = plan.families.map((family) => family.name);
  const api = await bindFamilies(ctx, `leave that family out by naming the ones to sync (this run asked for ${asked.join(' ')})`);
  // The service's clock (one small request) is read while the database opens; stopped if it fails.
  const reading = new AbortController();
  const stopReading = () => reading.abort();
  ctx.signal.addEventListener('abort', stopReading, { once: true });
  const first = plan.families[0]!;
  const clock = ctx.serviceClock.measure(api, first.parent ? '/api/clients' : first.path, reading.signal);
  clock.catch(() => undefined);
  // Asked for before the database opens when this machine knows where its state will say to start.
  const hints = new RunHints(ctx, plan, origin);
  await hints.askEarly(first);
  let readers: FamilyReader[] = [];
  let db: Database;
  let closing: Promise<void> | undefined;
  try {
    db = await openDatabase(ctx, plan, async () => {
      readers = await familyReaders(ctx, plan);
    });
  } catch (error) {
    stopReading();
    ctx.signal.removeEventListener('abort', stopReading);
    await hints.stop();
    throw error;
  }
  try {
    const schema = await schemaAsSpelled(db, plan.schema ?? db.dialect.defaultSchema);
    if (!plan.dryRun) {
      if (!(await db.lock(schema))) {
        const holder = await db.lockHolder?.(schema);
        throw new UsageError(`another sync holds schema ${schema} of ${db.shown}${holder ? ` (${holder})` : ''}`, {
          hint:
            'one sync writes a schema at a time: wait for the other to finish, then run this again ' +
            '(a pooler in transaction mode keeps the lock of a sync that has ended: connect in session mode)',
        });
      }
      await ensureSchemaAndState(db, schema);
    }
    // A writing run has just made sure of the state table; a dry run asks whether it is there.
    const hasState = !plan.dryRun || (await stateTableExists(db, schema));
    const jobs = await prepare(ctx, db, schema, readers, origin, hasState, plan, hints);
    // Awaited only now: its answer came while the database answered prepare's reads.
    const measured = await clock.catch(async (error: unknown) => {
      await jobs[0]?.reading?.stop();
      throw error;
    });
    if (measured === undefined) ctx.io.warn("the service's answers carry no Date header: watermarks are read from this machine's clock");

    const results: Record<string, FamilyResult> = {};
    for (const job of jobs) {
      const { result, watermark } = await syncFamily(ctx, job, {
        db,
        schema,
        cliVersion: ctx.version,
        overlapMs: plan.overlapMs,
        full: plan.full,
        dryRun: plan.dryRun,
        batchRows: batchRows(ctx.env),
      });
      hints.note(job.family, watermark, job.source.incremental);
      results[result.table] = result;
      reportFamily(ctx, result, plan.dryRun);
    }
    // Everything is committed: the database closes (its checkpoint) while the hints are kept and the summary printed.
    closing = db.close();
    closing.catch(() => undefined);
    await hints.keep();
    reportRun(ctx, { target: db.shown, schema, dryRun: plan.dryRun, families: results }, plan.json, queryingFlags(plan));
  } finally {
    stopReading();
    ctx.signal.removeEventListener('abort', stopReading);
    await hints.stop();
    // A run that failed after some families finished keeps their watermarks too: they are committed.
    await hints.keep();
    await (closing ?? db.close());
  }
}

/**
 * Every family's job, read before anything is written: a refusal (an origin, a column's type) writes
 * nothing. The states are one query and the tables another, whatever the number of families. The
 * first family's first page is asked for as soon as the states say from when (unless it was asked
 * from the same point already, from the hint), and the tables are read while it travels (a short
 * run's wait for the service came after them otherwise); a refusal ends that reading.
 */
async function prepare(
  ctx: Context,
  db: Database,
  schema: string,
  readers: readonly FamilyReader[],
  origin: string,
  hasState: boolean,
  plan: SyncPlan,
  hints: RunHints,
): Promise<FamilyJob[]> {
  const states = await readStates(db, schema, hasState);
  const stateOf = (reader: FamilyReader) => states.get(reader.source.shape.name);
  for (const reader of readers) checkOrigin(stateOf(reader), origin, `${db.shown} (schema ${schema})`, reader.source.shape.name);
  const first = { ...readers[0]!, state: stateOf(readers[0]!) };
  const reading = (await hints.take(passSince(first, plan), first.source.shape.name)) ?? readPass(ctx, first, plan);
  try {
    const tables = readers.map((reader) => {
      const { main, children } = familyTables(reader.source.shape);
      return [main, ...children];
    });
    const changes = await planTables(db, schema, tables.flat());
    let at = 0;
    return readers.map((reader, index) => {
      const own = changes.slice(at, (at += tables[index]!.length));
      const job: FamilyJob = { ...reader, changes: own, state: stateOf(reader), origin, tableExists: !own[0]!.create };
      return index === 0 ? { ...job, reading } : job;
    });
  } catch (error) {
    await reading.stop();
    throw error;
  }
}
