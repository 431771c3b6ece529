// `appraisal auth status`: which profile, base URL, environment and credential a command would use,
// and what the service says about the key (name, scopes, expiry). Exit 4 when the key does not work.
import { Command } from 'commander';
import { action, examples, type Factory } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { warnKeyExpiry } from '../../core/credentials/expiry-notice.js';
import { currentKey } from '../../core/credentials/verify.js';
import { requireCredential } from '../../core/session.js';
import { writeRecord, type View } from '../../output/index.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';

export const STATUS_VIEW: View = {
  label: 'auth status',
  columns: ['profile', 'baseUrl', 'environment', 'source', 'keyPrefix', 'keyName', 'scopes', 'expiresAt'],
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
    { prefix: credential.prefix, expiresAt: record?.expiresAt },
    stored ? { configDir: (await ctx.config()).dir, profileName: session.profileName } : undefined,
  );
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
    },
    STATUS_VIEW,
  );
}

export default function statusCommand(factory: Factory): Command {
  const command = new Command('status').description('show the profile, base URL, environment, key source, key prefix, scopes and expiry');
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS);
  examples(command, ['appraisal auth status', 'appraisal auth status --profile staging -o json']);
  return command.action(action(factory, (ctx) => runStatus(ctx)));
}
