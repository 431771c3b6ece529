import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { configDir, loadConfig, validateProfileName, type Profile } from '../../../src/core/config.js';
import { LocalEnvironmentError, UsageError } from '../../../src/core/errors.js';
import { tempConfigDir } from './credentials/fakes.js';

const profile = (name: string, extra: Partial<Profile> = {}): Profile => ({
  name,
  baseUrl: 'https://api.example.com',
  environment: 'staging',
  ...extra,
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe('configDir', () => {
  it('prefers APPRAISAL_CONFIG_DIR, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(configDir({ APPRAISAL_CONFIG_DIR: '/tmp/x', XDG_CONFIG_HOME: '/xdg', HOME: '/home/u' })).toBe('/tmp/x');
    if (process.platform === 'win32') return;
    expect(configDir({ XDG_CONFIG_HOME: '/xdg', HOME: '/home/u' })).toBe('/xdg/appraisal-cli');
    expect(configDir({ HOME: '/home/u' })).toBe('/home/u/.config/appraisal-cli');
    // A relative XDG_CONFIG_HOME is invalid per the spec and ignored.
    expect(configDir({ XDG_CONFIG_HOME: 'rel', HOME: '/home/u' })).toBe('/home/u/.config/appraisal-cli');
  });
});

describe('loadConfig', () => {
  let savedUmask: number | undefined;
  afterEach(() => {
    if (savedUmask !== undefined) process.umask(savedUmask);
    savedUmask = undefined;
  });

  it('keeps profiles in config.json and reads them back', async () => {
    const dir = tempConfigDir();
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
    expect(config.dir).toBe(dir);
    expect(config.activeProfileName()).toBe('default');
    expect(config.listProfiles()).toEqual([]);
    await config.saveProfile(
      profile('staging.eu', { keyPrefix: 'apk_AAAAaaaa', keyStorage: 'keychain', keyOrigin: 'https://api.example.com:443' }),
    );
    await config.saveProfile(profile('prod', { environment: 'production', caFile: '/etc/ca.pem' }));
    await config.setActiveProfile('staging.eu');

    const again = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
    expect(again.activeProfileName()).toBe('staging.eu');
    expect(again.listProfiles().map((p) => p.name)).toEqual(['prod', 'staging.eu']);
    expect(again.getProfile('staging.eu')).toEqual({
      name: 'staging.eu',
      baseUrl: 'https://api.example.com',
      environment: 'staging',
      caFile: undefined,
      keyPrefix: 'apk_AAAAaaaa',
      keyStorage: 'keychain',
      keyOrigin: 'https://api.example.com:443',
    });
    expect(again.getProfile('missing')).toBeUndefined();
    const file = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(file.profiles['staging.eu'].name).toBeUndefined();
  });

  it('creates the directory 0700 and the file 0600 even under umask 000', async () => {
    if (process.platform === 'win32') return;
    savedUmask = process.umask(0o000);
    const dir = tempConfigDir();
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
    await config.saveProfile(profile('default'));
    expect(mode(dir)).toBe(0o700);
    expect(mode(config.path)).toBe(0o600);
    await config.setActiveProfile('default');
    expect(mode(config.path)).toBe(0o600);
  });

  it('tightens a config file and directory that were left open', async () => {
    if (process.platform === 'win32') return;
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: {} }), { mode: 0o644 });
    chmodSync(join(dir, 'config.json'), 0o644);
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
    await config.saveProfile(profile('default'));
    expect(mode(dir)).toBe(0o700);
    expect(mode(config.path)).toBe(0o600);
  });

  it('does not create the config file just by reading', async () => {
    const dir = tempConfigDir();
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
    config.getProfile('default');
    config.activeProfileName();
    expect(existsSync(config.path)).toBe(false);
  });

  it('refuses to write anything that looks like a key', async () => {
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: tempConfigDir() });
    const key = 'apk_AAAAaaaa_0123456789abcdefghijABCDEFGHIJ';
    await expect(config.saveProfile(profile('default', { keyPrefix: key }))).rejects.toThrow(UsageError);
    await expect(config.saveProfile(profile('default', { caFile: `/tmp/${key}` }))).rejects.toThrow(/looks like an API key/);
    await expect(config.saveProfile(profile('default', { keyPrefix: 'abcdefghijklmnop' }))).rejects.toThrow(UsageError);
    expect(config.listProfiles()).toEqual([]);
  });

  it('validates profile names', async () => {
    for (const good of ['default', 'staging.eu', 'a', 'A_b-c.9']) expect(validateProfileName(good)).toBe(good);
    for (const bad of ['', '.hidden', '-x', 'a b', 'a/b', '../x', 'x'.repeat(65)]) {
      expect(() => validateProfileName(bad), bad).toThrow(UsageError);
    }
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: tempConfigDir() });
    await expect(config.saveProfile(profile('../evil'))).rejects.toThrow(UsageError);
    await expect(config.setActiveProfile('a b')).rejects.toThrow(UsageError);
  });

  it('reads a hand-edited file tolerantly: an unknown environment counts as production', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        activeProfile: 'odd',
        profiles: { odd: { baseUrl: 'https://x.example.com', environment: 'qa', keyStorage: 'floppy' }, broken: { environment: 'local' } },
      }),
    );
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
    expect(config.getProfile('odd')).toMatchObject({ environment: 'production', keyStorage: undefined });
    expect(config.getProfile('broken')).toBeUndefined();
    expect(config.listProfiles().map((p) => p.name)).toEqual(['odd']);
  });

  it('removing the active profile falls back to default', async () => {
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: tempConfigDir() });
    await config.saveProfile(profile('one'));
    await config.setActiveProfile('one');
    await config.removeProfile('one');
    expect(config.getProfile('one')).toBeUndefined();
    expect(config.activeProfileName()).toBe('default');
    await config.removeProfile('never-existed');
  });

  it('reports a corrupt config file as a local problem (exit 2), not a crash', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{ not json');
    await expect(loadConfig({ APPRAISAL_CONFIG_DIR: dir })).rejects.toThrow(LocalEnvironmentError);
  });
});

describe('loadConfig: two commands writing at once', () => {
  it('keeps both profiles when two stores loaded before either wrote', async () => {
    const dir = tempConfigDir();
    const first = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
    const second = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
    await first.saveProfile(profile('alpha'));
    await second.saveProfile(profile('beta'));
    const fresh = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
    expect(fresh.listProfiles().map((p) => p.name)).toEqual(['alpha', 'beta']);
    expect(existsSync(`${fresh.path}.lock`)).toBe(false);
  });

  it('takes over a lock left behind by a crashed process', async () => {
    const dir = tempConfigDir();
    const config = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${config.path}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${config.path}.lock`, old, old);
    await config.saveProfile(profile('gamma'));
    expect(config.getProfile('gamma')?.name).toBe('gamma');
    expect(existsSync(`${config.path}.lock`)).toBe(false);
  });
});
