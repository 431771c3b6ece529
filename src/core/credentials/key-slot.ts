// The one place a profile's stored key is read, written and removed: its OS keychain entry
// (`<profile>@<origin>`) or its --insecure-storage file. Credential resolution, `auth login/logout`,
// `profiles remove`, `keys create --store-as` and `keys rotate` all go through a KeySlot, so the
// account naming, the keychain error messages and the "did a failed write leave the old key?"
// knowledge exist once.
import type { ConfigStore, KeyStorage, Profile } from '../config.js';
import { LocalEnvironmentError } from '../errors.js';
import { deleteInsecureKey, insecureKeyPath, readInsecureKey, writeInsecureKey } from './insecure-file.js';
import { KeychainUnavailableError, keychainAccount, type SecretStore } from './keychain.js';
import { originOf } from './origin.js';

/**
 * Keychain trouble while reading or writing a profile's key: exit 2 with the two ways forward.
 * `insecureLogin` is the `auth login` line the hint offers (login passes the user's own, with
 * --insecure-storage added); by default `appraisal auth login --profile NAME --insecure-storage`.
 */
export function keychainProblem(
  error: KeychainUnavailableError,
  doing: string,
  profileName: string,
  insecureLogin = `appraisal auth login --profile ${profileName} --insecure-storage`,
): LocalEnvironmentError {
  return new LocalEnvironmentError(`could not ${doing}: ${error.message}`, {
    hint: `for automation set APPRAISAL_API_KEY; or run \`${insecureLogin}\` to keep the key in a 0600 file in the config dir (a warning is printed on every use)`,
    cause: error,
  });
}

/**
 * Keychain trouble while removing a key (logout, `profiles remove`): storing a key elsewhere, which
 * keychainProblem offers, does not help, and the profile keeps naming its entry so that no key is
 * left behind that nothing names. The way forward is the keychain itself.
 */
const KEYCHAIN_REMOVE_HINT =
  'start or unlock the OS keychain (on Linux a Secret Service, such as gnome-keyring, in a D-Bus session) and run it again; nothing was removed';

/**
 * Writing the key failed. `entryUnchanged` says whether the slot certainly still holds what it held
 * before: true when the store refused the write (a locked or missing keychain, a file that could not
 * be written — file writes are atomic), false when it is unknown (the keychain timed out and may still
 * complete the write).
 */
export class KeyWriteError extends LocalEnvironmentError {
  override readonly name: string = 'KeyWriteError';
  readonly entryUnchanged: boolean;
  constructor(error: LocalEnvironmentError, entryUnchanged: boolean) {
    super(error.message, { hint: error.hint, cause: error.cause ?? error });
    this.entryUnchanged = entryUnchanged;
  }
}

export interface KeySlot {
  readonly profileName: string;
  readonly storage: KeyStorage;
  /** For messages: "the OS keychain (default@https://host:443)" or the file's path. */
  readonly where: string;
  /** The stored key (trimmed), or undefined when there is none. */
  read(): Promise<string | undefined>;
  /** Store or replace the key. Throws KeyWriteError. */
  write(secret: string): Promise<void>;
  /** Delete the key; true when something was deleted, false when it was already gone. */
  remove(): Promise<boolean>;
}

export interface SlotTarget {
  profileName: string;
  /** Origin the key belongs to (`scheme://host:port`): part of the keychain account. */
  origin: string;
  storage: KeyStorage;
}

/** The origin a profile's stored key belongs to (older profiles: the origin of their base URL). */
export function storedKeyOrigin(profile: Profile): string {
  return profile.keyOrigin ?? originOf(profile.baseUrl);
}

export function hasStoredKey(profile: Profile | undefined): profile is Profile & { keyStorage: KeyStorage } {
  return profile?.keyStorage !== undefined;
}

/** `keychain` is the context's (ctx.keychain): the one way the keychain reaches a command. */
export function keySlot(config: Pick<ConfigStore, 'dir'>, keychain: () => SecretStore, target: SlotTarget): KeySlot {
  const { profileName, origin, storage } = target;
  if (storage === 'insecure-file') {
    return {
      profileName,
      storage,
      where: insecureKeyPath(config.dir, profileName),
      read: async () => readInsecureKey(config.dir, profileName, origin),
      write: async (secret) => {
        try {
          writeInsecureKey(config.dir, profileName, secret, origin);
        } catch (error) {
          // Temp file + rename: a failed write never touched the old file.
          if (error instanceof LocalEnvironmentError) throw new KeyWriteError(error, true);
          throw error;
        }
      },
      remove: async () => deleteInsecureKey(config.dir, profileName),
    };
  }
  const account = keychainAccount(profileName, origin);
  const call = async <T>(doing: string, work: (store: SecretStore) => Promise<T>, removing = false): Promise<T> => {
    try {
      return await work(keychain());
    } catch (error) {
      if (error instanceof KeychainUnavailableError && removing) {
        throw new LocalEnvironmentError(`could not ${doing}: ${error.message}`, { hint: KEYCHAIN_REMOVE_HINT, cause: error });
      }
      if (error instanceof KeychainUnavailableError) throw keychainProblem(error, doing, profileName);
      throw error;
    }
  };
  return {
    profileName,
    storage,
    where: `the OS keychain (${account})`,
    read: async () => (await call(`read the key of profile "${profileName}"`, (store) => store.get(account)))?.trim() || undefined,
    write: async (secret) => {
      try {
        await call(`write the key of profile "${profileName}" to the OS keychain`, (store) => store.set(account, secret));
      } catch (error) {
        if (error instanceof LocalEnvironmentError && error.cause instanceof KeychainUnavailableError) {
          throw new KeyWriteError(error, error.cause.failure !== 'timeout');
        }
        throw error;
      }
    },
    remove: () => call(`remove the key of profile "${profileName}" from the OS keychain`, (store) => store.delete(account), true),
  };
}

/** The slot a profile's stored key is in. */
export function profileSlot(
  config: Pick<ConfigStore, 'dir'>,
  keychain: () => SecretStore,
  profile: Profile & { keyStorage: KeyStorage },
): KeySlot {
  return keySlot(config, keychain, { profileName: profile.name, origin: storedKeyOrigin(profile), storage: profile.keyStorage });
}
