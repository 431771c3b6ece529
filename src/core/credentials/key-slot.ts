// Where a profile's key lives — its OS keychain entry or its --insecure-storage file — as one slot
// that can be read back and overwritten. Key rotation needs both, and needs to know after a failed
// write whether the old key is certainly still there.
import type { ConfigStore, KeyStorage } from '../config.js';
import { LocalEnvironmentError } from '../errors.js';
import { insecureKeyPath, readInsecureKey, writeInsecureKey } from './insecure-file.js';
import { KeychainUnavailableError, keychainAccount, type SecretStore } from './keychain.js';
import { keychainProblem } from './resolve.js';

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
  /** The stored key, or undefined when there is none. */
  read(): Promise<string | undefined>;
  /** Replace the stored key. Throws KeyWriteError. */
  write(secret: string): Promise<void>;
}

export interface SlotTarget {
  profileName: string;
  /** Origin the key belongs to (`scheme://host:port`): part of the keychain account. */
  origin: string;
  storage: KeyStorage;
}

export function keySlot(config: ConfigStore, keychain: () => SecretStore, target: SlotTarget): KeySlot {
  const { profileName, origin, storage } = target;
  if (storage === 'insecure-file') {
    const path = insecureKeyPath(config.dir, profileName);
    return {
      profileName,
      storage,
      where: path,
      read: async () => readInsecureKey(config.dir, profileName),
      write: async (secret) => {
        try {
          writeInsecureKey(config.dir, profileName, secret);
        } catch (error) {
          // Temp file + rename: a failed write never touched the old file.
          if (error instanceof LocalEnvironmentError) throw new KeyWriteError(error, true);
          throw error;
        }
      },
    };
  }
  const account = keychainAccount(profileName, origin);
  return {
    profileName,
    storage,
    where: `the OS keychain (${account})`,
    read: async () => {
      try {
        return (await keychain().get(account))?.trim() || undefined;
      } catch (error) {
        if (error instanceof KeychainUnavailableError) throw keychainProblem(error, `read the key of profile "${profileName}"`, profileName);
        throw error;
      }
    },
    write: async (secret) => {
      try {
        await keychain().set(account, secret);
      } catch (error) {
        if (error instanceof KeychainUnavailableError) {
          const problem = keychainProblem(error, `write the key of profile "${profileName}" to the OS keychain`, profileName);
          throw new KeyWriteError(problem, error.failure !== 'timeout');
        }
        throw error;
      }
    },
  };
}
