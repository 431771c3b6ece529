// Runs a table of smoke checks once, in order: each is skipped (with its reason), or timed and ends
// as pass or fail. Never throws for a failing check — the caller reports them all, then picks the
// exit code; only an interrupt stops the run.
import type { ApiClient } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { InterruptedError } from '../../core/errors.js';
import type { Session } from '../../core/session-types.js';
import type { CheckResult, SmokeCheck, SmokeState } from './check.js';

function elapsed(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function newState(ctx: Context, session: Session): SmokeState {
  let api: ApiClient | undefined;
  return { ctx, session, propertyTypes: [], client: async () => (api ??= await ctx.api()) };
}

async function runOne(check: SmokeCheck, state: SmokeState): Promise<CheckResult> {
  const { ctx } = state;
  const reason = check.skip?.(state);
  if (reason !== undefined) return { name: check.name, status: 'skip', ms: 0, detail: reason };
  const start = performance.now();
  try {
    const detail = await check.run(state);
    return { name: check.name, status: 'pass', ms: check.untimed ? 0 : elapsed(start), detail };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return { name: check.name, status: 'fail', ms: elapsed(start), detail: ctx.io.redactor.redact(messageOf(error)), error };
  }
}

export async function runChecks(
  state: SmokeState,
  checks: readonly SmokeCheck[],
  onResult?: (result: CheckResult) => void,
): Promise<CheckResult[]> {
  const { signal } = state.ctx;
  const results: CheckResult[] = [];
  for (const check of checks) {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new InterruptedError();
    const result = await runOne(check, state);
    results.push(result);
    onResult?.(result);
  }
  return results;
}

/** The error whose class picks the exit code: the first failure's. */
export function firstFailure(results: readonly CheckResult[]): CheckResult | undefined {
  return results.find((result) => result.status === 'fail');
}
