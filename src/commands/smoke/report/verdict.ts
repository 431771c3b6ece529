// A smoke run must not pass, or fail, without saying when it proved nothing: every check that reads
// or writes data skipped, or every one that ran refused with 401/403 (Schemathesis warns the same).
import { AuthenticationError, ExpectationError, PermissionError } from '../../../core/errors.js';
import type { CheckResult, SmokeCheck } from '../checks/check.js';

export const VERDICT = 'verdict';

/** The failing verdict row to add, if the run proved nothing; undefined when it proved something. */
export function verdictOf(checks: readonly SmokeCheck[], results: readonly CheckResult[]): CheckResult | undefined {
  const probes = new Set(checks.filter((check) => check.probe).map((check) => check.name));
  const probed = results.filter((result) => probes.has(result.name));
  if (probed.length === 0 || probed.some((result) => result.status === 'pass')) return undefined;
  const failed = results.filter((result) => result.status === 'fail');
  if (failed.length > 0 && failed.every((result) => isRefusal(result.error))) {
    const message = 'every check that reached the service with the key was refused (401/403): the run proved nothing about the service';
    // The refusal's own class keeps its exit code (4 or 5).
    return { name: VERDICT, status: 'fail', ms: 0, detail: message, error: failed[0]!.error };
  }
  if (failed.length === 0) {
    const message = `all ${probed.length} data checks were skipped: the run proved nothing about the service`;
    return { name: VERDICT, status: 'fail', ms: 0, detail: message, error: new ExpectationError(message) };
  }
  return undefined;
}

function isRefusal(error: unknown): boolean {
  return error instanceof AuthenticationError || error instanceof PermissionError;
}
