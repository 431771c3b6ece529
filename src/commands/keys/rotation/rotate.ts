// Key rotation that never locks anyone out. Six steps, each with what undoes it:
//
//   1 read-current    GET /api/keys/current with the old key            nothing to undo
//   2 create          POST /api/keys: same scopes, name "<name> (rotated DATE)"   revoke the new key
//   3 verify-new      the new key reads its own record and itself       (revoke the new key)
//   4 store           write the new key into the profile's slot, record its prefix   restore the old key
//   5 verify-stored   read the slot back, and one request with what was read         (restore the old key)
//   6 revoke-old      DELETE the old key with the new one (unless --keep-old)        none: both keys work
//
// The rule behind the roll-back: the new key is revoked only once the slot is known to hold the old
// key again (a failed write that the store refused, or a restore that was read back). When that
// cannot be confirmed, both keys are left working, so whatever the slot holds still works.
// The old key is revoked only after the new one was stored and used through the store.
import type { ApiClient } from '../../../core/api-client.js';
import {
  AppError,
  ContractError,
  HttpError,
  InterruptedError,
  LocalEnvironmentError,
  MissingCredentialError,
  NetworkError,
  NotFoundError,
  PermissionError,
  SafetyError,
  UsageError,
} from '../../../core/errors.js';
import { keyPrefix } from '../../../core/redact.js';
import type { AuditStep } from '../audit-log.js';
import { lifetimeOf } from '../expires.js';
import { KeyWriteError, type KeySlot } from '../../../core/credentials/key-slot.js';
import { CURRENT_KEY_PATH, KEYS_PATH, describeKey, keyPath, withoutSecret, type CreatedKeyRecord, type KeyRecord } from '../records.js';

export type RotationStep = 'read-current' | 'create' | 'verify-new' | 'store' | 'verify-stored' | 'revoke-old';

export const ROTATION_STEPS: ReadonlyArray<{ step: RotationStep; title: string }> = [
  { step: 'read-current', title: 'read the current key' },
  { step: 'create', title: 'create the replacement' },
  { step: 'verify-new', title: 'verify the new key' },
  { step: 'store', title: 'store the new key' },
  { step: 'verify-stored', title: 'verify the stored key' },
  { step: 'revoke-old', title: 'revoke the old key' },
];

export type RotationOutcome =
  /** The profile uses the new key; the old one is revoked (or kept, with --keep-old). */
  | 'rotated'
  /** The profile uses the new key, which works; revoking the old one failed, so it works too. */
  | 'rotated-old-key-active'
  /** Nothing changed: the profile uses the old key; the new key (if one was made) is revoked. */
  | 'rolled-back'
  /** As rolled-back, but the new key (stored nowhere) could not be revoked. */
  | 'rolled-back-new-key-active'
  /** The slot could not be confirmed to hold the old key: neither key was revoked. */
  | 'both-keys-active';

export interface RotationRequest {
  profileName: string;
  /** The key in use, from the profile's slot. */
  oldSecret: string;
  oldPrefix: string;
  /** Expiry of the new key; undefined: the old key's lifetime from now, or none if it had none. */
  expiresAt: string | undefined;
  keepOld: boolean;
}

export interface RotationDeps {
  /** A client sending the old key. */
  oldClient: ApiClient;
  /** A client with the same settings sending another key. */
  clientFor(secret: string): ApiClient;
  /** The profile's keychain entry or insecure file. */
  slot: KeySlot;
  /** Record a prefix as the profile's key (the new one, or the old one when rolling back). */
  saveProfilePrefix(prefix: string, record: KeyRecord | undefined): void;
  /** Register a secret with the redactor the moment it exists. */
  register(secret: string): void;
  /** One line of progress (stderr). */
  progress(line: string): void;
  now(): Date;
  /** Monotonic milliseconds, for step timings. */
  clock(): number;
  /** True once the user asked to stop: the rotation stops before its next step and rolls back. */
  interrupted(): boolean;
}

export interface RotationReport {
  outcome: RotationOutcome;
  oldPrefix: string;
  oldKey: KeyRecord | undefined;
  /** The new key's record (never its secret). */
  newKey: KeyRecord | undefined;
  newPrefix: string | undefined;
  steps: AuditStep[];
  rollback: AuditStep[];
  failedStep: RotationStep | undefined;
  error: unknown;
  /** After a failure: the old key answered a check (undefined: not checked). */
  oldKeyWorks: boolean | undefined;
  /** The service may have created a key whose answer was lost (its name, to look for). */
  maybeCreatedName: string | undefined;
}

const MAX_NAME = 200;

/** `<name> (rotated YYYY-MM-DD)`, without piling up suffixes over repeated rotations. */
export function rotatedName(name: unknown, now: Date): string {
  const base = (typeof name === 'string' && name.trim() !== '' ? name.trim() : 'api key').replace(/\s*\(rotated \d{4}-\d{2}-\d{2}\)$/, '');
  const suffix = ` (rotated ${now.toISOString().slice(0, 10)})`;
  return `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
}

/** The new key's expiry: the one asked for, else the old key's lifetime counted from now, else none. */
export function replacementExpiry(requested: string | undefined, old: KeyRecord, now: Date): string | undefined {
  if (requested !== undefined) return requested;
  const lifetime = lifetimeOf(old);
  return lifetime === undefined ? undefined : new Date(now.getTime() + lifetime).toISOString();
}

export function stepNumber(step: RotationStep): string {
  return `${ROTATION_STEPS.findIndex((s) => s.step === step) + 1}/${ROTATION_STEPS.length}`;
}

function stepTitle(step: RotationStep): string {
  return ROTATION_STEPS.find((s) => s.step === step)?.title ?? step;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
}

function sameScopes(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  const left = [...(a ?? [])].map(String).sort();
  const right = [...(b ?? [])].map(String).sort();
  return left.length === right.length && left.every((scope, i) => scope === right[i]);
}

export async function rotateKey(request: RotationRequest, deps: RotationDeps): Promise<RotationReport> {
  const report: RotationReport = {
    outcome: 'rolled-back',
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
  };
  const { oldClient, slot } = deps;
  let newSecret: string | undefined;
  let newClient: ApiClient | undefined;
  /** The slot may no longer hold the old key (a write was attempted and not known to be refused). */
  let slotTouched = false;
  let profileTouched = false;

  const timed = async <T>(list: AuditStep[], step: string, work: () => Promise<T>): Promise<T> => {
    const started = deps.clock();
    const ms = () => Math.round(deps.clock() - started);
    try {
      const value = await work();
      list.push({ step, ok: true, ms: ms() });
      return value;
    } catch (error) {
      list.push({ step, ok: false, ms: ms(), error: messageOf(error) });
      throw error;
    }
  };
  const run = async <T>(step: RotationStep, work: () => Promise<T>): Promise<T> => {
    try {
      return await timed(report.steps, step, async () => {
        if (deps.interrupted()) throw new InterruptedError(`interrupted before step ${stepNumber(step)} (${stepTitle(step)})`);
        return work();
      });
    } catch (error) {
      report.failedStep = step;
      throw error;
    }
  };

  try {
    // 1. What the old key is: its id (to revoke it), name, scopes and lifetime (to copy them).
    const oldKey = await run('read-current', async () => {
      let record: KeyRecord;
      try {
        record = withoutSecret(await oldClient.get<KeyRecord>(CURRENT_KEY_PATH)) as KeyRecord;
      } catch (error) {
        if (error instanceof NotFoundError) {
          throw new NotFoundError(`the service has no ${CURRENT_KEY_PATH}, so the key's scopes cannot be copied`, {
            status: error.status,
            method: error.method,
            path: error.path,
            requestId: error.requestId,
            hint: 'create the replacement yourself: `appraisal keys create --name N --scope S --store-as PROFILE`, then `appraisal keys revoke` the old one',
            cause: error,
          });
        }
        throw error;
      }
      if (typeof record?.id !== 'string' || !Array.isArray(record.scopes) || record.scopes.length === 0) {
        throw new ContractError(`${CURRENT_KEY_PATH} did not return a key record with an id and scopes`);
      }
      if (typeof record.prefix === 'string' && record.prefix !== request.oldPrefix) {
        throw new ContractError(`${CURRENT_KEY_PATH} described key ${record.prefix}, not the key in use (${request.oldPrefix})`);
      }
      return record;
    });
    report.oldKey = oldKey;
    deps.progress(`read key ${describeKey({ ...oldKey, prefix: request.oldPrefix })}: scopes ${oldKey.scopes!.join(' ')}${oldKey.expiresAt ? `, expires ${oldKey.expiresAt}` : ''}`);

    // 2. The replacement: same scopes, a name that says what it replaced, the same lifetime.
    const now = deps.now();
    const body: Record<string, unknown> = { name: rotatedName(oldKey.name, now), scopes: oldKey.scopes };
    const expiresAt = replacementExpiry(request.expiresAt, oldKey, now);
    if (expiresAt !== undefined) body.expiresAt = expiresAt;
    const created = await run('create', async () => {
      let answer: CreatedKeyRecord;
      try {
        answer = await oldClient.send<CreatedKeyRecord>('POST', KEYS_PATH, body);
      } catch (error) {
        // The request may have reached the service and only the answer was lost.
        if (error instanceof NetworkError || error instanceof ContractError) report.maybeCreatedName = body.name as string;
        throw error;
      }
      const secret = answer?.secret;
      if (typeof secret === 'string' && secret !== '') {
        deps.register(secret);
        report.newPrefix = keyPrefix(secret);
        // The key exists (we hold its secret) even if the answer lost its id: ask the service which
        // key it is, so the rotation can go on — or at least be rolled back.
        if (typeof answer.id !== 'string') {
          const described = await deps
            .clientFor(secret)
            .get<KeyRecord>(CURRENT_KEY_PATH)
            .catch(() => undefined);
          if (typeof described?.id === 'string') answer = { ...answer, ...withoutSecret(described), secret } as CreatedKeyRecord;
        }
      }
      if (typeof answer?.id === 'string') report.newKey = withoutSecret(answer) as KeyRecord;
      if (typeof secret !== 'string' || secret === '' || typeof answer.id !== 'string') {
        throw new ContractError(`POST ${KEYS_PATH} did not return the new key's id and secret`);
      }
      return answer;
    });
    newSecret = created.secret;
    report.newPrefix = typeof created.prefix === 'string' && created.prefix !== '' ? created.prefix : keyPrefix(created.secret);
    const newKey = report.newKey!;
    deps.progress(`created key ${describeKey(newKey)}${newKey.expiresAt ? `, expires ${newKey.expiresAt}` : ''}`);
    newClient = deps.clientFor(newSecret);
    const client = newClient;

    // 3. The new key works: the service knows it as the key just created, and it can read keys
    //    (which step 6 needs).
    await run('verify-new', async () => {
      const current = await client.get<KeyRecord>(CURRENT_KEY_PATH);
      if (current?.id !== newKey.id) throw new ContractError(`${CURRENT_KEY_PATH} with the new key described another key (${String(current?.prefix)})`);
      if (!sameScopes(current.scopes, oldKey.scopes)) {
        throw new ContractError(`the new key has scopes ${(current.scopes ?? []).join(' ') || '(none)'}, not ${oldKey.scopes!.join(' ')}`);
      }
      await client.get<KeyRecord>(keyPath(newKey.id));
    });
    deps.progress(`verified key ${report.newPrefix ?? newKey.id} with the service`);

    // 4. Into the profile's slot, and its prefix into the profile.
    await run('store', async () => {
      slotTouched = true;
      try {
        await slot.write(created.secret);
      } catch (error) {
        if (error instanceof KeyWriteError && error.entryUnchanged) slotTouched = false;
        throw error;
      }
      profileTouched = true;
      deps.saveProfilePrefix(report.newPrefix!, newKey);
    });
    deps.progress(`stored key ${report.newPrefix} in ${slot.where}`);

    // 5. What later commands will read: the slot holds the new key, and it works as read back.
    await run('verify-stored', async () => {
      const stored = await slot.read();
      if (stored !== created.secret) {
        throw new LocalEnvironmentError(`${slot.where} does not hold the new key after it was written`);
      }
      const current = await deps.clientFor(stored).get<KeyRecord>(CURRENT_KEY_PATH);
      if (current?.id !== newKey.id) throw new ContractError(`the stored key was answered for as another key (${String(current?.prefix)})`);
    });
    deps.progress(`verified the stored key`);

    // 6. Only now, the old key goes — revoked with the new key.
    if (!request.keepOld) {
      await run('revoke-old', async () => {
        await client.send('DELETE', keyPath(oldKey.id));
      });
      deps.progress(`revoked key ${request.oldPrefix}`);
    }
    report.outcome = 'rotated';
    return report;
  } catch (error) {
    report.error = error;
    if (report.failedStep === 'revoke-old') {
      report.outcome = 'rotated-old-key-active';
      return report;
    }
    await rollBack();
    return report;
  }

  async function rollBack(): Promise<void> {
    let slotHoldsOld = !slotTouched;
    if (slotTouched) {
      try {
        await timed(report.rollback, 'restore-old-key', async () => {
          await slot.write(request.oldSecret);
          const back = await slot.read();
          if (back !== request.oldSecret) throw new LocalEnvironmentError(`${slot.where} does not hold the old key after it was written back`);
        });
        slotHoldsOld = true;
        deps.progress(`put key ${request.oldPrefix} back in ${slot.where}`);
      } catch {
        slotHoldsOld = false;
      }
    }
    if (profileTouched && slotHoldsOld) {
      await timed(report.rollback, 'restore-profile', async () => deps.saveProfilePrefix(request.oldPrefix, report.oldKey)).catch(() => undefined);
    }

    let newKeyActive = false;
    if (report.newKey) {
      if (!slotHoldsOld) {
        newKeyActive = true;
      } else {
        const path = keyPath(report.newKey.id);
        try {
          await timed(report.rollback, 'revoke-new-key', async () => {
            try {
              await oldClient.send('DELETE', path);
            } catch (error) {
              // The old key may have lost its admin scope meanwhile; a key can revoke itself.
              if (!newSecret || error instanceof NotFoundError) throw error;
              await deps.clientFor(newSecret).send('DELETE', path);
            }
          });
          deps.progress(`revoked the new key ${report.newPrefix ?? report.newKey.id}`);
        } catch {
          newKeyActive = true;
        }
      }
    }

    // Is the profile still working? One request with the old key.
    try {
      await timed(report.rollback, 'check-old-key', () => oldClient.get(CURRENT_KEY_PATH));
      report.oldKeyWorks = true;
    } catch {
      report.oldKeyWorks = false;
    }

    if (!slotHoldsOld) report.outcome = 'both-keys-active';
    else report.outcome = newKeyActive ? 'rolled-back-new-key-active' : 'rolled-back';
  }
}

export interface FailureContext {
  profileName: string;
}

/**
 * What to tell the user after a rotation that did not finish cleanly: exactly what happened, what
 * state the keys and the profile are in, and the command that finishes the job. Prefixes only.
 */
export function rotationFailure(report: RotationReport, context: FailureContext): { message: string; hint: string | undefined } {
  const step = report.failedStep;
  const cause = messageOf(report.error);
  const oldKey = report.oldPrefix;
  const newKey = report.newPrefix ?? (report.newKey ? `id ${report.newKey.id}` : undefined);
  const where = step ? `step ${stepNumber(step)} (${stepTitle(step)})` : 'an unknown step';
  const causeHint = report.error instanceof AppError ? report.error.hint : undefined;
  const works =
    report.oldKeyWorks === true ? ', which works' : report.oldKeyWorks === false ? ', but a check with it failed just now (see --verbose)' : '';

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
  parts.push(`Profile ${context.profileName} still uses the old key ${oldKey}${works}`);
  let hint: string | undefined;
  if (report.outcome === 'rolled-back-new-key-active') hint = `revoke it: \`appraisal keys revoke ${newKey} --yes\``;
  else if (report.maybeCreatedName) hint = `look for it with \`appraisal keys list\` and revoke it with \`appraisal keys revoke PREFIX --yes\``;
  else if (step === 'create' && report.error instanceof PermissionError) {
    hint = `rotating needs a key with scope keys:admin or api:admin; otherwise an admin can make the replacement: \`appraisal keys create --name N --scope S --store-as ${context.profileName}\``;
  } else if (step === 'store') {
    hint = `the profile keeps its working key; once its store can be written (an unlocked OS keychain, a writable config dir), run \`appraisal keys rotate --profile ${context.profileName}\` again`;
  } else if (step === 'verify-new' || step === 'verify-stored' || report.error instanceof InterruptedError) {
    // The cause's own hint would be about the new key, which is gone: nothing needs fixing.
    hint = `nothing needs fixing: the profile keeps its working key; run \`appraisal keys rotate --profile ${context.profileName}\` again later`;
  } else hint = causeHint;
  return { message: parts.join(' '), hint };
}

/**
 * The error a failed rotation exits with: the failing step's own class (so the exit code is the one
 * its cause has — 5 for a 403, 8 for a 503, 2 for a keychain that cannot be written), with the
 * rotation's message.
 */
export function rotationError(report: RotationReport, context: FailureContext): Error {
  const { message, hint } = rotationFailure(report, context);
  const cause = report.error;
  if (cause instanceof HttpError) {
    const Class = cause.constructor as new (message: string, info: ConstructorParameters<typeof HttpError>[1]) => HttpError;
    return new Class(message, {
      status: cause.status,
      method: cause.method,
      path: cause.path,
      requestId: cause.requestId,
      serviceCode: cause.serviceCode,
      serviceMessage: cause.serviceMessage,
      hint,
      cause,
    });
  }
  if (cause instanceof InterruptedError) return new InterruptedError(message);
  const details = { ...(hint === undefined ? {} : { hint }), cause };
  // The plain class of the cause (a subclass may have another constructor), for the same exit code.
  for (const Class of [UsageError, LocalEnvironmentError, NetworkError, MissingCredentialError, ContractError, SafetyError]) {
    if (cause instanceof Class) return new Class(message, details);
  }
  // A bug in a step: still say what state the keys are in, and keep exit 1.
  return new Error(`${message}`, { cause });
}
