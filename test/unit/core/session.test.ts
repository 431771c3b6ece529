// Resolution order (CLI.md "Credentials"), origin binding and environment defaults, with an
// in-memory keychain: resolveSession against a real config dir.
import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type Profile } from '../../../src/core/config.js';
import { LocalEnvironmentError, MissingCredentialError, SafetyError, UsageError } from '../../../src/core/errors.js';
import { exitCodeFor } from '../../../src/core/exit-codes.js';
import { KeychainUnavailableError } from '../../../src/core/credentials/keychain.js';
import { insecureKeyPath, writeInsecureKey } from '../../../src/core/credentials/insecure-file.js';
import { resolveSession } from '../../../src/core/session.js';
import { PassThrough } from 'node:stream';
import { createContext, type ProcessDeps } from '../../../src/core/factory.js';
import { readGlobalOptions } from '../../../src/core/global-options.js';
import { FakeKeychain, contextWithConfig, KEY_A, KEY_B, KEY_ENV, tempConfigDir, type ConfigContextOptions } from './credentials/fakes.js';

const ORIGIN = 'https://api.example.com:443';

async function withProfile(dir: string, profile: Partial<Profile> & { name: string }) {
  const config = await loadConfig({ APPRAISAL_CONFIG_DIR: dir });
  await config.saveProfile({ baseUrl: 'https://api.example.com', environment: 'staging', ...profile });
  return config;
}

async function keychainProfile(options: ConfigContextOptions = {}) {
  const dir = tempConfigDir();
  await withProfile(dir, { name: 'default', keyPrefix: 'apk_AAAAaaaa', keyStorage: 'keychain', keyOrigin: ORIGIN });
  const keychain = new FakeKeychain();
  keychain.entries.set(`default@${ORIGIN}`, KEY_A);
  const fake = contextWithConfig({ keychain, ...options, env: { APPRAISAL_CONFIG_DIR: dir, ...options.env } });
  return { ...fake, keychain, dir };
}

describe('credential resolution order', () => {
  it('uses the keychain entry of the profile (account <profile>@<origin>)', async () => {
    const { ctx, keychain, stderr } = await keychainProfile();
    const session = await ctx.session();
    expect(session.credential).toEqual({ secret: KEY_A, prefix: 'apk_AAAAaaaa', source: 'keychain', kind: 'api-key' });
    expect(session).toMatchObject({ profileName: 'default', baseUrl: 'https://api.example.com', environment: 'staging' });
    expect(keychain.calls).toEqual([`get default@${ORIGIN}`]);
    expect(stderr()).toBe('');
    // The secret is known to the redactor from the moment it is resolved.
    expect(ctx.io.redactor.redact(`x ${KEY_A} y`)).not.toContain(KEY_A);
  });

  it('--verbose says which credential was used, by prefix only', async () => {
    const { ctx, stderr } = await keychainProfile({ globals: { verbose: true } });
    await ctx.session();
    expect(stderr()).toBe('* profile default (staging) at https://api.example.com; credential: apk_AAAAaaaa… from the OS keychain\n');
  });

  it('1. --api-key-file beats APPRAISAL_API_KEY and the keychain', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'key.txt');
    writeFileSync(file, `  ${KEY_B}\n`);
    const { ctx, keychain, stderr } = await keychainProfile({ env: { APPRAISAL_API_KEY: KEY_ENV }, globals: { apiKeyFile: file } });
    const session = await ctx.session();
    expect(session.credential).toMatchObject({ secret: KEY_B, source: 'api-key-file', prefix: 'apk_BBBBbbbb' });
    expect(keychain.calls).toEqual([]);
    expect(stderr()).toBe('');
  });

  it('1. --api-key-file - reads stdin, trims, and refuses an empty key', async () => {
    const { ctx } = contextWithConfig({ stdin: `${KEY_B}\n`, globals: { apiKeyFile: '-', baseUrl: 'https://x.example.com' } });
    expect((await ctx.session()).credential).toMatchObject({ secret: KEY_B, source: 'api-key-file' });
    const empty = contextWithConfig({ stdin: '\n  \n', globals: { apiKeyFile: '-', baseUrl: 'https://x.example.com' } });
    await expect(empty.ctx.session()).rejects.toThrow(UsageError);
    const twoLines = contextWithConfig({ stdin: `${KEY_A}\n${KEY_B}\n`, globals: { apiKeyFile: '-', baseUrl: 'https://x.example.com' } });
    await expect(twoLines.ctx.session()).rejects.toThrow(/only the API key/);
    const missing = contextWithConfig({ globals: { apiKeyFile: '/nonexistent/key', baseUrl: 'https://x.example.com' } });
    await expect(missing.ctx.session()).rejects.toThrow(UsageError);
  });

  it('2. APPRAISAL_API_KEY beats the keychain, with one notice naming the shadowed prefix', async () => {
    const { ctx, keychain, stderr } = await keychainProfile({ env: { APPRAISAL_API_KEY: KEY_ENV } });
    const session = await ctx.session();
    expect(session.credential).toMatchObject({ secret: KEY_ENV, source: 'env', kind: 'api-key', prefix: 'apk_EEEEeeee' });
    expect(keychain.calls).toEqual([]);
    expect(stderr()).toBe('notice: APPRAISAL_API_KEY overrides the key stored for profile default (apk_AAAAaaaa…)\n');
  });

  it('2. the notice is quiet-able, and absent when nothing is stored', async () => {
    const quiet = await keychainProfile({ env: { APPRAISAL_API_KEY: KEY_ENV }, globals: { quiet: true } });
    await quiet.ctx.session();
    expect(quiet.stderr()).toBe('');
    const bare = contextWithConfig({ env: { APPRAISAL_API_KEY: KEY_ENV }, globals: { baseUrl: 'https://x.example.com' } });
    expect((await bare.ctx.session()).credential?.source).toBe('env');
    expect(bare.stderr()).toBe('');
  });

  it('2. APPRAISAL_TOKEN is a bearer token; APPRAISAL_API_KEY wins over it', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.payload.signature';
    const { ctx } = contextWithConfig({ env: { APPRAISAL_TOKEN: token }, globals: { baseUrl: 'https://x.example.com' } });
    expect((await ctx.session()).credential).toMatchObject({ secret: token, kind: 'bearer', source: 'env', prefix: 'eyJh' });
    const both = contextWithConfig({
      env: { APPRAISAL_TOKEN: token, APPRAISAL_API_KEY: KEY_ENV },
      globals: { baseUrl: 'https://x.example.com' },
    });
    expect((await both.ctx.session()).credential).toMatchObject({ kind: 'api-key', secret: KEY_ENV });
  });

  it('4. the insecure file, with a warning on every use (under -q only the first time each day)', async () => {
    const dir = tempConfigDir();
    await withProfile(dir, { name: 'ci', keyPrefix: 'apk_BBBBbbbb', keyStorage: 'insecure-file', keyOrigin: ORIGIN });
    writeInsecureKey(dir, 'ci', KEY_B, ORIGIN);
    const keychain = new FakeKeychain();
    const warning = /^warning: profile ci: the key is stored in plain text in .*ci\.key/;
    for (const [quiet, warned] of [
      [false, true],
      [false, true],
      [true, true],
      [true, false],
      [false, true],
    ] as const) {
      const { ctx, stderr } = contextWithConfig({ env: { APPRAISAL_CONFIG_DIR: dir }, globals: { profile: 'ci', quiet }, keychain });
      expect((await ctx.session()).credential).toMatchObject({ secret: KEY_B, source: 'insecure-file' });
      if (warned) expect(stderr()).toMatch(warning);
      else expect(stderr()).toBe('');
    }
    // Another day, -q warns once again.
    const tomorrow = new Date(Date.now() + 86_400_000);
    const next = contextWithConfig({
      env: { APPRAISAL_CONFIG_DIR: dir },
      globals: { profile: 'ci', quiet: true },
      keychain,
      now: tomorrow,
    });
    await next.ctx.session();
    expect(next.stderr()).toMatch(warning);
    expect(keychain.calls).toEqual([]);
  });

  it('4. refuses an insecure file that others can read', async () => {
    if (process.platform === 'win32') return;
    const dir = tempConfigDir();
    await withProfile(dir, { name: 'ci', keyPrefix: 'apk_BBBBbbbb', keyStorage: 'insecure-file' });
    writeInsecureKey(dir, 'ci', KEY_B, ORIGIN);
    chmodSync(insecureKeyPath(dir, 'ci'), 0o644);
    const { ctx } = contextWithConfig({ env: { APPRAISAL_CONFIG_DIR: dir }, globals: { profile: 'ci' } });
    await expect(ctx.session()).rejects.toThrow(/can be read by other users/);
  });

  it('no credential at all: the session has none, and the keychain is never asked', async () => {
    const dir = tempConfigDir();
    await withProfile(dir, { name: 'default' });
    const keychain = new FakeKeychain();
    const { ctx } = contextWithConfig({ env: { APPRAISAL_CONFIG_DIR: dir }, keychain });
    expect((await ctx.session()).credential).toBeUndefined();
    expect(keychain.calls).toEqual([]);
  });
});

describe('stored keys that cannot be read', () => {
  it('an unusable keychain is exit 2 and names APPRAISAL_API_KEY and --insecure-storage', async () => {
    const { ctx, keychain } = await keychainProfile();
    keychain.failure = new KeychainUnavailableError('timeout', 'did not answer: timed out after 3s');
    const error = await ctx.session().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LocalEnvironmentError);
    expect(exitCodeFor(error)).toBe(2);
    expect((error as LocalEnvironmentError).message).toMatch(/keychain did not answer: timed out after 3s/);
    expect((error as LocalEnvironmentError).hint).toMatch(/APPRAISAL_API_KEY/);
    expect((error as LocalEnvironmentError).hint).toMatch(/--insecure-storage/);
  });

  it('a keychain entry that disappeared is exit 4 with the login command', async () => {
    const { ctx, keychain } = await keychainProfile();
    keychain.entries.clear();
    const error = await ctx.session().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingCredentialError);
    expect(exitCodeFor(error)).toBe(4);
    expect((error as MissingCredentialError).hint).toMatch(/appraisal auth login --profile default/);
  });
});

describe('origin binding', () => {
  it('refuses to send a stored key to another origin (exit 10) without touching the keychain', async () => {
    const { ctx, keychain } = await keychainProfile({ globals: { baseUrl: 'https://evil.example.net' } });
    const error = await ctx.session().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SafetyError);
    expect(exitCodeFor(error)).toBe(10);
    expect((error as Error).message).toBe(
      'the key stored for profile "default" belongs to https://api.example.com; refusing to send it to https://evil.example.net',
    );
    expect(keychain.calls).toEqual([]);
  });

  it('treats another port or scheme as another origin', async () => {
    for (const baseUrl of ['https://api.example.com:8443', 'http://api.example.com']) {
      const { ctx } = await keychainProfile({ globals: { baseUrl } });
      await expect(ctx.session(), baseUrl).rejects.toThrow(SafetyError);
    }
  });

  it('allows the same origin with an explicit default port or another path', async () => {
    for (const baseUrl of ['https://API.example.com:443', 'https://api.example.com/', 'https://api.example.com/v2']) {
      const { ctx } = await keychainProfile({ globals: { baseUrl } });
      expect((await ctx.session()).credential?.source, baseUrl).toBe('keychain');
    }
  });

  it('does not bind a key given for this run (env or --api-key-file)', async () => {
    const { ctx } = await keychainProfile({ env: { APPRAISAL_API_KEY: KEY_ENV }, globals: { baseUrl: 'https://other.example.net' } });
    const session = await ctx.session();
    expect(session).toMatchObject({ baseUrl: 'https://other.example.net', credential: { source: 'env' } });
  });

  it('refuses a base URL with credentials or a query string', async () => {
    for (const baseUrl of ['https://user:pw@api.example.com', 'https://api.example.com/?api_key=x', 'ftp://api.example.com', 'nope']) {
      const { ctx } = contextWithConfig({ env: { APPRAISAL_API_KEY: KEY_ENV }, globals: { baseUrl } });
      await expect(ctx.session(), baseUrl).rejects.toThrow(UsageError);
    }
  });
});

describe('environment', () => {
  const envOnly = (baseUrl: string) => contextWithConfig({ env: { APPRAISAL_API_KEY: KEY_ENV }, globals: { baseUrl } }).ctx.session();

  it('without a profile: loopback hosts are local, everything else production', async () => {
    for (const url of ['https://localhost:4000', 'http://127.0.0.1:8080', 'https://[::1]:4000']) {
      expect((await envOnly(url)).environment, url).toBe('local');
    }
    // Names that reach this machine only if a resolver says so are any other host (issue 26 item 8).
    for (const url of [
      'https://api.example.com',
      'https://10.0.0.1',
      'https://localhost.example.com',
      'https://app.localhost',
      'https://localhost.:4000',
    ]) {
      expect((await envOnly(url)).environment, url).toBe('production');
    }
  });

  it("uses the profile's environment and CA only for the profile's own origin", async () => {
    const dir = tempConfigDir();
    await withProfile(dir, { name: 'default', environment: 'staging', caFile: '/ca/staging.pem' });
    const own = contextWithConfig({ env: { APPRAISAL_CONFIG_DIR: dir, APPRAISAL_API_KEY: KEY_ENV } });
    expect(await own.ctx.session()).toMatchObject({ environment: 'staging', caFile: '/ca/staging.pem' });
    const elsewhere = contextWithConfig({
      env: { APPRAISAL_CONFIG_DIR: dir, APPRAISAL_API_KEY: KEY_ENV },
      globals: { baseUrl: 'https://prod.example.com' },
    });
    expect(await elsewhere.ctx.session()).toMatchObject({ environment: 'production', caFile: undefined });
  });

  it('the active profile is used unless --profile names another; an unknown named profile needs a base URL', async () => {
    const dir = tempConfigDir();
    const config = await withProfile(dir, { name: 'one', environment: 'development' });
    await config.setActiveProfile('one');
    const active = contextWithConfig({ env: { APPRAISAL_CONFIG_DIR: dir } });
    expect(await active.ctx.session()).toMatchObject({ profileName: 'one', environment: 'development' });
    const named = contextWithConfig({ env: { APPRAISAL_CONFIG_DIR: dir }, globals: { profile: 'two' } });
    await expect(named.ctx.session()).rejects.toThrow('no profile "two"');
    const nothing = contextWithConfig();
    await expect(nothing.ctx.session()).rejects.toThrow(/no base URL/);
  });
});

describe('the keychain comes from the context', () => {
  it('resolveSession asks the context for it once', async () => {
    const { ctx } = await keychainProfile();
    let built = 0;
    const keychain = new FakeKeychain();
    keychain.entries.set(`default@${ORIGIN}`, KEY_A);
    await resolveSession({
      ...ctx,
      keychain: () => {
        built++;
        return keychain;
      },
    });
    expect(built).toBe(1);
  });

  it('the context builds it lazily, once, from what the process hands in', () => {
    let built = 0;
    const keychain = new FakeKeychain();
    const deps: ProcessDeps = {
      argv: [],
      env: {},
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      cwd: '/',
      signal: new AbortController().signal,
      version: '0.0.0-test',
      keychain: () => {
        built++;
        return keychain;
      },
    };
    const { context } = createContext(deps, readGlobalOptions({}, {}));
    expect(built).toBe(0);
    expect(context.keychain()).toBe(keychain);
    expect(context.keychain()).toBe(keychain);
    expect(built).toBe(1);
  });
});
