// `appraisal auth status`: which profile, base URL, environment and credential a command would use,
// and what the service says about the key (name, scopes, expiry). Exit 4 when the key does not work.
import type { Context } from '../../core/context.js';
import { warnKeyExpiry } from '../../core/credentials/expiry-notice.js';
import { currentKey } from './verify.js';
import { isDue, pendingFor } from '../../core/credentials/pending-revocations.js';
import { requireCredential } from '../../core/session.js';
import { writeRecord, type View } from '../../output/index.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export const STATUS_VIEW: View = {
  label: 'auth status',
  columns: ['profile', 'baseUrl', 'environment', 'source', 'keyPrefix', 'keyName', 'scopes', 'expiresAt'],
  // A key without expiry: a person reads "never", not an empty cell (json keeps null).
  blank: { expiresAt: 'never' },
};

export async function runStatus(ctx: Context): Promise<void> {
  const session = await ctx.session();
  const credential = requireCredential(session);
  const client = await ctx.api();
  const record = await currentKey(client);
  // Warn every time here (once per process); for a stored key, refresh the cache every command's
  // once-a-day notice reads, and count this as the day's warning.
  const stored = record !== undefined && (credential.source === 'keychain' || credential.source === 'insecure-file');
  warnKeyExpiry(
    ctx.io,
    ctx.now(),
    { prefix: credential.prefix, name: record?.name, expiresAt: record?.expiresAt, scopes: record?.scopes },
    stored ? { configDir: (await ctx.config()).dir, profileName: session.profileName } : undefined,
  );
  // Old keys kept alive by `keys rotate --grace`: they still work until `keys revoke --due`.
  const now = ctx.now();
  const pending = pendingFor((await ctx.config()).dir, session.profileName).map((entry) => ({
    id: entry.id,
    prefix: entry.prefix,
    dueAt: entry.dueAt,
    due: isDue(entry, now),
  }));
  for (const entry of pending) {
    ctx.io.writeErr(
      entry.due
        ? `pending revocation: key ${entry.prefix} was due at ${entry.dueAt} and still works; run \`appraisal keys revoke --due --profile ${session.profileName}\``
        : `pending revocation: key ${entry.prefix} still works until ${entry.dueAt} (keys rotate --grace); \`appraisal keys revoke --due\` revokes it then`,
    );
  }
  await writeRecord(
    ctx,
    {
      profile: session.profileName,
      baseUrl: session.baseUrl,
      environment: session.environment,
      source: credential.source,
      keyPrefix: credential.prefix,
      keyId: record?.id ?? null,
      keyName: record?.name ?? null,
      scopes: record?.scopes ?? null,
      expiresAt: record?.expiresAt ?? null,
      pendingRevocations: pending,
    },
    STATUS_VIEW,
  );
}

export default defineVerb({
  name: 'status',
  writesOne: true,
  summary: 'show the profile, base URL, environment, key source, key prefix, scopes and expiry',
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS],
  // `GET /api/keys/current`, or a one-record read where a deployment lacks that route (verify.ts):
  // the fallback is the point, so the requests are not bound up front.
  calls: 'per-request',
  examples: ['appraisal auth status', 'appraisal auth status --profile staging -o json'],
  run: (ctx) => runStatus(ctx),
});
