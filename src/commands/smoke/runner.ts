// Runs a table of smoke checks once, in order: each is skipped (with its reason), or timed and ends
// as pass or fail — a pass slower than its latency budget fails too. A failure carries the details
// that reproduce it. Never throws for a failing check — the caller reports them all, then picks the
// exit code; only an interrupt stops the run.
import type { ApiClient } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { formatDuration } from '../../core/duration.js';
import { ExpectationError, InterruptedError } from '../../core/errors.js';
import type { Session } from '../../core/session.js';
import { bindClient } from '../../core/description/routed-client.js';
import type { CheckResult, SmokeCheck, SmokeDescription, SmokeState } from './checks/check.js';
import { readDescription } from './checks/description.js';
import { failureDetails } from './report/details.js';

export interface RunOptions {
  /** --max-latency: the budget of every timed check without one of its own. */
  maxLatencyMs?: number | undefined;
  /** An earlier run's gate that closed (--wait-ready failed): every check is skipped with it. */
  closed?: string | undefined;
}

function elapsed(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function newState(ctx: Context, session: Session): SmokeState {
  // smoke declares no operations of its own to the factory: ctx.api() is the client as built, and
  // smoke binds it here, operation by operation (checks/description.ts), once it has read the description.
  let raw: Promise<ApiClient> | undefined;
  let bound: { client: ApiClient; binding: SmokeState['binding'] } | undefined;
  let description: Promise<SmokeDescription> | undefined;
  const unbound = () => (raw ??= ctx.api());
  const state: SmokeState = {
    ctx,
    session,
    propertyTypes: [],
    async client() {
      if (!state.binding) return unbound();
      if (bound?.binding !== state.binding) bound = { client: bindClient(await unbound(), state.binding), binding: state.binding };
      return bound.client;
    },
    describe: () => (description ??= unbound().then((api) => readDescription(ctx, api))),
  };
  return state;
}

async function runOne(check: SmokeCheck, state: SmokeState, options: RunOptions): Promise<CheckResult> {
  const { ctx } = state;
  const reason = check.skip?.(state);
  if (reason !== undefined) return { name: check.name, status: 'skip', ms: 0, detail: reason };
  const budgetMs = check.untimed || check.noBudget ? undefined : (check.maxLatencyMs ?? options.maxLatencyMs);
  const budget = budgetMs === undefined ? {} : { budgetMs };
  const start = performance.now();
  let error: unknown;
  let ms: number;
  try {
    const detail = await check.run(state);
    ms = check.untimed ? 0 : elapsed(start);
    if (budgetMs === undefined || ms <= budgetMs) return { name: check.name, status: 'pass', ms, detail, ...budget };
    error = new ExpectationError(`took ${formatDuration(ms)}, over its latency budget of ${formatDuration(budgetMs)} (${detail})`);
  } catch (thrown) {
    if (ctx.signal.aborted) throw thrown;
    error = thrown;
    ms = elapsed(start);
  }
  const redact = (text: string) => ctx.io.redactor.redact(text);
  const request = safely(() => check.request?.(state));
  const failure = failureDetails(state.session, error, request, redact);
  return { name: check.name, status: 'fail', ms, detail: redact(messageOf(error)), error, ...budget, ...(failure ? { failure } : {}) };
}

/** A check's request may depend on state a failed check never set: then there is none to show. */
function safely<T>(get: () => T): T | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}

export async function runChecks(
  state: SmokeState,
  checks: readonly SmokeCheck[],
  options: RunOptions = {},
  onResult?: (result: CheckResult) => void,
): Promise<CheckResult[]> {
  const { signal } = state.ctx;
  const results: CheckResult[] = [];
  let closed = options.closed;
  for (const check of checks) {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new InterruptedError();
    const result: CheckResult =
      closed === undefined ? await runOne(check, state, options) : { name: check.name, status: 'skip', ms: 0, detail: closed };
    if (result.status === 'fail' && check.gate !== undefined) closed = check.gate;
    results.push(result);
    onResult?.(result);
  }
  return results;
}

/** The reason every later check is skipped, when a gate among these checks failed. */
export function closedGate(checks: readonly SmokeCheck[], results: readonly CheckResult[]): string | undefined {
  return checks.find((check, index) => check.gate !== undefined && results[index]?.status === 'fail')?.gate;
}

/** The error whose class picks the exit code: the first failure's. */
export function firstFailure(results: readonly CheckResult[]): CheckResult | undefined {
  return results.find((result) => result.status === 'fail');
}
