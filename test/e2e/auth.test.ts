// auth login / status / logout against the mock, without a keychain: --insecure-storage, the
// environment variables, origin binding, a revoked key and a key that expires soon.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { adminOf } from '../helpers/mock-admin.js';
import { parse } from 'shell-quote';
import { createKey, filesContaining, modeOf, revokeKey } from './credentials-support.js';

let mock: MockServer;

beforeAll(async () => {
  mock = await startMock({ records: 5 });
});
afterAll(async () => {
  await mock?.stop();
});

/** A private config dir; the mock's base URL and CA only where a test passes them. */
function fresh() {
  const env = isolatedEnv();
  return { env, configDir: env.APPRAISAL_CONFIG_DIR! };
}

const target = () => ({ APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile });

async function loginInsecure(env: Record<string, string | undefined>, secret: string, extra: string[] = []) {
  return run(['auth', 'login', '--with-key', '--insecure-storage', ...extra], { env: { ...env, ...target() }, stdin: `${secret}\n` });
}

describe('auth login', () => {
  it('refuses to run without a key source, and never takes a key as a flag value', async () => {
    const { env } = fresh();
    const none = await run(['auth', 'login'], { env: { ...env, ...target() } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no key given: pipe it with --with-key or use --api-key-file; keys are never accepted as flag values');

    const key = (await createKey(mock)).secret;
    for (const args of [['--api-key', key], [`--api-key=${key}`], ['--key', key]]) {
      const flag = await run(['auth', 'login', ...args], { env: { ...env, ...target() } });
      expect(flag.code, args[0]).toBe(2);
      expect(flag.stderr, args[0]).not.toContain(key);
    }
  });

  it('verifies the key before storing anything: a bad key is exit 4 and leaves no trace', async () => {
    const { env, configDir } = fresh();
    const bogus = 'apk_ZZZZzzzz_00000000000000000000000000000000';
    const result = await loginInsecure(env, bogus);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/refused key apk_ZZZZzzzz… .*nothing was stored/);
    expect(result.stderr).not.toContain(bogus);
    expect(filesContaining(configDir, bogus)).toEqual([]);
    expect(existsSync(join(configDir, 'credentials', 'default.key'))).toBe(false);
  });

  it('--insecure-storage keeps the key in a 0600 file, with a warning at login and on every use', async () => {
    const { env, configDir } = fresh();
    const key = await createKey(mock, { name: 'insecure', scopes: ['api:read'] });
    const login = await loginInsecure(env, key.secret);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/warning: profile default: the key is stored in plain text in .*default\.key/);
    expect(login.stderr).toContain(`as profile default with key ${key.prefix} (insecure, api:read)`);
    // The loopback default says why development is offered (issue 25 §5).
    expect(login.stderr).toContain(
      `environment: local, as ${new URL(mock.baseUrl).hostname} is this machine (pass --environment development if it is a tunnel to a shared development service)`,
    );
    expect(login.stderr).not.toContain(key.secret);

    const file = join(configDir, 'credentials', 'default.key');
    // The file records the origin the key belongs to (issue 26 §6), beside the key.
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ origin: new URL(mock.baseUrl).origin, key: key.secret });
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(join(configDir, 'credentials'))).toBe(0o700);
    expect(modeOf(configDir)).toBe(0o700);
    expect(modeOf(join(configDir, 'config.json'))).toBe(0o600);
    expect(filesContaining(configDir, key.secret)).toEqual([file]);
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(config.profiles.default).toMatchObject({
      keyPrefix: key.prefix,
      keyStorage: 'insecure-file',
      environment: 'local',
      caFile: mock.caFile,
    });

    // No APPRAISAL_* but the config dir: base URL, CA and key all come from the profile.
    for (let round = 0; round < 2; round++) {
      const status = await run(['auth', 'status', '-o', 'json'], { env });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stderr).toMatch(/warning: profile default: the key is stored in plain text/);
      expect(JSON.parse(status.stdout)).toMatchObject({
        profile: 'default',
        baseUrl: mock.baseUrl,
        environment: 'local',
        source: 'insecure-file',
        keyPrefix: key.prefix,
        keyName: 'insecure',
        scopes: ['api:read'],
      });
    }

    const logout = await run(['auth', 'logout'], { env });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr).toContain(`removed key ${key.prefix}…`);
    expect(existsSync(file)).toBe(false);
    const after = await run(['auth', 'status'], { env });
    expect(after.code).toBe(4);
    expect(after.stderr).toContain('appraisal auth login --profile default');
  });
});

describe.runIf(process.platform === 'linux')(
  `auth login without a usable keychain (issue 25 §5)${process.platform === 'linux' ? '' : ' [skipped: Linux only (D-Bus)]'}`,
  () => {
    const noKeychain = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', APPRAISAL_KEYRING_TIMEOUT: '2000' };

    it('says so before asking for the key: no prompt, nothing read, no request', async () => {
      const { env } = fresh();
      const key = await createKey(mock);
      await adminOf(mock).clearRequests();
      const result = await run(['auth', 'login'], { env: { ...env, ...target(), ...noKeychain }, tty: true, stdin: `${key.secret}\n` });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^error: could not store the key in the OS keychain; nothing was stored: the OS keychain is not available/m,
      );
      expect(result.stderr).not.toContain('Paste the API key');
      expect(await adminOf(mock).apiRequests()).toEqual([]);
    });

    it("its hint repeats the user's own flags with --insecure-storage added, and works when run as given", async () => {
      const { env, configDir } = fresh();
      const key = await createKey(mock, { name: 'hinted', scopes: ['api:read'] });
      const flags = ['--profile', 'stage', '--base-url', mock.baseUrl, '--ca-file', mock.caFile!, '--environment', 'staging', '--with-key'];
      const failed = await run(['auth', 'login', ...flags], { env: { ...env, ...noKeychain }, stdin: `${key.secret}\n` });
      expect(failed.code).toBe(2);
      const hint = /^hint: .*or run `([^`]+)`/m.exec(failed.stderr)?.[1];
      expect(hint).toBe(`appraisal auth login ${flags.join(' ')} --insecure-storage`);
      expect(failed.stderr).not.toContain(key.secret);
      const [program, ...argv] = parse(hint!) as string[];
      expect(program).toBe('appraisal');
      const again = await run(argv, { env: { ...env, ...noKeychain }, stdin: `${key.secret}\n` });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(
        `as profile stage with key ${key.prefix} (hinted, api:read); stored in a 0600 file (--insecure-storage)`,
      );
      expect(existsSync(join(configDir, 'credentials', 'stage.key'))).toBe(true);
    });
  },
);

describe('credential precedence', () => {
  it('APPRAISAL_API_KEY shadows a stored key, with one notice line', async () => {
    const { env } = fresh();
    const stored = await createKey(mock, { name: 'stored' });
    const override = await createKey(mock, { name: 'override' });
    expect((await loginInsecure(env, stored.secret)).code).toBe(0);

    const result = await run(['auth', 'status', '-o', 'json'], { env: { ...env, APPRAISAL_API_KEY: override.secret } });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ source: 'env', keyPrefix: override.prefix, keyName: 'override' });
    const notices = result.stderr.split('\n').filter((line) => line.startsWith('notice:'));
    expect(notices).toEqual([`notice: APPRAISAL_API_KEY overrides the key stored for profile default (${stored.prefix}…)`]);
    // The stored key was not even read: no insecure-storage warning.
    expect(result.stderr).not.toContain('plain text');
  });

  it('--api-key-file - beats APPRAISAL_API_KEY', async () => {
    const { env } = fresh();
    const fromFile = await createKey(mock, { name: 'file' });
    const fromEnv = await createKey(mock, { name: 'env' });
    const result = await run(['auth', 'status', '-o', 'json', '--api-key-file', '-'], {
      env: { ...env, ...target(), APPRAISAL_API_KEY: fromEnv.secret },
      stdin: `${fromFile.secret}\n`,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ source: 'api-key-file', keyName: 'file' });
  });

  it('no credential at all: exit 4 naming auth login and APPRAISAL_API_KEY', async () => {
    const { env } = fresh();
    const result = await run(['auth', 'status'], { env: { ...env, ...target() } });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/appraisal auth login/);
    expect(result.stderr).toMatch(/APPRAISAL_API_KEY/);
  });
});

describe('origin binding', () => {
  let listener: Server;
  let connections = 0;
  let port = 0;
  beforeAll(async () => {
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('never sends a stored key to another origin: exit 10, no connection made', async () => {
    const { env } = fresh();
    const key = await createKey(mock);
    expect((await loginInsecure(env, key.secret)).code).toBe(0);
    const elsewhere = `https://127.0.0.1:${port}`;
    for (const args of [['--base-url', elsewhere], []]) {
      const result = await run(['auth', 'status', ...args], {
        env: { ...env, ...(args.length ? {} : { APPRAISAL_BASE_URL: elsewhere }) },
      });
      expect(result.code).toBe(10);
      expect(result.stderr).toContain(
        `error: the key stored for profile "default" belongs to ${new URL(mock.baseUrl).origin}; refusing to send it to ${elsewhere}`,
      );
    }
    expect(connections).toBe(0);
  });
});

describe('auth status', () => {
  it('a revoked key is exit 4', async () => {
    const { env } = fresh();
    const key = await createKey(mock, { name: 'to-revoke' });
    expect((await loginInsecure(env, key.secret)).code).toBe(0);
    expect((await run(['auth', 'status'], { env })).code).toBe(0);
    await revokeKey(mock, key.id);
    const result = await run(['auth', 'status'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(key.prefix);
    expect(result.stderr).not.toContain(key.secret);
  });

  it('warns on stderr when the key expires within 14 days', async () => {
    const { env } = fresh();
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const key = await createKey(mock, { name: 'short-lived', scopes: ['api:read', 'keys:admin'], expiresAt });
    const result = await run(['auth', 'status', '-o', 'json'], { env: { ...env, ...target(), APPRAISAL_API_KEY: key.secret } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`warning: key ${key.prefix}… expires in 3 days`);
    expect(result.stderr).toContain('rotate it with appraisal keys rotate');
    expect(JSON.parse(result.stdout)).toMatchObject({ keyName: 'short-lived', source: 'env', environment: 'local' });
    const later = await createKey(mock, { expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() });
    const quiet = await run(['auth', 'status'], { env: { ...env, ...target(), APPRAISAL_API_KEY: later.secret } });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain('expires');
  });
});
