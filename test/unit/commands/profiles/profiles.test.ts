import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../../src/core/config.js';
import { UsageError } from '../../../../src/core/errors.js';
import { writeInsecureKey } from '../../../../src/core/credentials/insecure-file.js';
import { runList } from '../../../../src/commands/profiles/list.js';
import { runUse } from '../../../../src/commands/profiles/use.js';
import { runRemove } from '../../../../src/commands/profiles/remove.js';
import { FakeKeychain, contextWithConfig, KEY_A, tempConfigDir } from '../../core/credentials/fakes.js';

async function twoProfiles() {
  const dir = tempConfigDir();
  const config = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
  await config.saveProfile({
    name: 'prod',
    baseUrl: 'https://api.example.com',
    environment: 'production',
    keyPrefix: 'apk_AAAAaaaa',
    keyStorage: 'keychain',
    keyOrigin: 'https://api.example.com:443',
  });
  await config.saveProfile({
    name: 'local',
    baseUrl: 'https://localhost:4000',
    environment: 'local',
    keyPrefix: 'apk_BBBBbbbb',
    keyStorage: 'insecure-file',
  });
  writeInsecureKey(dir, 'local', KEY_A, 'https://localhost:4000');
  await config.setActiveProfile('prod');
  const keychain = new FakeKeychain();
  keychain.entries.set('prod@https://api.example.com:443', KEY_A);
  return { dir, keychain, env: { APPRAISAL_CONFIG_DIR: dir } };
}

describe('profiles', () => {
  it('list marks the active profile and shows environment and key prefix', async () => {
    const { env } = await twoProfiles();
    const { ctx, stdout } = contextWithConfig({ env, globals: { output: 'json' } });
    await runList(ctx);
    expect(JSON.parse(stdout())).toEqual([
      {
        active: false,
        name: 'local',
        environment: 'local',
        baseUrl: 'https://localhost:4000',
        keyPrefix: 'apk_BBBBbbbb',
        keyStorage: 'insecure-file',
        caFile: null,
      },
      {
        active: true,
        name: 'prod',
        environment: 'production',
        baseUrl: 'https://api.example.com',
        keyPrefix: 'apk_AAAAaaaa',
        keyStorage: 'keychain',
        caFile: null,
      },
    ]);
  });

  it('list says how to start when there is none', async () => {
    const { ctx, stdout, stderr } = contextWithConfig({ globals: { output: 'json' } });
    await runList(ctx);
    expect(JSON.parse(stdout())).toEqual([]);
    expect(stderr()).toMatch(/no profiles yet/);
  });

  it('use switches the active profile; an unknown name is a usage error listing the names', async () => {
    const { env } = await twoProfiles();
    const { ctx, stderr } = contextWithConfig({ env });
    await runUse(ctx, 'local');
    expect((await ctx.config()).activeProfileName()).toBe('local');
    expect(stderr()).toBe('Now using profile local (local, https://localhost:4000)\n');
    const error = await runUse(ctx, 'nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ message: 'no profile "nope"', hint: 'the profiles are: local, prod' });
  });

  it('remove needs --yes off a terminal, shows the production banner, and deletes the stored key', async () => {
    const { env, keychain } = await twoProfiles();
    const refused = contextWithConfig({ env, keychain });
    await expect(runRemove(refused.ctx, 'prod')).rejects.toThrow(/pass --yes/);
    expect(refused.stderr()).toMatch(/^!! PRODUCTION: profile prod at https:\/\/api.example.com, key apk_AAAAaaaa…/);
    expect(keychain.entries.size).toBe(1);

    const { ctx, stderr } = contextWithConfig({ env, keychain, globals: { yes: true } });
    await runRemove(ctx, 'prod');
    expect(keychain.entries.size).toBe(0);
    expect((await ctx.config()).getProfile('prod')).toBeUndefined();
    expect((await ctx.config()).activeProfileName()).toBe('default');
    expect(stderr()).toContain('Removed profile prod and its stored key apk_AAAAaaaa…');
  });

  it('remove of the active profile names the one commands use now: `default` when there is one', async () => {
    const { env, dir } = await twoProfiles();
    const config = await loadConfig(env);
    await config.saveProfile({ name: 'default', baseUrl: 'https://api.example.com', environment: 'production' });
    await config.setActiveProfile('local');
    const { ctx, stderr } = contextWithConfig({ env, globals: { yes: true } });
    await runRemove(ctx, 'local');
    expect(existsSync(join(dir, 'credentials', 'local.key'))).toBe(false);
    expect(stderr()).toContain('note: the active profile is now default (production, https://api.example.com)');
    expect(stderr()).not.toContain('no profile is active');
    await runRemove(ctx, 'default');
    expect(stderr()).toContain('note: no profile is active now');
  });

  it('remove deletes an insecure key file, without a banner outside production', async () => {
    const { env, dir } = await twoProfiles();
    const { ctx, stderr } = contextWithConfig({ env, globals: { yes: true } });
    await runRemove(ctx, 'local');
    expect(existsSync(join(dir, 'credentials', 'local.key'))).toBe(false);
    expect(stderr()).not.toContain('PRODUCTION');
  });
});
