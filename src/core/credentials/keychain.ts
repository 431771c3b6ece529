// The OS keychain behind a three-call interface, so tests can hand in a fake. The real one goes
// through @napi-rs/keyring's AsyncEntry, loaded on first use (a native addon: failing to load it
// means "no keychain"), and every call is raced against APPRAISAL_KEYRING_TIMEOUT: a missing or
// locked keychain gives a clear error, never a hang.
import type { Env } from '../env.js';
import { UsageError } from '../errors.js';
import { probeSecretService } from './dbus-probe.js';
import { formatDuration } from '../duration.js';

export const KEYCHAIN_SERVICE = 'appraisal-cli';
export const DEFAULT_KEYRING_TIMEOUT_MS = 3000;

/** Where secrets are kept, one per account. */
export interface SecretStore {
  /** The secret, or undefined when there is none. */
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  /** True when something was deleted, false when there was nothing. */
  delete(account: string): Promise<boolean>;
}

export type KeychainFailure = 'unavailable' | 'locked' | 'timeout';

/** The keychain could not be used. Callers turn it into a message that names the alternatives. */
export class KeychainUnavailableError extends Error {
  constructor(
    readonly failure: KeychainFailure,
    /** Why, in a few words: "not available (…)", "locked", "timed out after 3s". */
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`the OS keychain ${reason}`, options);
    this.name = 'KeychainUnavailableError';
  }
}

/** The keychain account of a profile's key: `<profile>@<origin>`. */
export function keychainAccount(profileName: string, origin: string): string {
  return `${profileName}@${origin}`;
}

export function keyringTimeoutMs(env: Env): number {
  const raw = env.APPRAISAL_KEYRING_TIMEOUT;
  if (raw === undefined || raw.trim() === '') return DEFAULT_KEYRING_TIMEOUT_MS;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value <= 0 || value > 600_000) {
    throw new UsageError(`APPRAISAL_KEYRING_TIMEOUT must be a whole number of milliseconds (1-600000), got "${raw}"`);
  }
  return value;
}

/** Turn whatever the native binding threw into a KeychainUnavailableError with a short reason. */
export function classifyKeychainError(error: unknown): KeychainUnavailableError {
  if (error instanceof KeychainUnavailableError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // Keep the detail to one short line: D-Bus errors can be long.
  const detail = message.replace(/\s+/g, ' ').trim().slice(0, 160);
  if (/locked|NoStorageAccess|dismissed|prompt/i.test(message)) {
    return new KeychainUnavailableError('locked', `is locked or refused access (${detail})`, { cause: error });
  }
  return new KeychainUnavailableError('unavailable', `is not available (${detail})`, { cause: error });
}

interface KeyringModule {
  AsyncEntry: new (
    service: string,
    username: string,
    options?: { linux?: { store?: 'secret-service' | 'keyutils' } },
  ) => {
    getPassword(signal?: AbortSignal): Promise<string | null>;
    setPassword(password: string, signal?: AbortSignal): Promise<void>;
    deleteCredential(signal?: AbortSignal): Promise<boolean>;
  };
}

let keyringModule: Promise<KeyringModule> | undefined;

function loadKeyring(): Promise<KeyringModule> {
  keyringModule ??= import('@napi-rs/keyring') as Promise<KeyringModule>;
  return keyringModule;
}

/**
 * The Secret Service went away in the middle of a call: gnome-keyring restarted (it is started on
 * demand by D-Bus, so the next call finds it again) or crashed. Worth one more try.
 */
const SERVICE_WENT_AWAY = /disconnected from message bus without replying|org\.freedesktop\.DBus\.Error\.NoReply/i;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The pause before that try: time for D-Bus to start the service again. */
export const RETRY_AFTER_MS = 250;

/** One keychain call, tried once more after a short pause when the service went away during it (idempotent calls only: get, set, delete). */
export async function onceMoreIfGone<T>(call: () => Promise<T>, pause: (ms: number) => Promise<void> = sleep): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!SERVICE_WENT_AWAY.test(error instanceof Error ? error.message : String(error))) throw error;
    await pause(RETRY_AFTER_MS);
    return call();
  }
}

/** Run one keychain call with a deadline; the call is also asked to stop when the deadline passes. */
async function bounded<T>(timeoutMs: number, call: (signal: AbortSignal) => Promise<T>, before?: () => Promise<void>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new KeychainUnavailableError('timeout', `did not answer: timed out after ${formatDuration(timeoutMs)}`));
    }, timeoutMs);
  });
  const work = (async () => {
    await before?.();
    try {
      await loadKeyring();
    } catch (error) {
      // One line, long enough for a refused cache path and the fallback it names (boot/sea-native.ts).
      const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
      throw new KeychainUnavailableError('unavailable', `is not available (the keyring module did not load: ${message.slice(0, 400)})`, {
        cause: error,
      });
    }
    return onceMoreIfGone(() => call(controller.signal));
  })();
  // A call that fails after the deadline has already been reported as a timeout.
  work.catch(() => {});
  try {
    return await Promise.race([work, deadline]);
  } catch (error) {
    throw classifyKeychainError(error);
  } finally {
    clearTimeout(timer);
  }
}

/** The OS keychain (service `appraisal-cli`). On Linux it is pinned to the Secret Service: the
 *  kernel keyring fallback forgets keys at logout, which would lose a login silently. */
export function osKeychain(env: Env): SecretStore {
  const timeoutMs = keyringTimeoutMs(env);
  // Linux: the binding connects to D-Bus synchronously (see dbus-probe.ts); check first, once.
  let probed: Promise<void> | undefined;
  const probe =
    process.platform === 'linux'
      ? () =>
          (probed ??= probeSecretService(env, timeoutMs).then((result) => {
            if (result.ok) return;
            if (result.kind === 'timeout')
              throw new KeychainUnavailableError('timeout', `did not answer: timed out after ${formatDuration(timeoutMs)}`);
            throw new KeychainUnavailableError('unavailable', `is not available (${result.reason})`);
          }))
      : undefined;
  const entry = async (account: string) => {
    const { AsyncEntry } = await loadKeyring();
    // The constructor connects to the store and throws synchronously when there is none.
    return new AsyncEntry(KEYCHAIN_SERVICE, account, { linux: { store: 'secret-service' } });
  };
  return {
    get: (account) => bounded(timeoutMs, async (signal) => (await (await entry(account)).getPassword(signal)) ?? undefined, probe),
    set: (account, secret) => bounded(timeoutMs, async (signal) => (await entry(account)).setPassword(secret, signal), probe),
    delete: (account) => bounded(timeoutMs, async (signal) => (await entry(account)).deleteCredential(signal), probe),
  };
}
