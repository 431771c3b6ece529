// `appraisal smoke`: refuse production first, run the checks, report them three ways, and exit with
// the code of the first failure (0 only when every check passed; skips are fine).
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Context } from '../../core/context.js';
import { ContractError, SafetyError, UsageError } from '../../core/errors.js';
import { isProductionLike } from '../../core/guards.js';
import { writeJUnitReport } from './junit.js';
import { openDestination } from '../../output/destination.js';
import { jsonDocument } from '../../output/json.js';
import { outputFormat, prepareDestination, writeRecords } from '../../output/index.js';
import type { CheckResult } from './check.js';
import { selectChecks } from './checks.js';
import { firstFailure, newState, runChecks } from './runner.js';
import { buildReport, junitSuite, renderTable, summaryLine, type RunFacts } from './report.js';

export interface SmokeCommandOptions {
  junit?: string;
  write?: boolean;
}

async function checkJUnitPath(ctx: Context, raw: string): Promise<string> {
  const path = resolve(ctx.cwd, raw);
  const parent = await stat(dirname(path)).catch(() => undefined);
  if (!parent?.isDirectory()) throw new UsageError(`--junit ${raw}: the directory ${dirname(path)} does not exist`);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`--junit ${raw} is a directory; give a file path such as smoke.xml`);
  return path;
}

async function writeJUnit(ctx: Context, path: string, displayPath: string, results: readonly CheckResult[], facts: RunFacts): Promise<void> {
  await writeJUnitReport(path, junitSuite(results, facts));
  ctx.io.notice(`Wrote the JUnit report to ${displayPath}`);
}

async function writeReport(ctx: Context, results: readonly CheckResult[], facts: RunFacts): Promise<void> {
  const format = outputFormat(ctx);
  // The table is on stderr already; stdout gets data only when a data format is in use.
  if (format === 'table') return;
  const report = buildReport(results, facts);
  if (format === 'json') {
    const destination = await openDestination(ctx);
    try {
      await destination.write(jsonDocument(report as unknown as Record<string, unknown>));
      await destination.finish();
    } catch (error) {
      await destination.discard();
      throw error;
    }
    return;
  }
  async function* checks() {
    yield* report.checks;
  }
  await writeRecords(ctx, checks(), { label: 'checks', columns: ['name', 'status', 'ms', 'detail'] });
}

export async function runSmoke(ctx: Context, options: SmokeCommandOptions): Promise<void> {
  const startedAt = ctx.now();
  const start = performance.now();
  const junitPath = options.junit === undefined ? undefined : await checkJUnitPath(ctx, options.junit);
  await prepareDestination(ctx);
  const session = await ctx.session();
  const facts = (): RunFacts => ({
    environment: session.environment,
    profile: session.profileName,
    baseUrl: session.baseUrl,
    keyPrefix: session.credential?.prefix,
    startedAt,
    durationMs: performance.now() - start,
  });

  // Before any request: test automation never targets production, nor anything that might be it.
  if (isProductionLike(session.environment)) {
    const refusal = new SafetyError(
      `smoke refuses the ${session.environment} profile "${session.profileName}" (${session.baseUrl}): test automation never targets production`,
      {
        hint: `use a staging, development or local profile, e.g. \`appraisal smoke --profile staging\`; a profile's environment is set by \`appraisal auth login --profile NAME --environment staging\``,
      },
    );
    if (junitPath !== undefined) {
      const result: CheckResult = { name: 'environment', status: 'fail', ms: 0, detail: refusal.message, error: refusal };
      await writeJUnit(ctx, junitPath, options.junit!, [result], facts());
    }
    throw refusal;
  }

  const results = await runChecks(newState(ctx, session), selectChecks({ write: options.write === true }), (result) =>
    ctx.io.debug(`smoke: ${result.name}: ${result.status} (${result.ms} ms) ${result.detail}`),
  );
  const done = facts();
  if (!ctx.io.quiet) {
    const width = ctx.io.stderrIsTTY ? (ctx.io.stderr as { columns?: number }).columns : undefined;
    ctx.io.writeErrStyled(renderTable(results, { color: ctx.io.color && ctx.io.stderrIsTTY, width }));
  }
  ctx.io.writeErr(summaryLine(results, done.durationMs));
  if (junitPath !== undefined) await writeJUnit(ctx, junitPath, options.junit!, results, done);
  await writeReport(ctx, results, done);

  const failure = firstFailure(results);
  if (failure) throw failure.error instanceof Error ? failure.error : new ContractError(`smoke: ${failure.name}: ${failure.detail}`);
}
