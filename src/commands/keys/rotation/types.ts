// The shapes a key rotation works with: what it is asked, what it needs, what it reports.
import type { ApiClient } from '../../../core/api-client.js';
import type { KeySlot } from '../../../core/credentials/key-slot.js';
import type { AuditStep } from './audit-log.js';
import type { KeyRecord } from '../records.js';

export type RotationStep =
  'read-current' | 'create' | 'verify-new' | 'store' | 'verify-stored' | 'deliver' | 'revoke-old' | 'schedule-revoke-old';

export type RotationOutcome =
  /** The profile uses the new key; the old one is revoked (or kept, with --keep-old or --grace). */
  | 'rotated'
  /** The profile uses the new key, which works; revoking the old one failed, so it works too. */
  | 'rotated-old-key-active'
  /** Nothing changed: the profile uses the old key; the new key (if one was made) is revoked. */
  | 'rolled-back'
  /** As rolled-back, but the new key (stored nowhere) could not be revoked. */
  | 'rolled-back-new-key-active'
  /** The slot could not be confirmed to hold the old key: neither key was revoked. */
  | 'both-keys-active';

/** One `--deliver CMD`: gets the new secret; throws when the delivery failed. */
export interface Delivery {
  /** For messages: the command as given. */
  label: string;
  run(secret: string, key: { id: string; prefix: string }): Promise<void>;
}

export interface RotationRequest {
  profileName: string;
  /** The key in use, from the profile's slot. */
  oldSecret: string;
  oldPrefix: string;
  /** Expiry of the new key; undefined: the old key's lifetime from now, or none if it had none. */
  expiresAt: string | undefined;
  keepOld: boolean;
  /** --grace: keep the old key this long after a successful rotation, then `keys revoke --due`. */
  graceMs?: number | undefined;
  /** --deliver, in order, after the new key is stored and before the old one is revoked. */
  deliveries?: readonly Delivery[] | undefined;
}

export interface PendingRevocation {
  id: string;
  prefix: string;
  dueAt: string;
}

export interface RotationDeps {
  /** A client sending the old key. */
  oldClient: ApiClient;
  /** A client with the same settings sending another key. */
  clientFor(secret: string): ApiClient;
  /** The profile's keychain entry or insecure file. */
  slot: KeySlot;
  /** Record a prefix as the profile's key (the new one, or the old one when rolling back). */
  saveProfilePrefix(prefix: string, record: KeyRecord | undefined): Promise<void>;
  /** With --grace: remember that the old key is to be revoked later. */
  schedulePending?(pending: PendingRevocation): void;
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
  /** The steps this rotation runs, in order (their numbers in messages: "3/6"). */
  plan: RotationStep[];
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
  /** Deliveries that received the new key, in order. */
  delivered: string[];
  /** With --grace: the old key's revocation, recorded for later. */
  pending: PendingRevocation | undefined;
}

/** One rotation as it runs: the request, what it needs, and what has been done so far. */
export interface RotationState {
  request: RotationRequest;
  deps: RotationDeps;
  report: RotationReport;
  newSecret?: string;
  newClient?: ApiClient;
  /** The slot may no longer hold the old key (a write was attempted and not known to be refused). */
  slotTouched: boolean;
  profileTouched: boolean;
}

/** What the roll-back has established so far (undo runs in reverse order of the steps). */
export interface RollbackState {
  /** The slot is known to hold the old key. */
  slotHoldsOld: boolean;
  /** A new key is left working. */
  newKeyActive: boolean;
  /** Run one piece of clean-up, timed and recorded in the report's roll-back list. */
  timed<T>(step: string, work: () => Promise<T>): Promise<T>;
}

export interface RotationStepDef {
  name: RotationStep;
  /** Whether this rotation has the step at all (and counts it in "3/6"). Default: yes. */
  present?(request: RotationRequest): boolean;
  /** Counted but not run (--keep-old skips the revocation). */
  skip?(request: RotationRequest): boolean;
  run(state: RotationState): Promise<void>;
  /** What undoes it in a roll-back; absent: nothing to undo. */
  undo?(state: RotationState, rollback: RollbackState): Promise<void>;
  /** A failure here is not rolled back: the rotation is done, only the old key still works. */
  final?: boolean;
}
