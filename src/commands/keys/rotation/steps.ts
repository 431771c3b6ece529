// Key rotation as a table of steps, each with what undoes it. run-steps.ts runs the table once, in
// order; after a failure it runs the undo of every step begun, in reverse.
//
//   read-current         GET /api/keys/current with the old key                  nothing to undo
//   create               POST /api/keys: same scopes, name "<name> (rotated DATE)"  revoke the new key
//   verify-new           the new key reads its own record and itself             (revoke the new key)
//   store                the new key into the profile's slot, its prefix into the profile   restore the old key
//   verify-stored        read the slot back, and one request with what was read  (restore the old key)
//   deliver              --deliver CMD…: each gets the new secret on stdin      (restore, revoke the new key)
//   revoke-old           DELETE the old key with the new one (not with --keep-old)   none: both keys work
//   schedule-revoke-old  --grace: record the old key's revocation for `keys revoke --due`   none
//
// The rule behind the roll-back: the new key is revoked only once the slot is known to hold the old
// key again (a failed write that the store refused, or a restore that was read back). When that
// cannot be confirmed, both keys are left working, so whatever the slot holds still works.
import { ContractError, LocalEnvironmentError, NetworkError, NotFoundError } from '../../../core/errors.js';
import { keyPrefix } from '../../../core/redact.js';
import { lifetimeOf } from '../expires.js';
import { KeyWriteError } from '../../../core/credentials/key-slot.js';
import { CURRENT_KEY_PATH, KEYS_PATH, keyPath, withoutSecret, type CreatedKeyRecord, type KeyRecord } from '../records.js';
import { progress } from './messages.js';
import type { RotationState, RotationStepDef } from './types.js';

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

function sameScopes(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  const left = [...(a ?? [])].map(String).sort();
  const right = [...(b ?? [])].map(String).sort();
  return left.length === right.length && left.every((scope, i) => scope === right[i]);
}

/** Values a later step needs: present once the step that makes them has succeeded. */
function oldKeyOf(state: RotationState): KeyRecord & { scopes: string[] } {
  return state.report.oldKey as KeyRecord & { scopes: string[] };
}
function newKeyOf(state: RotationState): { record: KeyRecord; secret: string; prefix: string } {
  return { record: state.report.newKey!, secret: state.newSecret!, prefix: state.report.newPrefix! };
}

/** 1. What the old key is: its id (to revoke it), name, scopes and lifetime (to copy them). */
const readCurrent: RotationStepDef = {
  name: 'read-current',
  async run({ request, deps, report }) {
    let record: KeyRecord;
    try {
      record = withoutSecret(await deps.oldClient.get<KeyRecord>(CURRENT_KEY_PATH)) as KeyRecord;
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
    report.oldKey = record;
    deps.progress(progress.read(record, request.oldPrefix));
  },
};

/** 2. The replacement: same scopes, a name that says what it replaced, the same lifetime. */
const create: RotationStepDef = {
  name: 'create',
  async run(state) {
    const { request, deps, report } = state;
    const oldKey = oldKeyOf(state);
    const now = deps.now();
    const body: Record<string, unknown> = { name: rotatedName(oldKey.name, now), scopes: oldKey.scopes };
    const expiresAt = replacementExpiry(request.expiresAt, oldKey, now);
    if (expiresAt !== undefined) body.expiresAt = expiresAt;
    let answer: CreatedKeyRecord;
    try {
      answer = await deps.oldClient.send<CreatedKeyRecord>('POST', KEYS_PATH, body);
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
    state.newSecret = secret;
    report.newPrefix = typeof answer.prefix === 'string' && answer.prefix !== '' ? answer.prefix : keyPrefix(secret);
    state.newClient = deps.clientFor(secret);
    deps.progress(progress.created(report.newKey!));
  },
  async undo(state, rollback) {
    const { deps, report } = state;
    if (!report.newKey) return;
    if (!rollback.slotHoldsOld) {
      rollback.newKeyActive = true;
      return;
    }
    const path = keyPath(report.newKey.id);
    try {
      await rollback.timed('revoke-new-key', async () => {
        try {
          await deps.oldClient.send('DELETE', path);
        } catch (error) {
          // The old key may have lost its admin scope meanwhile; a key can revoke itself.
          if (!state.newSecret || error instanceof NotFoundError) throw error;
          await deps.clientFor(state.newSecret).send('DELETE', path);
        }
      });
      deps.progress(progress.revokedNew(report.newPrefix ?? report.newKey.id));
    } catch {
      rollback.newKeyActive = true;
    }
  },
};

/** 3. The new key works: the service knows it as the key just created, and it can read keys (revoke-old needs that). */
const verifyNew: RotationStepDef = {
  name: 'verify-new',
  async run(state) {
    const { record, prefix } = newKeyOf(state);
    const client = state.newClient!;
    const current = await client.get<KeyRecord>(CURRENT_KEY_PATH);
    if (current?.id !== record.id)
      throw new ContractError(`${CURRENT_KEY_PATH} with the new key described another key (${String(current?.prefix)})`);
    const oldScopes = oldKeyOf(state).scopes;
    if (!sameScopes(current.scopes, oldScopes)) {
      throw new ContractError(`the new key has scopes ${(current.scopes ?? []).join(' ') || '(none)'}, not ${oldScopes.join(' ')}`);
    }
    await client.get<KeyRecord>(keyPath(record.id));
    state.deps.progress(progress.verified(prefix));
  },
};

/** 4. Into the profile's slot, and its prefix into the profile. */
const store: RotationStepDef = {
  name: 'store',
  async run(state) {
    const { deps } = state;
    const { record, secret, prefix } = newKeyOf(state);
    state.slotTouched = true;
    try {
      await deps.slot.write(secret);
    } catch (error) {
      if (error instanceof KeyWriteError && error.entryUnchanged) state.slotTouched = false;
      throw error;
    }
    state.profileTouched = true;
    await deps.saveProfilePrefix(prefix, record);
    deps.progress(progress.stored(prefix, deps.slot.where));
  },
  async undo(state, rollback) {
    const { deps, request, report } = state;
    if (state.slotTouched) {
      try {
        await rollback.timed('restore-old-key', async () => {
          await deps.slot.write(request.oldSecret);
          const back = await deps.slot.read();
          if (back !== request.oldSecret)
            throw new LocalEnvironmentError(`${deps.slot.where} does not hold the old key after it was written back`);
        });
        rollback.slotHoldsOld = true;
        deps.progress(progress.restored(request.oldPrefix, deps.slot.where));
      } catch {
        rollback.slotHoldsOld = false;
      }
    }
    if (state.profileTouched && rollback.slotHoldsOld) {
      await rollback.timed('restore-profile', () => deps.saveProfilePrefix(request.oldPrefix, report.oldKey)).catch(() => undefined);
    }
  },
};

/** 5. What later commands will read: the slot holds the new key, and it works as read back. */
const verifyStored: RotationStepDef = {
  name: 'verify-stored',
  async run(state) {
    const { deps } = state;
    const { record, secret } = newKeyOf(state);
    const stored = await deps.slot.read();
    if (stored !== secret) throw new LocalEnvironmentError(`${deps.slot.where} does not hold the new key after it was written`);
    const current = await deps.clientFor(stored).get<KeyRecord>(CURRENT_KEY_PATH);
    if (current?.id !== record.id) throw new ContractError(`the stored key was answered for as another key (${String(current?.prefix)})`);
    deps.progress(progress.verifiedStored());
  },
};

/** 6. --deliver: every place that uses the key gets the new one before the old one goes. */
const deliver: RotationStepDef = {
  name: 'deliver',
  present: (request) => (request.deliveries?.length ?? 0) > 0,
  async run(state) {
    const { record, secret, prefix } = newKeyOf(state);
    for (const delivery of state.request.deliveries ?? []) {
      await delivery.run(secret, { id: record.id, prefix });
      state.report.delivered.push(delivery.label);
      state.deps.progress(progress.delivered(delivery.label));
    }
  },
};

/** 7. Only now, the old key goes — revoked with the new key. */
const revokeOld: RotationStepDef = {
  name: 'revoke-old',
  present: (request) => request.graceMs === undefined,
  skip: (request) => request.keepOld,
  final: true,
  async run(state) {
    await state.newClient!.send('DELETE', keyPath(oldKeyOf(state).id));
    state.deps.progress(progress.revoked(state.request.oldPrefix));
  },
};

/** 7 (--grace). The old key stays valid for a while; its revocation is recorded for `keys revoke --due`. */
const scheduleRevokeOld: RotationStepDef = {
  name: 'schedule-revoke-old',
  present: (request) => request.graceMs !== undefined,
  final: true,
  async run(state) {
    const { deps, request } = state;
    const dueAt = new Date(deps.now().getTime() + request.graceMs!).toISOString();
    const pending = { id: oldKeyOf(state).id, prefix: request.oldPrefix, dueAt };
    deps.schedulePending?.(pending);
    state.report.pending = pending;
    deps.progress(progress.scheduled(request.oldPrefix, dueAt));
  },
};

export const ROTATION_STEPS: readonly RotationStepDef[] = [
  readCurrent,
  create,
  verifyNew,
  store,
  verifyStored,
  deliver,
  revokeOld,
  scheduleRevokeOld,
];
