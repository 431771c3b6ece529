// `appraisal profiles remove NAME`: delete the profile and its stored key. Destructive: confirmed on a
// terminal, --yes otherwise, with the production banner for a production profile.
import { validateProfileName } from '../../core/config.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { removeStoredKey } from '../../core/credentials/stored-key.js';
import { confirmDestructive } from '../../core/guards.js';
import { CONFIRM_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export async function runRemove(ctx: Context, name: string): Promise<void> {
  const config = await ctx.config();
  const profile = config.getProfile(validateProfileName(name));
  if (!profile) throw new UsageError(`no profile "${name}"`, { hint: '`appraisal profiles list` shows the profiles' });
  const key = profile.keyPrefix ? ` and its stored key ${profile.keyPrefix}…` : '';
  await confirmDestructive(ctx, `remove profile ${profile.name}${key}`, {
    profileName: profile.name,
    environment: profile.environment,
    baseUrl: profile.baseUrl,
    keyPrefix: profile.keyPrefix,
  });
  // The key first: if the keychain cannot be used, the profile stays, so nothing is orphaned.
  const removed = await removeStoredKey(config, () => ctx.keychain(), profile);
  const wasActive = config.activeProfileName() === profile.name;
  await config.removeProfile(profile.name);
  ctx.io.writeErr(`Removed profile ${profile.name}${removed?.removed ? `${key} (from ${removed.where})` : ''}`);
  if (profile.keyPrefix) {
    ctx.io.notice(
      `note: the key ${profile.keyPrefix} itself still works on the service until it is revoked (appraisal keys revoke ${profile.keyPrefix} --yes, with another admin key)`,
    );
  }
  if (wasActive) {
    // With none chosen, commands use the profile named `default`: when there is one, it is active now.
    const next = config.getProfile(config.activeProfileName());
    ctx.io.notice(
      next
        ? `note: the active profile is now ${next.name} (${next.environment}, ${next.baseUrl}); pick another with \`appraisal profiles use NAME\``
        : 'note: no profile is active now; pick one with `appraisal profiles use NAME`',
    );
  }
}

export default defineVerb({
  name: 'remove',
  aliases: ['rm'],
  summary: 'remove a profile and delete its stored key',
  arguments: [{ name: 'name', description: 'profile name', required: true }],
  takes: CONFIRM_OPTIONS,
  calls: 'none',
  examples: ['appraisal profiles remove old-staging', 'appraisal profiles remove old-staging --yes'],
  run: (ctx, [name]) => runRemove(ctx, name!),
});
