// `appraisal auth logout`: remove the profile's stored key (keychain entry or insecure file) and its
// prefix from the profile. The profile keeps its base URL and environment.
import { validateProfileName } from '../../core/config.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { removeStoredKey } from '../../core/credentials/stored-key.js';
import { defineVerb } from '../../core/verb.js';

export async function runLogout(ctx: Context): Promise<void> {
  const config = await ctx.config();
  const profileName = validateProfileName(ctx.globals.profile ?? config.activeProfileName());
  const profile = config.getProfile(profileName);
  if (!profile) {
    throw new UsageError(`no profile "${profileName}"`, { hint: '`appraisal profiles list` shows the profiles' });
  }
  const removed = await removeStoredKey(config, () => ctx.keychain(), profile);
  if (!removed) {
    ctx.io.notice(`profile ${profileName} has no stored key; nothing to remove`);
  } else {
    await config.saveProfile({ ...profile, keyPrefix: undefined, keyStorage: undefined, keyOrigin: undefined });
    const key = profile.keyPrefix ? `key ${profile.keyPrefix}…` : 'the key';
    ctx.io.writeErr(
      removed.removed
        ? `Logged out of profile ${profileName}: removed ${key} from ${removed.where}`
        : `Logged out of profile ${profileName}: ${key} was already gone from ${removed.where}`,
    );
    // This profile has no key now: the revoke needs another admin key, and --yes when no one is there to confirm.
    ctx.io.notice(
      `note: the key itself still works on the service until it is revoked (appraisal keys revoke ${profile.keyPrefix ?? 'PREFIX'} --yes, with another admin key)`,
    );
  }
  if (ctx.env.APPRAISAL_API_KEY || ctx.env.APPRAISAL_TOKEN) {
    ctx.io.notice(`note: ${ctx.env.APPRAISAL_API_KEY ? 'APPRAISAL_API_KEY' : 'APPRAISAL_TOKEN'} is still set here and is still used`);
  }
}

export default defineVerb({
  name: 'logout',
  summary: "remove the profile's stored key (keychain entry or insecure file)",
  takes: ['profile'],
  calls: 'none',
  examples: ['appraisal auth logout', 'appraisal auth logout --profile staging'],
  run: (ctx) => runLogout(ctx),
});
