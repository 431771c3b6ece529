// Key rotation that never locks anyone out: the table of steps (steps.ts) run once, in order; on a
// failure, the undo of every step begun, in reverse, then one check that the old key still works.
// What is said about it lives in messages.ts; the one error a failed rotation exits with is
// RotationError, whose exit code is its cause's (the exit-code table looks through it).
import { AppError, InterruptedError, OperationError } from '../../../core/errors.js';
import type { AuditStep } from './audit-log.js';
import { CURRENT_KEY_PATH } from '../records.js';
import { messageOf, rotationFailure, stepNumber, stepTitle, type FailureContext } from './messages.js';
import { ROTATION_STEPS } from './steps.js';
import type { RollbackState, RotationDeps, RotationReport, RotationRequest, RotationState, RotationStepDef } from './types.js';

export { rotatedName, replacementExpiry } from './steps.js';
export { rotationFailure, type FailureContext } from './messages.js';
export type * from './types.js';

/** A rotation that did not finish cleanly: the rotation's message, the failing step's exit code. */
export class RotationError extends OperationError {
  override readonly name: string = 'RotationError';
  constructor(
    message: string,
    readonly report: RotationReport,
    hint: string | undefined,
  ) {
    super(message, report.error, hint);
  }
}

const BUG_HINT = 'this is a bug in appraisal-cli; please report it with the command you ran and the output of --verbose';

export function rotationError(report: RotationReport, context: FailureContext): RotationError {
  const { message, hint } = rotationFailure(report, context);
  // A bug in a step: still say what state the keys are in (exit 1, as any bug).
  return new RotationError(message, report, report.error instanceof AppError ? hint : (hint ?? BUG_HINT));
}

async function timedInto<T>(list: AuditStep[], clock: () => number, step: string, work: () => Promise<T>): Promise<T> {
  const started = clock();
  const ms = () => Math.round(clock() - started);
  try {
    const value = await work();
    list.push({ step, ok: true, ms: ms() });
    return value;
  } catch (error) {
    list.push({ step, ok: false, ms: ms(), error: messageOf(error) });
    throw error;
  }
}

export async function rotateKey(request: RotationRequest, deps: RotationDeps): Promise<RotationReport> {
  const plan = ROTATION_STEPS.filter((step) => step.present?.(request) ?? true);
  const report: RotationReport = {
    outcome: 'rolled-back',
    plan: plan.map((step) => step.name),
    oldPrefix: request.oldPrefix,
    oldKey: undefined,
    newKey: undefined,
    newPrefix: undefined,
    steps: [],
    rollback: [],
    failedStep: undefined,
    error: undefined,
    oldKeyWorks: undefined,
    maybeCreatedName: undefined,
    delivered: [],
    pending: undefined,
  };
  const state: RotationState = { request, deps, report, slotTouched: false, profileTouched: false };
  const begun: RotationStepDef[] = [];
  let failed: RotationStepDef | undefined;
  try {
    for (const step of plan) {
      if (step.skip?.(request)) continue;
      begun.push(step);
      failed = step;
      await timedInto(report.steps, deps.clock, step.name, async () => {
        if (deps.interrupted()) {
          throw new InterruptedError(`interrupted before step ${stepNumber(report.plan, step.name)} (${stepTitle(step.name)})`);
        }
        await step.run(state);
      });
    }
    report.outcome = 'rotated';
    return report;
  } catch (error) {
    report.error = error;
    report.failedStep = failed?.name;
    if (failed?.final) {
      report.outcome = 'rotated-old-key-active';
      return report;
    }
    await rollBack(state, begun.reverse());
    return report;
  }
}

async function rollBack(state: RotationState, begun: RotationStepDef[]): Promise<void> {
  const { deps, report } = state;
  const rollback: RollbackState = {
    slotHoldsOld: !state.slotTouched,
    newKeyActive: false,
    timed: (step, work) => timedInto(report.rollback, deps.clock, step, work),
  };
  for (const step of begun) await step.undo?.(state, rollback);

  // Is the profile still working? One request with the old key.
  try {
    await rollback.timed('check-old-key', () => deps.oldClient.get(CURRENT_KEY_PATH));
    report.oldKeyWorks = true;
  } catch {
    report.oldKeyWorks = false;
  }

  if (!rollback.slotHoldsOld) report.outcome = 'both-keys-active';
  else report.outcome = rollback.newKeyActive ? 'rolled-back-new-key-active' : 'rolled-back';
}
