// Profiles and settings. A profile never holds a key: only its prefix and where it is stored.
// PLACEHOLDER until the credentials issue: an in-memory store so the core can be built against the
// interface. Replaced by a conf-backed store (APPRAISAL_CONFIG_DIR, mode 0600).
import type { Env } from './context.js';

export type Environment = 'production' | 'staging' | 'development' | 'local';
export const ENVIRONMENTS: readonly Environment[] = ['production', 'staging', 'development', 'local'];

export type KeyStorage = 'keychain' | 'insecure-file';

export interface Profile {
  name: string;
  baseUrl: string;
  environment: Environment;
  caFile?: string | undefined;
  /** `apk_xxxxxxxx` of the stored key; never the key. */
  keyPrefix?: string | undefined;
  keyStorage?: KeyStorage | undefined;
}

export interface ConfigStore {
  /** Directory holding config.json (and insecure-storage files). */
  readonly dir: string;
  /** The profile set with `profiles use`, else `default`. */
  activeProfileName(): string;
  getProfile(name: string): Profile | undefined;
  listProfiles(): Profile[];
  saveProfile(profile: Profile): void;
  removeProfile(name: string): void;
  setActiveProfile(name: string): void;
}

export async function loadConfig(_env: Env): Promise<ConfigStore> {
  const profiles = new Map<string, Profile>();
  let active = 'default';
  return {
    dir: '',
    activeProfileName: () => active,
    getProfile: (name) => profiles.get(name),
    listProfiles: () => [...profiles.values()],
    saveProfile: (profile) => void profiles.set(profile.name, profile),
    removeProfile: (name) => void profiles.delete(name),
    setActiveProfile: (name) => {
      active = name;
    },
  };
}
