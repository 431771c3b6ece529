// Storing and removing a profile's key: login, logout, profiles remove, and (for the keys commands)
// `keys create --store-as` and `keys rotate`. The key goes to the OS keychain, or with
// --insecure-storage to a 0600 file; the profile records only its prefix, storage and origin.
import type { ConfigStore, Environment, KeyStorage, Profile } from '../config.js';
import { keyPrefix } from '../redact.js';
import { insecureStorageWarning } from './insecure-file.js';
import { KeychainUnavailableError, type SecretStore } from './keychain.js';
import { KeyWriteError, hasStoredKey, keySlot, keychainProblem, profileSlot, storedKeyOrigin } from './key-slot.js';
import { originOf } from './origin.js';

export interface RemovedKey {
  /** Something was actually deleted (false: the entry was already gone). */
  removed: boolean;
  /** Where it was, for messages. */
  where: string;
}

/** Delete the key the profile says it has; undefined when the profile has none stored. */
export async function removeStoredKey(config: ConfigStore, keychain: () => SecretStore, profile: Profile): Promise<RemovedKey | undefined> {
  if (!hasStoredKey(profile)) return undefined;
  const slot = profileSlot(config, keychain, profile);
  return { removed: await slot.remove(), where: slot.where };
}

export interface StoreKeyRequest {
  profileName: string;
  /** Normalized base URL; the key is bound to its origin. */
  baseUrl: string;
  environment: Environment;
  caFile: string | undefined;
  /** A key already checked against the service. */
  secret: string;
  /** --insecure-storage: a 0600 file instead of the keychain. */
  insecure: boolean;
  /** The `auth login … --insecure-storage` line a keychain failure's hint offers (default: by profile name). */
  insecureLogin?: string | undefined;
}

/** What a keychain failure says when a key is to be stored (also before login asks for the key). */
export const KEYCHAIN_STORE_FAILED = 'store the key in the OS keychain; nothing was stored';

export interface StoredKey {
  profile: Profile;
  storage: KeyStorage;
  /** This was the first profile, so it became the active one. */
  madeActive: boolean;
}

/**
 * Store a verified key for a profile and save the profile (created or updated). A key stored before
 * under another origin or in the other place is removed (a failure there is only warned about).
 * Keychain trouble is exit 2 with the two ways forward; nothing is saved then.
 */
export async function storeProfileKey(
  config: ConfigStore,
  keychain: () => SecretStore,
  request: StoreKeyRequest,
  warn: (message: string) => void,
): Promise<StoredKey> {
  const { profileName, secret } = request;
  const origin = originOf(request.baseUrl);
  const existing = config.getProfile(profileName);

  const storage: KeyStorage = request.insecure ? 'insecure-file' : 'keychain';
  const slot = keySlot(config, keychain, { profileName, origin, storage });
  // Should the profile not be saved (a held config lock, Ctrl-C), the slot is put back as it was: a
  // new key that no profile names must not stay behind. Read first only when the profile names this
  // very slot (a slot no profile names holds nothing worth keeping); unreadable: left as written.
  const namesThisSlot =
    hasStoredKey(existing) && existing.keyStorage === storage && (storage === 'insecure-file' || storedKeyOrigin(existing) === origin);
  const before = namesThisSlot
    ? await slot.read().then(
        (previous) => ({ known: true as const, secret: previous }),
        () => ({ known: false as const, secret: undefined }),
      )
    : { known: true as const, secret: undefined };
  try {
    await slot.write(secret);
  } catch (error) {
    if (error instanceof KeyWriteError && error.cause instanceof KeychainUnavailableError) {
      throw keychainProblem(error.cause, KEYCHAIN_STORE_FAILED, profileName, request.insecureLogin);
    }
    throw error;
  }

  const madeActive = config.listProfiles().length === 0;
  const profile: Profile = {
    name: profileName,
    baseUrl: request.baseUrl,
    environment: request.environment,
    caFile: request.caFile,
    keyPrefix: keyPrefix(secret),
    keyStorage: storage,
    keyOrigin: origin,
  };
  try {
    await config.saveProfile(profile);
  } catch (error) {
    if (before.known) {
      await (before.secret === undefined ? slot.remove() : slot.write(before.secret)).catch((undo: unknown) => {
        warn(`the new key stays in ${slot.where}, which no profile names: ${(undo as Error).message}`);
      });
    }
    throw error;
  }
  if (storage === 'insecure-file') warn(insecureStorageWarning(profileName, slot.where));
  if (madeActive) await config.setActiveProfile(profileName);

  // Only now that the profile names the new place: the key it named before, if elsewhere, goes.
  if (existing?.keyStorage !== undefined) {
    // The insecure file's path does not depend on the origin: it was just overwritten.
    const stale = existing.keyStorage !== storage || (storage === 'keychain' && storedKeyOrigin(existing) !== origin);
    if (stale) {
      await removeStoredKey(config, keychain, existing).catch((error: unknown) => {
        warn(`could not remove the previous key of profile ${profileName}: ${(error as Error).message}`);
      });
    }
  }
  return { profile, storage, madeActive };
}
