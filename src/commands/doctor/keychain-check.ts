// Offline: is the OS keychain reachable (bounded by APPRAISAL_KEYRING_TIMEOUT), and does it hold the
// profile's key? Only the answer is looked at, never shown. A profile without a keychain key skips it.
import type { Context } from '../../core/context.js';
import { classifyKeychainError, keychainAccount, keyringTimeoutMs } from '../../core/credentials/keychain.js';
import { storedKeyOrigin } from '../../core/credentials/key-slot.js';
import type { ConfigFacts } from './config-checks.js';
import { error, ok, within, type Item } from './finding.js';

export async function checkKeychain(ctx: Context, facts: ConfigFacts): Promise<Item[]> {
  const profile = facts.profile;
  if (profile?.keyStorage !== 'keychain') return [];
  const keychain = ctx.keychain();
  const limit = keyringTimeoutMs(ctx.env) + 500;
  try {
    const answer = await within(limit, () => keychain.get(keychainAccount(profile.name, storedKeyOrigin(profile))));
    if (answer === 'timeout')
      return [error('keychain', `the OS keychain did not answer within ${limit} ms`, 'unlock it, or set APPRAISAL_API_KEY for this run')];
    if (answer === undefined) {
      return [
        error('keychain', `the OS keychain holds no key for profile ${profile.name}`, `appraisal auth login --profile ${profile.name}`),
      ];
    }
    return [ok('keychain', `reachable; holds the key of profile ${profile.name} (${profile.keyPrefix ?? 'prefix unknown'})`)];
  } catch (thrown) {
    return [
      error(
        'keychain',
        // Its message names the keychain already ("the OS keychain is not available (…)").
        classifyKeychainError(thrown).message,
        'start/unlock the keychain (a Secret Service on Linux), or use APPRAISAL_API_KEY or auth login --insecure-storage',
      ),
    ];
  }
}
