// Profiles and settings, kept in <config dir>/config.json (mode 0600, directory 0700).
// A profile never holds a key: only its prefix, where it is stored, and the origin it belongs to.
// Whoever can write the config dir or config.json could point a profile at their own server and
// receive its key (issue 26 §6): as ssh does with ~/.ssh, a config dir or file that another user owns
// or can write is refused (exit 2) with one line saying how to fix it; config.json is read and
// written through core/owned-file.ts (no link followed, regular, ours, one link).
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { writeFileAtomicSync } from './atomic-file.js';
import { withFileLock, type LockWaitOptions } from './file-lock.js';
import type { Env } from './env.js';
import { InterruptedError, LocalEnvironmentError, UsageError } from './errors.js';
import { readOwnedSync, trustedDirProblem, UnsafeFileError } from './owned-file.js';

/** Far more than any config file: a larger one is not ours. */
const CONFIG_MAX_BYTES = 4 * 1024 * 1024;

export type Environment = 'production' | 'staging' | 'development' | 'local';
export const ENVIRONMENTS: readonly Environment[] = ['production', 'staging', 'development', 'local'];

export type KeyStorage = 'keychain' | 'insecure-file';
export const KEY_STORAGES: readonly KeyStorage[] = ['keychain', 'insecure-file'];

export interface Profile {
  name: string;
  baseUrl: string;
  environment: Environment;
  caFile?: string | undefined;
  /** `apk_xxxxxxxx` of the stored key; never the key. */
  keyPrefix?: string | undefined;
  keyStorage?: KeyStorage | undefined;
  /** Origin (scheme://host:port) the stored key was stored for; it is never sent anywhere else. */
  keyOrigin?: string | undefined;
  /** `auth login --spec-url`: where this service's description is published (URL or file path). */
  specUrl?: string | undefined;
}

export interface ConfigStore {
  /** Directory holding config.json (and insecure-storage files). */
  readonly dir: string;
  /** The config file itself. */
  readonly path: string;
  /** The profile set with `profiles use`, else `default`. */
  activeProfileName(): string;
  getProfile(name: string): Profile | undefined;
  listProfiles(): Profile[];
  /** The writes wait for another command's lock on config.json (at most 5 s; Ctrl-C ends the wait). */
  saveProfile(profile: Profile): Promise<void>;
  removeProfile(name: string): Promise<void>;
  setActiveProfile(name: string): Promise<void>;
}

export const DEFAULT_PROFILE = 'default';
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A documented key, or anything long and random-looking: neither belongs in the config file. */
const KEY_LIKE = /apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{8,}/;

export function validateProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name "${name}"`, {
      hint: 'use 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit',
    });
  }
  return name;
}

export function isEnvironment(value: unknown): value is Environment {
  return typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);
}

/** Where profiles live: APPRAISAL_CONFIG_DIR, else the XDG config dir (APPDATA on Windows). */
export function configDir(env: Env): string {
  if (env.APPRAISAL_CONFIG_DIR) return resolve(env.APPRAISAL_CONFIG_DIR);
  if (process.platform === 'win32') {
    return join(env.APPDATA ?? join(env.USERPROFILE ?? homedir(), 'AppData', 'Roaming'), 'appraisal-cli');
  }
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), '.config');
  return join(base, 'appraisal-cli');
}

/**
 * Refuse a directory whose files the CLI trusts (the config dir, the credentials dir) when another
 * user owns it or can write to it; a missing one is fine (it is created 0700 when first written).
 */
export function checkTrustedDir(dir: string): void {
  let info;
  try {
    info = statSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new LocalEnvironmentError(`cannot use the config directory ${dir}: ${(error as Error).message}`, { cause: error });
  }
  const problem = trustedDirProblem(info);
  if (problem === undefined) return;
  const hint = problem.includes('owned by another user')
    ? `use a config directory of your own (APPRAISAL_CONFIG_DIR), or \`chown -R $(id -u) ${dir}\` if it is yours`
    : `run \`chmod go-w ${dir}\` (or \`chmod 700 ${dir}\`)`;
  throw new UnsafeFileError(dir, problem, hint);
}

/**
 * Create a directory only its owner can enter; an existing one must pass checkTrustedDir and is
 * tightened to 0700.
 */
export function ensurePrivateDir(dir: string): void {
  checkTrustedDir(dir);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new LocalEnvironmentError(`cannot create the config directory ${dir}: ${(error as Error).message}`, { cause: error });
  }
  try {
    chmodSync(dir, 0o700);
  } catch {
    // A root-owned directory the user may not change; checkTrustedDir made sure no one else can write it.
  }
}

/** Refuse to write anything that looks like a secret into the config file. */
function assertNoSecret(profile: Profile): void {
  for (const [field, value] of Object.entries(profile)) {
    if (typeof value === 'string' && KEY_LIKE.test(value)) {
      throw new UsageError(`refusing to save profile "${profile.name}": field ${field} looks like an API key`, {
        hint: 'the config file keeps only the key prefix (apk_xxxxxxxx); the key goes to the keychain',
      });
    }
  }
  if (profile.keyPrefix !== undefined && profile.keyPrefix.length > 12) {
    throw new UsageError(`refusing to save profile "${profile.name}": keyPrefix is longer than a key prefix`);
  }
}

interface StoredShape extends Record<string, unknown> {
  activeProfile?: string;
  profiles?: Record<string, Partial<Profile>>;
}

/** Read one stored profile tolerantly: a hand-edited file must not crash the CLI. */
function readProfile(name: string, raw: Partial<Profile> | undefined): Profile | undefined {
  if (!raw || typeof raw !== 'object' || typeof raw.baseUrl !== 'string') return undefined;
  return {
    name,
    baseUrl: raw.baseUrl,
    // An unknown environment counts as production for every guard.
    environment: isEnvironment(raw.environment) ? raw.environment : 'production',
    caFile: typeof raw.caFile === 'string' ? raw.caFile : undefined,
    keyPrefix: typeof raw.keyPrefix === 'string' ? raw.keyPrefix : undefined,
    keyStorage: raw.keyStorage === 'keychain' || raw.keyStorage === 'insecure-file' ? raw.keyStorage : undefined,
    keyOrigin: typeof raw.keyOrigin === 'string' ? raw.keyOrigin : undefined,
    specUrl: typeof raw.specUrl === 'string' ? raw.specUrl : undefined,
  };
}

/** Only the fields that are set, so the file stays small and readable. */
function toStored(profile: Profile): Partial<Profile> {
  const stored: Partial<Profile> = { baseUrl: profile.baseUrl, environment: profile.environment };
  if (profile.caFile) stored.caFile = profile.caFile;
  if (profile.keyPrefix) stored.keyPrefix = profile.keyPrefix;
  if (profile.keyStorage) stored.keyStorage = profile.keyStorage;
  if (profile.keyOrigin) stored.keyOrigin = profile.keyOrigin;
  if (profile.specUrl) stored.specUrl = profile.specUrl;
  return stored;
}

/** The config file's content, tolerating a missing file; a damaged one is the user's to fix. */
function readStored(path: string): StoredShape {
  let text: string | undefined;
  try {
    text = readOwnedSync(path, CONFIG_MAX_BYTES, { refuseLonger: true });
    if (text === undefined) return {};
  } catch (error) {
    if (error instanceof UnsafeFileError) throw error;
    throw new LocalEnvironmentError(`cannot read the config file ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as StoredShape;
  } catch {
    // Reported below.
  }
  throw new LocalEnvironmentError(`the config file ${path} is not valid JSON`, {
    hint: 'fix the file or move it away, then log in again',
  });
}

// A small JSON file read with one readFileSync: conf (with ajv and an exit hook that re-raises
// signals) cost every command ~50 ms of start-up and disturbed Ctrl-C handling.
export async function loadConfig(env: Env, lockWait: LockWaitOptions = {}): Promise<ConfigStore> {
  const dir = configDir(env);
  const path = join(dir, 'config.json');
  checkTrustedDir(dir);
  let stored = readStored(path);

  const profiles = (): Record<string, Partial<Profile>> => {
    const value = stored.profiles;
    return value && typeof value === 'object' ? { ...value } : {};
  };
  /**
   * Change the file under a lock: read it afresh, apply `change`, write it atomically. Two commands
   * saving profiles at the same moment then both keep their profile.
   */
  const update = async (change: (data: StoredShape) => void): Promise<void> => {
    ensurePrivateDir(dir);
    try {
      await withFileLock(
        `${path}.lock`,
        () => {
          const next: StoredShape = { ...readStored(path) };
          change(next);
          try {
            writeFileAtomicSync(path, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
          } catch (error) {
            throw new LocalEnvironmentError(`cannot write the config file ${path}: ${(error as Error).message}`, { cause: error });
          }
          stored = next;
        },
        lockWait,
      );
    } catch (error) {
      if (error instanceof LocalEnvironmentError || error instanceof InterruptedError) throw error;
      throw new LocalEnvironmentError(`cannot update the config file ${path}: ${(error as Error).message}`, { cause: error });
    }
  };
  const profilesOf = (data: StoredShape): Record<string, Partial<Profile>> =>
    data.profiles && typeof data.profiles === 'object' ? { ...data.profiles } : {};

  return {
    dir,
    path,
    activeProfileName() {
      const active = stored.activeProfile;
      return typeof active === 'string' && PROFILE_NAME.test(active) ? active : DEFAULT_PROFILE;
    },
    getProfile(name) {
      const all = profiles();
      return Object.hasOwn(all, name) ? readProfile(name, all[name]) : undefined;
    },
    listProfiles() {
      return Object.entries(profiles())
        .map(([name, raw]) => readProfile(name, raw))
        .filter((profile): profile is Profile => profile !== undefined)
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    async saveProfile(profile) {
      validateProfileName(profile.name);
      if (!isEnvironment(profile.environment)) throw new UsageError(`unknown environment "${String(profile.environment)}"`);
      assertNoSecret(profile);
      await update((data) => {
        data.profiles = { ...profilesOf(data), [profile.name]: toStored(profile) };
      });
    },
    async removeProfile(name) {
      if (!Object.hasOwn(profiles(), name)) return;
      await update((data) => {
        const all = profilesOf(data);
        delete all[name];
        data.profiles = all;
        if (data.activeProfile === name) delete data.activeProfile;
      });
    },
    async setActiveProfile(name) {
      validateProfileName(name);
      await update((data) => {
        data.activeProfile = name;
      });
    },
  };
}
