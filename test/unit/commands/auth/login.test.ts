// auth login / logout with an in-memory keychain and a fake service, both handed in on the context
// (ctx.keychain(), ctx.clientFor()): no module is mocked.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient, ClientTarget } from '../../../../src/core/api-client.js';
import { AuthenticationError, LocalEnvironmentError, NotFoundError, UsageError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { KeychainUnavailableError } from '../../../../src/core/credentials/keychain.js';
import { runLogin } from '../../../../src/commands/auth/login.js';
import { runLogout } from '../../../../src/commands/auth/logout.js';
import { FakeKeychain, contextWithConfig, KEY_A, KEY_B, type ConfigContextOptions } from '../../core/credentials/fakes.js';

interface FakeService {
  current: 'ok' | 'missing' | 'revoked';
  /** What each client was made for (ctx.clientFor's target). */
  settings: ClientTarget[];
  requests: string[];
}

const service: FakeService = { current: 'ok', settings: [], requests: [] };

const httpError = <T extends typeof AuthenticationError | typeof NotFoundError>(Cls: T, status: number, path: string) =>
  new Cls(`GET ${path} answered ${status}`, { status, method: 'GET', path });

/** The service as login's own client (ctx.clientFor) sees it. */
async function serviceClient(target: ClientTarget): Promise<ApiClient> {
  service.settings.push(target);
  const client: Partial<ApiClient> = {
    async get<T>(path: string): Promise<T> {
      service.requests.push(`GET ${path}`);
      if (service.current === 'revoked') throw httpError(AuthenticationError, 401, path);
      if (service.current === 'missing') throw httpError(NotFoundError, 404, path);
      return { id: 'k1', name: 'ci key', prefix: 'apk_AAAAaaaa', scopes: ['api:read', 'api:write'], expiresAt: null } as T;
    },
    async request(options) {
      service.requests.push(`${options.method} ${options.path}`);
      return { status: 200, headers: {}, body: { items: [] }, requestId: undefined } as never;
    },
    async close() {},
  };
  return client as ApiClient;
}

beforeEach(() => {
  service.current = 'ok';
  service.settings = [];
  service.requests = [];
});

function setup(options: ConfigContextOptions & { keychain?: FakeKeychain } = {}) {
  const keychain = options.keychain ?? new FakeKeychain();
  const fake = contextWithConfig({ ...options, keychain, clientFor: serviceClient });
  const login = (loginOptions: Parameters<typeof runLogin>[1] = { withKey: true }) => runLogin(fake.ctx, loginOptions);
  return { ...fake, keychain, login };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('auth login', () => {
  it('verifies the key, stores it in the keychain, and saves only its prefix', async () => {
    const { ctx, keychain, login, stderr, configDir } = setup({ stdin: `${KEY_A}\n`, globals: { baseUrl: 'https://api.example.com/' } });
    await login();
    expect(service.requests).toEqual(['GET /api/keys/current']);
    expect(service.settings[0]).toMatchObject({
      baseUrl: 'https://api.example.com',
      credential: { secret: KEY_A, prefix: 'apk_AAAAaaaa' },
    });
    expect([...keychain.entries]).toEqual([['default@https://api.example.com:443', KEY_A]]);
    const config = await ctx.config();
    expect(config.getProfile('default')).toEqual({
      name: 'default',
      baseUrl: 'https://api.example.com',
      environment: 'production',
      caFile: undefined,
      keyPrefix: 'apk_AAAAaaaa',
      keyStorage: 'keychain',
      keyOrigin: 'https://api.example.com:443',
    });
    expect(config.activeProfileName()).toBe('default');
    expect(stderr()).toContain('environment: production (pass --environment staging to change)');
    expect(stderr()).toContain(
      'Logged in to https://api.example.com as profile default with key apk_AAAAaaaa (ci key, api:read api:write); stored in the OS keychain',
    );
    for (const file of filesUnder(configDir)) expect(readFileSync(file, 'utf8'), file).not.toContain(KEY_A);
    expect(stderr()).not.toContain(KEY_A);
  });

  it('defaults loopback hosts to local, and takes --environment', async () => {
    const local = setup({ stdin: KEY_A, globals: { baseUrl: 'https://localhost:4000' } });
    await local.login();
    expect((await local.ctx.config()).getProfile('default')?.environment).toBe('local');
    // Why development is offered on loopback, in one short reason (issue 25 §5).
    expect(local.stderr()).toContain(
      'environment: local, as localhost is this machine (pass --environment development if it is a tunnel to a shared development service)',
    );
    const staging = setup({ stdin: KEY_A, globals: { baseUrl: 'https://staging.example.com', profile: 'staging' } });
    await staging.login({ withKey: true, environment: 'staging' });
    expect((await staging.ctx.config()).getProfile('staging')?.environment).toBe('staging');
    expect(staging.stderr()).not.toContain('environment:');
  });

  it('refuses to run without a key source off a terminal', async () => {
    const { login, keychain } = setup({ globals: { baseUrl: 'https://api.example.com' } });
    await expect(login({})).rejects.toThrow(
      'no key given: pipe it with --with-key or use --api-key-file; keys are never accepted as flag values',
    );
    await expect(setup({ globals: { baseUrl: 'https://x.example.com', apiKeyFile: '-' } }).login({ withKey: true })).rejects.toThrow(
      /not both/,
    );
    expect(keychain.calls).toEqual([]);
  });

  it('asks with a hidden prompt on a terminal', async () => {
    const { login, keychain } = setup({ tty: true, answers: [KEY_B], globals: { baseUrl: 'https://api.example.com' } });
    await login({});
    expect(keychain.entries.get('default@https://api.example.com:443')).toBe(KEY_B);
  });

  it('needs a base URL', async () => {
    await expect(setup({ stdin: KEY_A }).login()).rejects.toThrow(UsageError);
  });

  it('stores nothing when the service refuses the key (exit 4)', async () => {
    service.current = 'revoked';
    const { ctx, login, keychain } = setup({ stdin: KEY_A, globals: { baseUrl: 'https://api.example.com' } });
    const error = await login().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(exitCodeFor(error)).toBe(4);
    expect((error as Error).message).toMatch(/refused key apk_AAAAaaaa… .*nothing was stored/);
    // Looked at once, before the key was read (is it usable?); never written.
    expect(keychain.calls).toEqual(['get default@https://api.example.com:443']);
    expect((await ctx.config()).listProfiles()).toEqual([]);
  });

  it('falls back to a one-record read when /api/keys/current does not exist', async () => {
    service.current = 'missing';
    const { login, stderr } = setup({ stdin: KEY_A, globals: { baseUrl: 'https://api.example.com' } });
    await login();
    expect(service.requests).toEqual(['GET /api/keys/current', 'GET /api/properties']);
    expect(stderr()).toContain('with key apk_AAAAaaaa; stored');
  });

  it('fails with exit 2 naming both ways forward when the keychain cannot be used', async () => {
    const keychain = new FakeKeychain();
    keychain.failure = new KeychainUnavailableError('unavailable', 'is not available (DBus error: no bus)');
    const { ctx, login } = setup({ keychain, stdin: KEY_A, globals: { baseUrl: 'https://api.example.com' } });
    const error = (await login().catch((e: unknown) => e)) as LocalEnvironmentError;
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toBe(
      'could not store the key in the OS keychain; nothing was stored: the OS keychain is not available (DBus error: no bus)',
    );
    expect(error.hint).toMatch(/APPRAISAL_API_KEY/);
    expect(error.hint).toMatch(/--insecure-storage/);
    expect((await ctx.config()).listProfiles()).toEqual([]);
  });

  it('checks the keychain before asking for the key: without one, no paste is asked for or wasted (issue 25 §5)', async () => {
    const keychain = new FakeKeychain();
    keychain.failure = new KeychainUnavailableError('unavailable', 'is not available (DBus error: no bus)');
    const { ctx, login, stderr } = setup({ keychain, tty: true, answers: [KEY_A], globals: { baseUrl: 'https://api.example.com' } });
    const prompt = vi.spyOn(ctx.io, 'promptSecret');
    const error = (await login({}).catch((e: unknown) => e)) as LocalEnvironmentError;
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toMatch(/^could not store the key in the OS keychain; nothing was stored: the OS keychain is not available/);
    expect(prompt).not.toHaveBeenCalled();
    expect(service.requests).toEqual([]);
    expect(keychain.calls).toEqual(['get default@https://api.example.com:443']);
    expect(stderr()).not.toContain('API key');
  });

  it("the keychain hint repeats the user's own flags with --insecure-storage added, never a key (issue 25 §5)", async () => {
    const keychain = new FakeKeychain();
    keychain.failure = new KeychainUnavailableError('unavailable', 'is not available (DBus error: no bus)');
    const { login } = setup({
      keychain,
      stdin: KEY_A,
      globals: { baseUrl: 'https://staging.example.com:8443/', caFile: 'certs/my ca.pem', profile: 'stage' },
    });
    const error = (await login({ withKey: true, environment: 'staging' }).catch((e: unknown) => e)) as LocalEnvironmentError;
    expect(error.hint).toContain(
      "run `appraisal auth login --profile stage --base-url https://staging.example.com:8443/ --ca-file 'certs/my ca.pem' --environment staging --with-key --insecure-storage`",
    );
    expect(error.hint).not.toContain(KEY_A);
    // A key read from a file: the file's path is repeated, not what it holds.
    const fromFile = setup({ keychain, globals: { baseUrl: 'https://api.example.com', apiKeyFile: 'ops.key' } });
    const other = (await fromFile.login({}).catch((e: unknown) => e)) as LocalEnvironmentError;
    expect(other.hint).toContain(
      '`appraisal auth login --profile default --base-url https://api.example.com --api-key-file ops.key --insecure-storage`',
    );
  });

  it('--insecure-storage writes a 0600 file and warns', async () => {
    const { ctx, login, keychain, stderr, configDir } = setup({
      stdin: KEY_A,
      globals: { baseUrl: 'https://api.example.com', profile: 'ci' },
    });
    await login({ withKey: true, insecureStorage: true });
    const path = join(configDir, 'credentials', 'ci.key');
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify({ origin: 'https://api.example.com:443', key: KEY_A })}\n`);
    if (process.platform !== 'win32') {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(join(configDir, 'credentials')).mode & 0o777).toBe(0o700);
    }
    expect(keychain.calls).toEqual([]);
    expect(stderr()).toMatch(/warning: profile ci: the key is stored in plain text in .*ci\.key/);
    expect((await ctx.config()).getProfile('ci')).toMatchObject({ keyStorage: 'insecure-file', keyPrefix: 'apk_AAAAaaaa' });
  });

  it('a new login moves the key: the old keychain entry or file is removed', async () => {
    const keychain = new FakeKeychain();
    const dir = contextWithConfig().configDir;
    const env = { APPRAISAL_CONFIG_DIR: dir };
    await setup({ keychain, env, stdin: KEY_A, globals: { baseUrl: 'https://old.example.com' } }).login();
    expect([...keychain.entries.keys()]).toEqual(['default@https://old.example.com:443']);
    await setup({ keychain, env, stdin: KEY_B, globals: { baseUrl: 'https://new.example.com' } }).login();
    expect([...keychain.entries.keys()]).toEqual(['default@https://new.example.com:443']);
    await setup({ keychain, env, stdin: KEY_A }).login({ withKey: true, insecureStorage: true });
    expect([...keychain.entries.keys()]).toEqual([]);
    await setup({ keychain, env, stdin: KEY_B }).login();
    expect(existsSync(join(dir, 'credentials', 'default.key'))).toBe(false);
    expect(keychain.entries.get('default@https://new.example.com:443')).toBe(KEY_B);
  });

  it('keeps --ca-file in the profile as an absolute path', async () => {
    const { ctx, login } = setup({ stdin: KEY_A, globals: { baseUrl: 'https://localhost:4000', caFile: 'certs/ca.pem' } });
    await login();
    expect((await ctx.config()).getProfile('default')?.caFile).toBe(join(process.cwd(), 'certs/ca.pem'));
    expect(service.settings[0]).toMatchObject({ caFile: join(process.cwd(), 'certs/ca.pem') });
  });
});

describe('auth logout', () => {
  it('removes the keychain entry and the prefix, keeping the profile', async () => {
    const keychain = new FakeKeychain();
    const { ctx, login } = setup({ keychain, stdin: KEY_A, globals: { baseUrl: 'https://api.example.com' } });
    await login({ withKey: true, environment: 'staging' });
    const out = contextWithConfig({ keychain, env: { APPRAISAL_CONFIG_DIR: (await ctx.config()).dir } });
    await runLogout(out.ctx);
    expect(keychain.entries.size).toBe(0);
    expect(out.stderr()).toContain('Logged out of profile default: removed key apk_AAAAaaaa… from the OS keychain');
    expect(out.stderr()).toContain('(appraisal keys revoke apk_AAAAaaaa --yes, with another admin key)');
    expect((await out.ctx.config()).getProfile('default')).toMatchObject({
      baseUrl: 'https://api.example.com',
      environment: 'staging',
      keyPrefix: undefined,
      keyStorage: undefined,
    });
    const again = contextWithConfig({ keychain, env: { APPRAISAL_CONFIG_DIR: (await ctx.config()).dir } });
    await runLogout(again.ctx);
    expect(again.stderr()).toContain('has no stored key; nothing to remove');
  });

  it('removes an insecure file', async () => {
    const { ctx, login, configDir } = setup({ stdin: KEY_A, globals: { baseUrl: 'https://api.example.com' } });
    await login({ withKey: true, insecureStorage: true });
    expect(existsSync(join(configDir, 'credentials', 'default.key'))).toBe(true);
    await runLogout(ctx);
    expect(existsSync(join(configDir, 'credentials', 'default.key'))).toBe(false);
  });

  it('an unknown profile is a usage error', async () => {
    await expect(runLogout(contextWithConfig({ globals: { profile: 'nope' } }).ctx)).rejects.toThrow(UsageError);
  });
});
