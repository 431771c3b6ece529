// storeProfileKey when the profile cannot be saved (a held config lock, Ctrl-C, a full disk): the
// slot is put back as it was, so no key that no profile names stays in the keychain or on disk.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, type ConfigStore } from '../../../../src/core/config.js';
import { insecureKeyPath } from '../../../../src/core/credentials/insecure-file.js';
import { storeProfileKey } from '../../../../src/core/credentials/stored-key.js';
import { InterruptedError } from '../../../../src/core/errors.js';
import { FakeKeychain, tempConfigDir } from './fakes.js';

const BASE = 'https://api.example.com';
const ORIGIN = 'https://api.example.com:443';
const OLD = 'apk_OLDOLDOL_0123456789abcdefghijABCDEFGHIJ';
const NEW = 'apk_NEWNEWNE_0123456789abcdefghijABCDEFGHIJ';

/** The real store, whose profile writes fail as a Ctrl-C during the lock wait makes them fail. */
function unsavable(config: ConfigStore): ConfigStore {
  return { ...config, saveProfile: () => Promise.reject(new InterruptedError()) };
}

const request = (insecure: boolean) => ({
  profileName: 'bot',
  baseUrl: BASE,
  environment: 'staging' as const,
  caFile: undefined,
  secret: NEW,
  insecure,
});

describe('storeProfileKey when the profile is not saved', () => {
  it('puts the key the profile named back into its keychain entry', async () => {
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: tempConfigDir() });
    const keychain = new FakeKeychain();
    keychain.entries.set(`bot@${ORIGIN}`, OLD);
    await config.saveProfile({
      name: 'bot',
      baseUrl: BASE,
      environment: 'staging',
      keyPrefix: 'apk_OLDOLDOL',
      keyStorage: 'keychain',
      keyOrigin: ORIGIN,
    });
    await expect(
      storeProfileKey(
        unsavable(config),
        () => keychain,
        request(false),
        () => {},
      ),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(keychain.entries.get(`bot@${ORIGIN}`)).toBe(OLD);
    expect(config.getProfile('bot')?.keyPrefix).toBe('apk_OLDOLDOL');
  });

  it('removes a new insecure key file that no profile names', async () => {
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: tempConfigDir() });
    const warnings: string[] = [];
    await expect(
      storeProfileKey(
        unsavable(config),
        () => new FakeKeychain(),
        request(true),
        (m) => warnings.push(m),
      ),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(existsSync(insecureKeyPath(config.dir, 'bot'))).toBe(false);
    expect(config.getProfile('bot')).toBeUndefined();
    // The "stored in plain text" warning is for a key that stays; this one did not.
    expect(warnings).toEqual([]);
  });

  it('saved, the profile names the new key, and the one it named elsewhere is removed afterwards', async () => {
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: tempConfigDir() });
    const keychain = new FakeKeychain();
    keychain.entries.set(`bot@${ORIGIN}`, OLD);
    await config.saveProfile({
      name: 'bot',
      baseUrl: BASE,
      environment: 'staging',
      keyPrefix: 'apk_OLDOLDOL',
      keyStorage: 'keychain',
      keyOrigin: ORIGIN,
    });
    await storeProfileKey(
      config,
      () => keychain,
      request(true),
      () => {},
    );
    expect(config.getProfile('bot')).toMatchObject({ keyPrefix: 'apk_NEWNEWNE', keyStorage: 'insecure-file' });
    expect(keychain.entries.has(`bot@${ORIGIN}`)).toBe(false);
    expect(existsSync(insecureKeyPath(config.dir, 'bot'))).toBe(true);
  });
});
