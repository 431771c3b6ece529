// `appraisal keys rotate`: replace the profile's key with a new one of the same scopes, verified
// before and after it is stored, and only then revoke the old one. Any failure rolls back so the
// profile keeps a working key; the message says exactly what state things are in. The state
// machine lives in rotation/rotate.ts; this file checks the preconditions and wires it up.
import { performance } from 'node:perf_hooks';
import { Command } from 'commander';
import type { ApiClient } from '../../core/api-client.js';
import { action, examples, type Factory } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import type { SecretStore } from '../../core/credentials/keychain.js';
import { hasStoredKey, lazyKeychain, profileSlot } from '../../core/credentials/key-slot.js';
import { originOf } from '../../core/credentials/origin.js';
import { confirmDestructive } from '../../core/guards.js';
import { openAuditLog, type AuditLog } from './audit-log.js';
import { detachedClient } from './rotation/detached-client.js';
import { requestedExpiry } from './expires.js';
import { rememberKeyExpiry } from '../../core/credentials/expiry-notice.js';
import { CURRENT_KEY_PATH, KEY_PATH_TEMPLATE, KEYS_PATH } from './records.js';
import { rotateKey, rotationError, type RotationReport } from './rotation/rotate.js';
import { requireCredential } from '../../core/session.js';
import type { ResolvedCredential } from '../../core/credentials/credential.js';
import type { Session } from '../../core/session-types.js';
import { writeRecord, type View } from '../../output/index.js';
import { calls } from '../../core/description/operations.js';
import { CONFIRM_OPTIONS, OUTPUT_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';

export interface RotateOptions {
  expiresIn?: string;
  expiresAt?: string;
  keepOld?: boolean;
  auditLog?: string;
}

export interface RotateDeps {
  keychain(): SecretStore;
  /** The client sending the old key (default: one a Ctrl-C does not abort, see detached-client.ts). */
  client(ctx: Context, session: Session, credential: ResolvedCredential): Promise<ApiClient>;
}

export const ROTATE_VIEW: View = {
  label: 'rotations',
  columns: ['profile', 'oldPrefix', 'newPrefix', 'name', 'scopes', 'expiresAt', 'oldKey'],
};

/** Only a key the CLI stores can be rotated by it: refuse the others with the manual recipe. */
function refuseUnmanaged(credential: ResolvedCredential): void {
  if (credential.source === 'keychain' || credential.source === 'insecure-file') return;
  const from = credential.source === 'env' ? (credential.kind === 'bearer' ? 'APPRAISAL_TOKEN' : 'APPRAISAL_API_KEY') : '--api-key-file';
  throw new UsageError(`the key in use (${credential.prefix}) comes from ${from}, which appraisal cannot update`, {
    hint: `rotate it in your secret store: \`appraisal keys create --name N --scope S\` prints a new key once; put it where ${from} comes from, then \`appraisal keys revoke ${credential.prefix} --yes\``,
  });
}

function auditEntry(report: RotationReport, session: Session, keepOld: boolean, at: Date) {
  return {
    at: at.toISOString(),
    profile: session.profileName,
    origin: originOf(session.baseUrl),
    oldPrefix: report.oldPrefix,
    newPrefix: report.newPrefix ?? null,
    keepOld,
    steps: report.steps,
    rollback: report.rollback,
    outcome: report.outcome,
  };
}

export async function runRotate(ctx: Context, options: RotateOptions, deps: Partial<RotateDeps> = {}): Promise<void> {
  const expiresAt = requestedExpiry(options, ctx.now());
  const session = await ctx.session();
  const credential = requireCredential(session);
  refuseUnmanaged(credential);
  const profile = session.profile;
  if (!hasStoredKey(profile)) throw new UsageError(`profile ${session.profileName} has no stored key to rotate`);
  const config = await ctx.config();
  const keychain = lazyKeychain(ctx.env, deps.keychain);
  const slot = profileSlot(config, keychain, profile);

  let audit: AuditLog | undefined;
  if (options.auditLog !== undefined) audit = await openAuditLog(options.auditLog, ctx.cwd, (text) => ctx.io.redactor.redact(text));
  try {
    const keep = options.keepOld === true;
    await confirmDestructive(ctx, `rotate key ${credential.prefix} of profile ${profile.name} (${keep ? 'the old key is kept' : 'the old key is revoked at the end'})`);
    const started = ctx.now();
    const oldClient = await (deps.client ?? detachedClient)(ctx, session, credential);
    let report: RotationReport;
    try {
      report = await rotateKey(
        { profileName: profile.name, oldSecret: credential.secret, oldPrefix: credential.prefix, expiresAt, keepOld: keep },
        {
          oldClient,
          clientFor: (secret) => oldClient.withSecret(secret, slot.storage),
          slot,
          saveProfilePrefix: (prefix, record) => {
            config.saveProfile({ ...(config.getProfile(profile.name) ?? profile), keyPrefix: prefix });
            rememberKeyExpiry(config.dir, profile.name, { prefix, expiresAt: record?.expiresAt });
          },
          register: (secret) => ctx.io.redactor.register(secret),
          progress: (line) => ctx.io.notice(`rotate: ${line}`),
          now: () => ctx.now(),
          clock: () => performance.now(),
          interrupted: () => ctx.signal.aborted,
        },
      );
    } finally {
      await oldClient.close();
    }
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
    ctx.io.writeErr(`Rotated profile ${profile.name}: ${report.oldPrefix} → ${report.newPrefix}${keep ? '' : ` (${report.oldPrefix} revoked)`}`);
    if (keep) {
      ctx.io.notice(`note: the old key ${report.oldPrefix} still works (--keep-old); revoke it once nothing uses it: appraisal keys revoke ${report.oldPrefix} --yes`);
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
        oldKey: keep ? 'kept' : 'revoked',
      },
      ROTATE_VIEW,
    );
  } finally {
    await audit?.close();
  }
}

export default function rotateCommand(factory: Factory): Command {
  const command = new Command('rotate')
    .description("replace the profile's key: create, verify, store and re-verify a new one, then revoke the old one")
    .option('--expires-in <duration>', "the new key's lifetime: 12h, 90d, 2w … (default: the old key's lifetime, or never)")
    .option('--expires-at <timestamp>', 'the new key expires at this ISO 8601 time')
    .option('--keep-old', 'do not revoke the old key (revoke it yourself once nothing uses it)')
    .option('--audit-log <path>', 'append one JSON line describing the rotation to PATH (mode 0600; prefixes only)');
  calls(
    command,
    { method: 'GET', path: CURRENT_KEY_PATH },
    { method: 'POST', path: KEYS_PATH },
    { method: 'GET', path: KEY_PATH_TEMPLATE },
    { method: 'DELETE', path: KEY_PATH_TEMPLATE },
  );
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...CONFIRM_OPTIONS);
  examples(command, [
    'appraisal keys rotate',
    'appraisal keys rotate --profile staging --expires-in 90d --yes --audit-log ~/appraisal-rotations.jsonl',
    'appraisal keys rotate --keep-old   # revoke the old key later with keys revoke',
  ]);
  command.addHelpText(
    'after',
    '\nIf any step fails, the profile keeps a working key: the new key is revoked and the old one stays,\nor, if the old key could not be revoked at the end, both keep working and the message says how to finish.\n',
  );
  return command.action(action<RotateOptions>(factory, (ctx, _args, options) => runRotate(ctx, options)));
}
