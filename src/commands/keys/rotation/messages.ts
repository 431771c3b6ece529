// Everything `keys rotate` says to people: the step titles, the progress lines and, after a
// rotation that did not finish cleanly, exactly what happened, what state the keys and the profile
// are in, and the command that finishes the job. Prefixes only, never a secret.
import { AppError, InterruptedError, PermissionError } from '../../../core/errors.js';
import { describeKey, type KeyRecord } from '../records.js';
import type { RotationReport, RotationStep } from './types.js';

export const STEP_TITLES: Record<RotationStep, string> = {
  'read-current': 'read the current key',
  create: 'create the replacement',
  'verify-new': 'verify the new key',
  store: 'store the new key',
  'verify-stored': 'verify the stored key',
  deliver: 'deliver the new key',
  'revoke-old': 'revoke the old key',
  'schedule-revoke-old': "schedule the old key's revocation",
};

export const progress = {
  read: (oldKey: KeyRecord, oldPrefix: string) =>
    `read key ${describeKey({ ...oldKey, prefix: oldPrefix })}: scopes ${(oldKey.scopes ?? []).join(' ')}${oldKey.expiresAt ? `, expires ${oldKey.expiresAt}` : ''}`,
  created: (newKey: KeyRecord) => `created key ${describeKey(newKey)}${newKey.expiresAt ? `, expires ${newKey.expiresAt}` : ''}`,
  verified: (newPrefix: string) => `verified key ${newPrefix} with the service`,
  stored: (newPrefix: string, where: string) => `stored key ${newPrefix} in ${where}`,
  verifiedStored: () => 'verified the stored key',
  delivered: (label: string) => `delivered the new key to ${label}`,
  revoked: (oldPrefix: string) => `revoked key ${oldPrefix}`,
  scheduled: (oldPrefix: string, dueAt: string) =>
    `key ${oldPrefix} stays valid until ${dueAt} (--grace); \`appraisal keys revoke --due\` revokes it then`,
  restored: (oldPrefix: string, where: string) => `put key ${oldPrefix} back in ${where}`,
  revokedNew: (newKey: string) => `revoked the new key ${newKey}`,
};

export function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
}

/** "3/6": the step's place among the steps this rotation runs. */
export function stepNumber(plan: readonly RotationStep[], step: RotationStep): string {
  return `${plan.indexOf(step) + 1}/${plan.length}`;
}

export function stepTitle(step: RotationStep): string {
  return STEP_TITLES[step] ?? step;
}

export interface FailureContext {
  profileName: string;
}

/** The deliveries that received the new key before the rotation was rolled back. */
function deliveredNote(report: RotationReport): string | undefined {
  if (report.delivered.length === 0) return undefined;
  const list = report.delivered.map((label) => `\`${label}\``).join(', ');
  return `${report.delivered.length === 1 ? 'Delivery' : 'Deliveries'} ${list} already received the new key, which is now revoked: deliver the old key there again if they replaced it.`;
}

export function rotationFailure(report: RotationReport, context: FailureContext): { message: string; hint: string | undefined } {
  const step = report.failedStep;
  const cause = messageOf(report.error);
  const oldKey = report.oldPrefix;
  const newKey = report.newPrefix ?? (report.newKey ? `id ${report.newKey.id}` : undefined);
  const where = step ? `step ${stepNumber(report.plan, step)} (${stepTitle(step)})` : 'an unknown step';
  const causeHint = report.error instanceof AppError ? report.error.hint : undefined;
  const works =
    report.oldKeyWorks === true
      ? ', which works'
      : report.oldKeyWorks === false
        ? ', but a check with it failed just now (see --verbose)'
        : '';

  if (report.outcome === 'rotated-old-key-active') {
    return {
      message: `key rotation did not finish at ${where}: ${cause}. Profile ${context.profileName} now uses the new key ${newKey}, which works; the old key ${oldKey} was NOT revoked and still works`,
      hint: `revoke the old key once the service answers: \`appraisal keys revoke ${oldKey} --yes\``,
    };
  }
  if (report.outcome === 'both-keys-active') {
    return {
      message: `key rotation failed at ${where}: ${cause}. Could not confirm which key the profile's store holds, so neither key was revoked: the old key ${oldKey} and the new key ${newKey} both still work`,
      hint: `once \`appraisal auth status --profile ${context.profileName}\` works, it shows the key in use; revoke the other one with \`appraisal keys revoke PREFIX --yes\` (${oldKey} or ${newKey})`,
    };
  }
  const parts = [`key rotation failed at ${where}: ${cause}.`];
  if (report.outcome === 'rolled-back-new-key-active') {
    parts.push(`The new key ${newKey} could not be revoked and still works (it is stored nowhere).`);
  } else if (newKey) {
    parts.push(`Rolled back: the new key ${newKey} was revoked.`);
  } else if (report.maybeCreatedName) {
    parts.push(`The service may have created the key "${report.maybeCreatedName}" before the answer was lost.`);
  } else {
    parts.push('Nothing was changed.');
  }
  const delivered = deliveredNote(report);
  if (delivered) parts.push(delivered);
  parts.push(`Profile ${context.profileName} still uses the old key ${oldKey}${works}`);
  let hint: string | undefined;
  if (report.outcome === 'rolled-back-new-key-active') hint = `revoke it: \`appraisal keys revoke ${newKey} --yes\``;
  else if (report.maybeCreatedName)
    hint = `look for it with \`appraisal keys list\` and revoke it with \`appraisal keys revoke PREFIX --yes\``;
  else if (step === 'create' && report.error instanceof PermissionError) {
    hint = `rotating needs a key with scope keys:admin or api:admin; otherwise an admin can make the replacement: \`appraisal keys create --name N --scope S --store-as ${context.profileName}\``;
  } else if (step === 'store') {
    hint = `the profile keeps its working key; once its store can be written (an unlocked OS keychain, a writable config dir), run \`appraisal keys rotate --profile ${context.profileName}\` again`;
  } else if (step === 'deliver') {
    hint = `the profile keeps its working key; fix the delivery command (its output is above), then run \`appraisal keys rotate --profile ${context.profileName}\` again`;
  } else if (step === 'verify-new' || step === 'verify-stored' || report.error instanceof InterruptedError) {
    // The cause's own hint would be about the new key, which is gone: nothing needs fixing.
    hint = `nothing needs fixing: the profile keeps its working key; run \`appraisal keys rotate --profile ${context.profileName}\` again later`;
  } else hint = causeHint;
  return { message: parts.join(' '), hint };
}
