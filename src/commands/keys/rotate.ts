// `appraisal keys rotate`: replace the profile's key with a new one of the same scopes, verified
// before and after it is stored, and only then revoke the old one. Any failure rolls back so the
// profile keeps a working key; the message says exactly what state things are in. The state
// machine lives in rotation/; this file checks the preconditions and wires it up: the schedule
// (--if-expiring-within / --if-older-than), deliveries (--deliver) and the grace period (--grace).
import { performance } from 'node:perf_hooks';
import type { ApiClient } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { addPending } from '../../core/credentials/pending-revocations.js';
import { hasStoredKey, profileSlot } from '../../core/credentials/key-slot.js';
import { confirmDestructive } from '../../core/guards.js';
import { openAuditLog, type AuditLog } from './rotation/audit-log.js';
import { detachedClient } from './rotation/detached-client.js';
import { parseDuration, requestedExpiry } from './expires.js';
import { deliveries, parseDeliverTimeout } from './rotation/deliver.js';
import { decide, parseSchedule, type Schedule } from './rotation/schedule.js';
import { rememberKeyExpiry } from '../../core/credentials/expiry-notice.js';
import { CURRENT_KEY_PATH, KEY_PATH_TEMPLATE, KEYS_PATH, withoutSecret, type KeyRecord } from './records.js';
import { rotateKey, rotationError, type RotationReport } from './rotation/run-steps.js';
import { requireCredential } from '../../core/session.js';
import { holdSecret, type ResolvedCredential } from '../../core/credentials/credential.js';
import type { Session } from '../../core/session.js';
import { writeRecord, type View } from '../../output/index.js';
import { CONFIRM_OPTIONS, OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';
import { namedKey } from '../../core/redact.js';

export interface RotateOptions {
  expiresIn?: string;
  expiresAt?: string;
  keepOld?: boolean;
  auditLog?: string;
  ifExpiringWithin?: string;
  ifOlderThan?: string;
  deliver?: string[];
  deliverTimeout?: string;
  grace?: string;
}

export interface RotateDeps {
  /** The client sending the old key (default: one a Ctrl-C does not abort, see detached-client.ts). */
  client(ctx: Context, session: Session, credential: ResolvedCredential): Promise<ApiClient>;
}

export const ROTATE_VIEW: View = {
  label: 'rotations',
  singular: 'rotation',
  columns: ['profile', 'oldPrefix', 'newPrefix', 'name', 'scopes', 'expiresAt', 'oldKey'],
};

/** Only a key the CLI stores can be rotated by it: refuse the others with the manual recipe. */
function refuseUnmanaged(credential: ResolvedCredential): void {
  if (credential.source === 'keychain' || credential.source === 'insecure-file') return;
  const from = credential.source === 'env' ? (credential.kind === 'bearer' ? 'APPRAISAL_TOKEN' : 'APPRAISAL_API_KEY') : '--api-key-file';
  throw new UsageError(
    `the key in use${credential.prefix === '' ? '' : ` (${credential.prefix})`} comes from ${from}, which appraisal cannot update`,
    {
      hint: `rotate it in your secret store: \`appraisal keys create --name N --scope S\` prints a new key once; put it where ${from} comes from, then \`appraisal keys revoke ${credential.prefix || 'ID'} --yes\``,
    },
  );
}

function auditEntry(report: RotationReport, session: Session, keepOld: boolean, at: Date) {
  return {
    at: at.toISOString(),
    profile: session.profileName,
    origin: session.origin,
    oldPrefix: report.oldPrefix,
    newPrefix: report.newPrefix ?? null,
    keepOld,
    steps: report.steps,
    rollback: report.rollback,
    outcome: report.outcome,
    ...(report.plan.includes('deliver') ? { delivered: report.delivered } : {}),
    ...(report.pending ? { pendingRevocation: { id: report.pending.id, prefix: report.pending.prefix, dueAt: report.pending.dueAt } } : {}),
  };
}

/**
 * With a schedule: whether the key's own record on the service says it is time. When it does
 * not, say so in one line (and as a record with -o) and end with exit 0. The line is a notice: the
 * documented cron line runs with -q, and cron mails whatever a job prints, so a day on which
 * nothing was done prints nothing there.
 */
async function scheduledRotationIsDue(
  ctx: Context,
  schedule: Schedule,
  session: Session,
  credential: ResolvedCredential,
  client: ApiClient,
): Promise<boolean> {
  const record = withoutSecret(await client.get<KeyRecord>(CURRENT_KEY_PATH)) as KeyRecord;
  const decision = decide(schedule, record, ctx.now());
  if (decision.rotate) {
    ctx.io.notice(`rotate: ${namedKey(credential.prefix)} is due: ${decision.because}`);
    return true;
  }
  ctx.io.notice(`nothing to do: ${namedKey(credential.prefix)} of profile ${session.profileName} ${decision.because}`);
  if (ctx.output.formatExplicit) {
    await writeRecord(
      ctx,
      {
        profile: session.profileName,
        oldPrefix: credential.prefix,
        newPrefix: null,
        expiresAt: record.expiresAt ?? null,
        createdAt: record.createdAt ?? null,
        rotated: false,
        reason: decision.because,
      },
      ROTATE_VIEW,
    );
  }
  return false;
}

export async function runRotate(ctx: Context, options: RotateOptions, deps: Partial<RotateDeps> = {}): Promise<void> {
  const expiresAt = requestedExpiry(options, ctx.now());
  const schedule = parseSchedule(options);
  const commands = options.deliver ?? [];
  const deliverTimeoutMs = parseDeliverTimeout(options.deliverTimeout);
  if (options.deliverTimeout !== undefined && commands.length === 0) throw new UsageError('--deliver-timeout needs --deliver CMD');
  const graceMs = options.grace === undefined ? undefined : parseDuration(options.grace, '--grace');
  if (graceMs !== undefined && options.keepOld)
    throw new UsageError('give --grace or --keep-old, not both (--keep-old never revokes the old key)');
  const session = await ctx.session();
  const credential = requireCredential(session);
  refuseUnmanaged(credential);
  const profile = session.profile;
  if (!hasStoredKey(profile)) throw new UsageError(`profile ${session.profileName} has no stored key to rotate`);
  const config = await ctx.config();
  const slot = profileSlot(config, () => ctx.keychain(), profile);
  // Each secret the rotation learns (the new key, a key read back from the slot) is held once: the
  // one registration with the redactor, and the credential its clients send.
  const held = new Map<string, ResolvedCredential>();
  const hold = (secret: string): ResolvedCredential => {
    let credential = held.get(secret);
    if (!credential) held.set(secret, (credential = holdSecret(ctx.io, secret, slot.storage)));
    return credential;
  };

  let audit: AuditLog | undefined;
  if (options.auditLog !== undefined) audit = await openAuditLog(options.auditLog, ctx.cwd, (text) => ctx.io.redactor.redact(text));
  let oldClient: ApiClient | undefined;
  try {
    oldClient = await (deps.client ?? detachedClient)(ctx, session, credential);
    const client = oldClient;
    const keep = options.keepOld === true;
    if (schedule && !(await scheduledRotationIsDue(ctx, schedule, session, credential, client))) return;
    const end = keep
      ? 'the old key is kept'
      : graceMs !== undefined
        ? `the old key is revoked after --grace ${options.grace}`
        : 'the old key is revoked at the end';
    await confirmDestructive(ctx, `rotate ${namedKey(credential.prefix)} of profile ${profile.name} (${end})`);
    const started = ctx.now();
    const report = await rotateKey(
      {
        profileName: profile.name,
        oldSecret: credential.secret,
        oldPrefix: credential.prefix,
        expiresAt,
        keepOld: keep,
        graceMs,
        deliveries: deliveries(ctx, commands, deliverTimeoutMs),
      },
      {
        oldClient: client,
        clientFor: (secret) => client.withCredential(hold(secret)),
        slot,
        saveProfilePrefix: async (prefix, record) => {
          await config.saveProfile({ ...(config.getProfile(profile.name) ?? profile), keyPrefix: prefix });
          rememberKeyExpiry(config.dir, profile.name, { prefix, expiresAt: record?.expiresAt, scopes: record?.scopes });
        },
        schedulePending: (pending) =>
          addPending(config.dir, {
            ...pending,
            profile: profile.name,
            origin: session.origin,
            recordedAt: ctx.now().toISOString(),
          }),
        register: (secret) => void hold(secret),
        progress: (line) => ctx.io.notice(`rotate: ${line}`),
        now: () => ctx.now(),
        clock: () => performance.now(),
        interrupted: () => ctx.signal.aborted,
      },
    );
    if (audit) {
      await audit.append(auditEntry(report, session, keep, started)).catch((error: unknown) => {
        ctx.io.warn(`could not write the audit log ${audit!.path}: ${(error as Error).message}`);
      });
    }
    if (report.outcome !== 'rotated') {
      const error = rotationError(report, { profileName: profile.name });
      // After Ctrl-C, main reports only "interrupted": say here what state the keys were left in.
      if (ctx.signal.aborted) ctx.io.writeErr(`rotate: ${error.message}`);
      throw error;
    }

    const newKey = report.newKey!;
    const oldFate = keep
      ? ''
      : report.pending
        ? ` (${report.oldPrefix} to be revoked at ${report.pending.dueAt})`
        : ` (${report.oldPrefix} revoked)`;
    ctx.io.writeErr(`Rotated profile ${profile.name}: ${report.oldPrefix} → ${report.newPrefix}${oldFate}`);
    if (report.pending) {
      ctx.io.notice(
        `note: the old key ${report.oldPrefix} works until then; \`appraisal keys revoke --due --profile ${profile.name} --yes\` revokes it once that time has passed (e.g. from cron)`,
      );
    }
    if (keep) {
      ctx.io.notice(
        `note: the old key ${report.oldPrefix} still works (--keep-old); revoke it once nothing uses it: appraisal keys revoke ${report.oldPrefix} --yes`,
      );
    }
    await writeRecord(
      ctx,
      {
        profile: profile.name,
        oldPrefix: report.oldPrefix,
        newPrefix: report.newPrefix,
        newKeyId: newKey.id,
        name: newKey.name ?? null,
        scopes: newKey.scopes ?? null,
        expiresAt: newKey.expiresAt ?? null,
        oldKey: keep ? 'kept' : report.pending ? 'pending' : 'revoked',
        ...(report.pending ? { oldKeyRevokedFrom: report.pending.dueAt } : {}),
        ...(commands.length > 0 ? { delivered: report.delivered } : {}),
      },
      ROTATE_VIEW,
    );
  } finally {
    await oldClient?.close();
    await audit?.close();
  }
}

export default defineVerb<RotateOptions>({
  name: 'rotate',
  writesOne: true,
  summary: "replace the profile's key: create, verify, store and re-verify a new one, then revoke the old one",
  options: [
    { flags: '--expires-in <duration>', description: "the new key's lifetime: 12h, 90d, 2w … (default: the old key's lifetime, or never)" },
    { flags: '--expires-at <timestamp>', description: 'the new key expires at this ISO 8601 time' },
    { flags: '--keep-old', description: 'do not revoke the old key (revoke it yourself once nothing uses it)' },
    { flags: '--audit-log <path>', description: 'append one JSON line describing the rotation to PATH (mode 0600; prefixes only)' },
    {
      flags: '--if-expiring-within <duration>',
      description: 'rotate only if the key expires within 14d, 12h … (else exit 0: nothing to do)',
    },
    { flags: '--if-older-than <duration>', description: 'rotate only if the key was created more than 90d, 2w … ago (else exit 0)' },
    {
      flags: '--deliver <command>',
      description: 'after the new key is stored, run COMMAND with the new key on stdin, before the old key is revoked; repeatable',
      repeatable: true,
    },
    { flags: '--deliver-timeout <time>', description: 'each --deliver command must finish within 30s, 2m … (default 60s)' },
    { flags: '--grace <duration>', description: 'keep the old key working this long (24h, 7d …); `keys revoke --due` revokes it then' },
  ],
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...CONFIRM_OPTIONS],
  calls: [
    { method: 'GET', path: CURRENT_KEY_PATH },
    { method: 'POST', path: KEYS_PATH },
    { method: 'GET', path: KEY_PATH_TEMPLATE },
    { method: 'DELETE', path: KEY_PATH_TEMPLATE },
  ],
  examples: [
    'appraisal keys rotate',
    'appraisal keys rotate --profile staging --expires-in 90d --yes --audit-log ~/appraisal-rotations.jsonl',
    'appraisal keys rotate --keep-old   # revoke the old key later with keys revoke',
    "appraisal keys rotate --profile ci --if-expiring-within 14d --yes --deliver 'gh secret set APPRAISAL_API_KEY --env staging'",
    'appraisal keys rotate --if-older-than 90d --grace 24h --yes   # then, daily: appraisal keys revoke --due --yes',
  ],
  notes:
    'If any step fails, the profile keeps a working key: the new key is revoked and the old one stays,\nor, if the old key could not be revoked at the end, both keep working and the message says how to finish.\n' +
    'A --deliver command gets exactly the new key on stdin, APPRAISAL_KEY_PREFIX and APPRAISAL_KEY_ID in its environment\n' +
    '(never a credential variable), and its output is redacted. If one fails, the rotation is rolled back.',
  run: (ctx, _args, options) => runRotate(ctx, options),
});
