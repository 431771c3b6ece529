// One `appraisal sync` run: check the flags, open the database (and its one-writer lock) before any
// request, bind the families' operations, read the service's clock, then prepare every family —
// its table shape from the published description, the tables it needs, its state — before anything
// is written, so a family the database cannot take is refused with nothing written; then sync them
// one after another. Rows committed before a failure stay: the next run continues from them.
import type { Context } from '../../core/context.js';
import { originOf } from '../../core/credentials/origin.js';
import { UsageError } from '../../core/errors.js';
import type { Database } from './database.js';
import { quote } from './database.js';
import { batchRows, syncFamily, type FamilyJob, type FamilyResult } from './family-sync.js';
import { planSync, type SyncFlags, type SyncPlan } from './plan.js';
import { reportFamily, reportRun } from './report.js';
import { familySource } from './source.js';
import { checkOrigin, readState, stateTableExists } from './state.js';
import { ensureStateTable, familyTables, planTables } from './tables.js';

async function openDatabase(ctx: Context, plan: SyncPlan): Promise<Database> {
  const { target } = plan;
  if (target.kind === 'duckdb') {
    const { openDuckDB } = await import('./duckdb.js');
    return openDuckDB(target.path, target.shown, { readOnly: plan.dryRun });
  }
  const { openPostgres } = await import('./postgres.js');
  return openPostgres(target.url, ctx.env);
}

export async function runSync(ctx: Context, words: readonly string[], flags: SyncFlags): Promise<void> {
  const plan = planSync(ctx, words, flags);
  const session = await ctx.session();
  const origin = originOf(session.baseUrl);
  const db = await openDatabase(ctx, plan);
  try {
    const schema = plan.schema ?? db.dialect.defaultSchema;
    if (!plan.dryRun) {
      if (!(await db.lock(schema)))
        throw new UsageError(`another sync holds schema ${schema} of ${db.shown}`, {
          hint: 'one sync writes a schema at a time: wait for the other to finish, then run this again',
        });
      if (schema !== db.dialect.defaultSchema) await db.run(`CREATE SCHEMA IF NOT EXISTS ${quote(schema)}`);
      await ensureStateTable(db, schema);
    }
    const api = await ctx.api();
    const first = plan.families[0]!;
    const measured = await ctx.serviceClock.measure(api, first.parent ? '/api/clients' : first.path, ctx.signal);
    if (measured === undefined) ctx.io.warn("the service's answers carry no Date header: watermarks are read from this machine's clock");

    const jobs = await prepare(ctx, db, schema, plan, origin);
    const results: Record<string, FamilyResult> = {};
    for (const job of jobs) {
      const result = await syncFamily(ctx, job, {
        db,
        schema,
        cliVersion: ctx.version,
        overlapMs: plan.overlapMs,
        full: plan.full,
        dryRun: plan.dryRun,
        batchRows: batchRows(ctx.env),
      });
      results[result.table] = result;
      reportFamily(ctx, result, plan.dryRun);
    }
    reportRun(ctx, { target: db.shown, schema, dryRun: plan.dryRun, families: results }, plan.json);
  } finally {
    await db.close();
  }
}

/** Every family's job, read before anything is written: a refusal (a column's type, an origin) writes nothing. */
async function prepare(ctx: Context, db: Database, schema: string, plan: SyncPlan, origin: string): Promise<FamilyJob[]> {
  const { validatorFor, formatViolations } = await import('../../core/description/validate.js');
  const { bindingOf } = await import('../../core/description/routed-client.js');
  const validator = await validatorFor(bindingOf(await ctx.api())!.description.contract);
  const hasState = await stateTableExists(db, schema);
  const jobs: FamilyJob[] = [];
  for (const family of plan.families) {
    const source = await familySource(ctx, family);
    const { main, children } = familyTables(source.shape);
    const changes = await planTables(db, schema, [main, ...children]);
    const state = await readState(db, schema, source.shape.name, hasState);
    checkOrigin(state, origin, `${db.shown} (schema ${schema})`, source.shape.name);
    jobs.push({
      family,
      source,
      check: (record) => validator.record(source.operation, record),
      formatViolations: (violations) => formatViolations(violations, 3),
      changes,
      state,
      origin,
      tableExists: !changes[0]!.create,
    });
  }
  return jobs;
}
