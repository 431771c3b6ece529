// `appraisal smoke`: refuse production first, run the checks, report them three ways, and exit with
// the code of the first failure (0 only when every check passed; skips are fine).
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Context } from '../../core/context.js';
import { ContractError, SafetyError, UsageError } from '../../core/errors.js';
import { isProductionLike } from '../../core/guards.js';
import { writeJUnitReport } from './report/junit.js';
import { jsonDocument, openDestination, writeRecords } from '../../output/index.js';
import { Binding } from '../../core/description/operation-binding.js';
import type { CheckResult, SmokeCheck, SmokeDescription, SmokeState } from './checks/check.js';
import { selectChecks } from './checks/built-in.js';
import { loadChecksFile, type ChecksFile } from './checks/file.js';
import { resolveChecks, unresolvedChecks } from './checks/custom.js';
import { reportToGitHub } from './report/github.js';
import { verdictOf } from './report/verdict.js';
import { waitReadyCheck } from './checks/wait-ready.js';
import { parseDuration } from '../../core/duration.js';
import { originOf } from '../../core/credentials/origin.js';
import type { Session } from '../../core/session.js';
import { closedGate, firstFailure, newState, runChecks } from './runner.js';
import { buildReport, junitSuite, renderTable, summaryLine, type RunFacts } from './report/render.js';

export interface SmokeCommandOptions {
  junit?: string;
  write?: boolean;
  waitReady?: string;
  maxLatency?: string;
  checks?: string;
  /** commander's --no-contract. */
  contract?: boolean;
}

async function checkJUnitPath(ctx: Context, raw: string): Promise<string> {
  const path = resolve(ctx.cwd, raw);
  const parent = await stat(dirname(path)).catch(() => undefined);
  if (!parent?.isDirectory()) throw new UsageError(`--junit ${raw}: the directory ${dirname(path)} does not exist`);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`--junit ${raw} is a directory; give a file path such as smoke.xml`);
  return path;
}

async function writeJUnit(
  ctx: Context,
  path: string,
  displayPath: string,
  results: readonly CheckResult[],
  facts: RunFacts,
): Promise<void> {
  await writeJUnitReport(path, junitSuite(results, facts));
  ctx.io.notice(`Wrote the JUnit report to ${displayPath}`);
}

async function writeReport(ctx: Context, results: readonly CheckResult[], facts: RunFacts): Promise<void> {
  const format = ctx.output.format;
  // The table is on stderr already: stdout gets the report only when -o asks for a data format,
  // so a CI log is not the same run twice.
  if (format === 'table' || !ctx.output.formatExplicit) return;
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
  await writeRecords(ctx, checks(), { label: 'checks', singular: 'check', columns: ['name', 'status', 'ms', 'detail'] });
}

/** Why smoke refuses this target: a stored profile's environment, or a run without one. */
function refusalOf(session: Session, declared: string | undefined): SafetyError {
  const stored = session.profile !== undefined && originOf(session.profile.baseUrl) === session.origin;
  if (stored) {
    return new SafetyError(
      `smoke refuses the ${session.environment} profile "${session.profileName}" (${session.baseUrl}): test automation never targets production`,
      {
        hint: `use a staging, development or local profile, e.g. \`appraisal smoke --profile staging\`; a profile's environment is set by \`appraisal auth login --profile NAME --environment staging\``,
      },
    );
  }
  const why =
    declared === undefined
      ? 'a run without a stored profile counts as production unless APPRAISAL_ENVIRONMENT or --environment says otherwise'
      : `it is declared ${declared}`;
  return new SafetyError(`smoke refuses ${session.baseUrl}: ${why}; test automation never targets production`, {
    hint: 'for a staging or development service, set APPRAISAL_ENVIRONMENT=staging (or pass --environment staging)',
  });
}

/**
 * Between the checks that need no description and the rest: bind smoke's operations, and the
 * checks file's, to the description every command binds to. A checks file that does not fit the
 * description is refused here (exit 2), before the checks that read data run.
 */
async function bindToDescription(
  ctx: Context,
  state: SmokeState,
  file: ChecksFile | undefined,
  contract: boolean,
  closed: string | undefined,
): Promise<SmokeCheck[]> {
  if (closed !== undefined || !state.reached) return file ? unresolvedChecks(file, { skip: closed ?? 'the reachable check failed' }) : [];
  let description: SmokeDescription;
  try {
    description = await state.describe();
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    // With the contract checks on, the spec check failed with it already.
    if (!contract)
      ctx.io.warn(`could not read the service description (${(error as Error).message}); the built-in checks use the CLI's own paths`);
    return file ? unresolvedChecks(file, { error }) : [];
  }
  const failed = description.loaded.discoveryError;
  // With the contract checks on, the spec check fails with it.
  if (failed && !contract)
    ctx.io.warn(`could not read the service description (${failed.message}); the checks use ${description.loaded.source}`);
  state.description = description;
  const resolved = file ? await resolveChecks(file, description.loaded) : { checks: [], bound: [] };
  state.binding = new Binding('smoke', description.loaded, [...description.bound, ...resolved.bound]);
  return resolved.checks;
}

function durationOption(raw: string | undefined, flag: string, limits: { minMs: number; maxMs: number }): number | undefined {
  return raw === undefined ? undefined : parseDuration(raw, flag, limits);
}

export async function runSmoke(ctx: Context, options: SmokeCommandOptions): Promise<void> {
  const startedAt = ctx.now();
  const start = performance.now();
  // Every flag and file is checked before the first request.
  const junitPath = options.junit === undefined ? undefined : await checkJUnitPath(ctx, options.junit);
  const waitReadyMs = durationOption(options.waitReady, '--wait-ready', { minMs: 1_000, maxMs: 3_600_000 });
  const maxLatencyMs = durationOption(options.maxLatency, '--max-latency', { minMs: 1, maxMs: 600_000 });
  const checksFile = options.checks === undefined ? undefined : await loadChecksFile(ctx, options.checks);
  await ctx.output.ready();
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
    const refusal = refusalOf(session, ctx.globals.environment);
    if (junitPath !== undefined) {
      const result: CheckResult = { name: 'environment', status: 'fail', ms: 0, detail: refusal.message, error: refusal };
      await writeJUnit(ctx, junitPath, options.junit!, [result], facts());
    }
    throw refusal;
  }

  const contract = options.contract !== false;
  const ready = waitReadyMs === undefined ? undefined : waitReadyCheck(waitReadyMs);
  const { before, after } = selectChecks({ write: options.write === true, contract, ready });
  const state = newState(ctx, session);
  const onResult = (result: CheckResult) => ctx.io.debug(`smoke: ${result.name}: ${result.status} (${result.ms} ms) ${result.detail}`);
  const results = await runChecks(state, before, { maxLatencyMs }, onResult);
  const closed = closedGate(before, results);
  let custom: SmokeCheck[];
  try {
    custom = await bindToDescription(ctx, state, checksFile, contract, closed);
  } catch (error) {
    // A checks file that does not fit the description: exit 2, and a CI dashboard still gets a report.
    if (junitPath !== undefined && error instanceof UsageError) {
      const result: CheckResult = { name: 'checks file', status: 'fail', ms: 0, detail: error.message, error };
      await writeJUnit(ctx, junitPath, options.junit!, [...results, result], facts());
    }
    throw error;
  }
  results.push(...(await runChecks(state, [...after, ...custom], { maxLatencyMs, closed }, onResult)));
  const checks = [...before, ...after, ...custom];
  const verdict = verdictOf(checks, results);
  if (verdict) results.push(verdict);
  const done = facts();
  if (!ctx.io.quiet) {
    const width = ctx.io.stderrIsTTY ? (ctx.io.stderr as { columns?: number }).columns : undefined;
    ctx.io.writeErrStyled(renderTable(results, { color: ctx.io.color && ctx.io.stderrIsTTY, width }));
  }
  const summary = summaryLine(results, done.durationMs);
  ctx.io.writeErr(summary);
  if (junitPath !== undefined) await writeJUnit(ctx, junitPath, options.junit!, results, done);
  await reportToGitHub(ctx, results, done, summary);
  await writeReport(ctx, results, done);

  const failure = firstFailure(results);
  if (!failure) return;
  if (!(failure.error instanceof Error)) throw new ContractError(`smoke: ${failure.name}: ${failure.detail}`);
  // The table above (and the report) holds the whole message: the last line names the check and
  // repeats only the head of it (`GET …: 422 Unprocessable Entity`), so the service's text is said once.
  const { error } = failure;
  const head = ctx.io.quiet ? error.message : (error.message.split(' — ')[0] ?? error.message);
  error.message = `smoke: check "${failure.name}" failed: ${head}`;
  throw error;
}
