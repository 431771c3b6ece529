// keys list / get / create / revoke against `appraisal mock`, through the built binary. Keys come
// from APPRAISAL_API_KEY or from --insecure-storage profiles here; the OS keychain variants are in
// rotate.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run, type RunResult } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { createKey } from './credentials-support.js';
import { clearFaults, clearRequestLog, expectNoSecrets, keyByPrefix, requestLog, statusWith } from './keys-support.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ records: 5 });
});
afterAll(async () => {
  await mock?.stop();
});
beforeEach(async () => {
  await clearFaults(mock);
});

/** A private config dir, the mock's base URL and CA, and `key` as APPRAISAL_API_KEY (default: the admin key). */
function envWith(key = mock.adminKey) {
  const env = isolatedEnv({ ...mock.env, APPRAISAL_API_KEY: key });
  return { env, home: env.HOME!, configDir: env.APPRAISAL_CONFIG_DIR! };
}

const appraisal = (args: string[], env: Record<string, string | undefined>, input?: string) =>
  run(args, { env, ...(input === undefined ? {} : { stdin: input }) });

/** The one secret `keys create` printed, and its prefix. */
function printedSecret(result: RunResult): { secret: string; prefix: string } {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/^apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}\n$/);
  const secret = result.stdout.trim();
  return { secret, prefix: secret.slice(0, 12) };
}

const SCOPE_SETS: string[][] = [
  ['api:read'],
  ['api:write'],
  ['api:delete'],
  ['api:admin'],
  ['keys:admin'],
  ...['properties', 'assignments', 'clients', 'files', 'reference'].flatMap((family) => [
    [`${family}:read`],
    [`${family}:write`],
    [`${family}:delete`],
  ]),
  ['api:read', 'keys:admin'],
  ['properties:write', 'files:read', 'reference:read'],
  ['api:write', 'assignments:delete', 'clients:delete', 'keys:admin'],
];

describe('keys create', () => {
  it('creates a key with each scope, and with combinations; the secret is printed once, alone on stdout', async () => {
    const { env, home } = envWith();
    const results: RunResult[] = [];
    const secrets: string[] = [];
    for (const scopes of SCOPE_SETS) {
      const result = await appraisal(
        ['keys', 'create', '--name', `e2e ${scopes.join(' ')}`, ...scopes.flatMap((s) => ['--scope', s])],
        env,
      );
      const { secret, prefix } = printedSecret(result);
      secrets.push(secret);
      expect(result.stderr).toContain(`Created key ${prefix} (e2e ${scopes.join(' ')}): id `);
      expect(result.stderr).toContain(`scopes: ${scopes.join(' ')}`);
      expect(result.stderr).toContain('Store it now: it cannot be shown again.');
      const record = await keyByPrefix(mock, prefix);
      expect(record?.scopes, scopes.join(' ')).toEqual(scopes);
      expect(await statusWith(mock, secret)).toBe(200);
      // The stderr copy of the run is the one place the secret must not be.
      results.push({ ...result, stdout: '' });
    }
    expectNoSecrets(secrets, results, [home]);
  }, 120_000);

  it('the scopes decide what the key can do (403 beyond them)', async () => {
    const { env } = envWith();
    const { secret } = printedSecret(await appraisal(['keys', 'create', '--name', 'props reader', '--scope', 'properties:read'], env));
    const reader = envWith(secret).env;
    const props = await appraisal(['props', 'list', '--max-items', '1', '-o', 'json'], reader);
    expect(props.code, props.stderr).toBe(0);
    const clients = await appraisal(['clients', 'list', '--max-items', '1'], reader);
    expect(clients.code).toBe(5);
  });

  it('a key without keys:admin gets 403 (exit 5) for every keys command that needs it', async () => {
    const reader = await createKey(mock, { name: 'no admin', scopes: ['api:delete'] });
    const { env } = envWith(reader.secret);
    for (const args of [
      ['keys', 'list'],
      ['keys', 'create', '--name', 'x', '--scope', 'api:read'],
      ['keys', 'get', reader.id],
      ['keys', 'revoke', reader.prefix, '--yes'],
    ]) {
      const result = await appraisal(args, env);
      expect(result.code, args.join(' ')).toBe(5);
      expect(result.stderr, args.join(' ')).toMatch(/403 Forbidden/);
      expect(result.stderr, args.join(' ')).toMatch(/^hint: .*keys:admin/m);
      expect(result.stderr).not.toContain(reader.secret);
    }
  });

  it('a key cannot create a key with more than it has (403)', async () => {
    const limited = await createKey(mock, { name: 'limited admin', scopes: ['keys:admin', 'properties:read'] });
    const result = await appraisal(['keys', 'create', '--name', 'x', '--scope', 'api:admin'], envWith(limited.secret).env);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
  });

  it('checks scopes, expiry and flags before any request (exit 2)', async () => {
    const { env } = envWith();
    await clearRequestLog(mock);
    for (const args of [
      ['--name', 'x', '--scope', 'props:read'],
      ['--name', 'x'],
      ['--scope', 'api:read'],
      ['--name', 'x', '--scope', 'api:read', '--expires-in', '90'],
      ['--name', 'x', '--scope', 'api:read', '--expires-at', '2001-01-01'],
      ['--name', 'x', '--scope', 'api:read', '--expires-in', '1d', '--expires-at', '2099-01-01'],
      ['--name', 'x', '--scope', 'api:read', '--out', 'key.txt'],
    ]) {
      const result = await appraisal(['keys', 'create', ...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
    const unknown = await appraisal(['keys', 'create', '--name', 'x', '--scope', 'api:read', '--scope', 'props:read'], env);
    expect(unknown.stderr).toMatch(
      /^error: unknown scope "props:read"; valid scopes: api:read, api:write, api:delete, api:admin, properties:read, .*keys:admin$/m,
    );
    expect(await requestLog(mock)).toEqual([]);
  });

  it('--expires-in and --expires-at set the expiry', async () => {
    const { env } = envWith();
    const before = Date.now();
    const inTen = printedSecret(
      await appraisal(['keys', 'create', '--name', 'ten days', '--scope', 'api:read', '--expires-in', '10d'], env),
    );
    const expires = Date.parse((await keyByPrefix(mock, inTen.prefix))!.expiresAt!);
    expect(expires - before).toBeGreaterThanOrEqual(10 * 86_400_000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 86_400_000);
    const year = new Date().getUTCFullYear() + 2;
    const at = printedSecret(
      await appraisal(['keys', 'create', '--name', 'dated', '--scope', 'api:read', '--expires-at', `${year}-01-31T12:00:00Z`], env),
    );
    expect((await keyByPrefix(mock, at.prefix))!.expiresAt).toBe(`${year}-01-31T12:00:00.000Z`);
  });

  it('-o json prints the record with its secret, for automation', async () => {
    const { env } = envWith();
    const result = await appraisal(['keys', 'create', '--name', 'json', '--scope', 'api:read', '-o', 'json'], env);
    expect(result.code, result.stderr).toBe(0);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({ name: 'json', scopes: ['api:read'], prefix: expect.stringMatching(/^apk_/) });
    expect(record.secret.startsWith(`${record.prefix}_`)).toBe(true);
    expect(await statusWith(mock, record.secret)).toBe(200);
    expect(result.stderr).toBe('Store it now: it cannot be shown again.\n');
  });

  it('--store-as PROFILE stores the key in that profile (here its insecure-storage file) and prints only the prefix', async () => {
    const { env, home, configDir } = envWith();
    const seed = await createKey(mock, { name: 'seed', scopes: ['api:read'] });
    const login = await appraisal(
      ['auth', 'login', '--with-key', '--insecure-storage', '-p', 'bot'],
      { ...env, APPRAISAL_API_KEY: undefined },
      seed.secret,
    );
    expect(login.code, login.stderr).toBe(0);
    const result = await appraisal(
      ['keys', 'create', '--name', 'bot key', '--scope', 'properties:read', '--store-as', 'bot', '--expires-in', '30d'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^apk_[A-Za-z0-9]{8}\n$/);
    const prefix = result.stdout.trim();
    expect(result.stderr).toContain(`Stored it for profile bot (insecure-storage file); the key itself is not shown`);
    const keyFile = join(configDir, 'credentials', 'bot.key');
    const stored = (JSON.parse(readFileSync(keyFile, 'utf8')) as { key: string }).key;
    expect(stored.startsWith(`${prefix}_`)).toBe(true);
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(config.profiles.bot).toMatchObject({ keyPrefix: prefix, keyStorage: 'insecure-file' });
    // The profile now works with the new key, and only the key file holds it.
    const status = await appraisal(['auth', 'status', '-p', 'bot', '-o', 'json'], {
      ...env,
      APPRAISAL_API_KEY: undefined,
      APPRAISAL_BASE_URL: undefined,
    });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ keyPrefix: prefix, keyName: 'bot key', source: 'insecure-file' });
    expectNoSecrets([stored], [result, status], [home], [keyFile]);
  });

  it('--store-as refuses a profile of another origin (exit 10): credentials never move between environments', async () => {
    const { env, configDir } = envWith();
    // A profile of another origin, as `auth login --base-url https://api.example.invalid` would leave it.
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({ profiles: { elsewhere: { baseUrl: 'https://api.example.invalid', environment: 'production' } } }),
      { mode: 0o600 },
    );
    await clearRequestLog(mock);
    const result = await appraisal(['keys', 'create', '--name', 'x', '--scope', 'api:read', '--store-as', 'elsewhere'], env);
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/credentials never move between environments/);
    expect(result.stdout).toBe('');
    expect(await requestLog(mock)).toEqual([]);
  });
});

describe('keys list / get', () => {
  it('list shows prefix, name, scopes, dates, revocation and whether it is a lease — never a secret', async () => {
    const { env } = envWith();
    const key = await createKey(mock, { name: 'listed', scopes: ['files:read'] });
    const json = await appraisal(['keys', 'list', '-o', 'json'], env);
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(rows.find((row) => row.prefix === key.prefix)).toMatchObject({
      name: 'listed',
      scopes: ['files:read'],
      revokedAt: null,
      lease: false,
    });
    expect(json.stdout).not.toMatch(/"secret"/);
    const csv = await appraisal(['keys', 'list', '-o', 'csv'], env);
    // Every field of the published key record (a csv holds every field), then the CLI's own (lease); never a secret.
    expect(csv.stdout.split('\r\n')[0]).toBe('id,name,prefix,scopes,expiresAt,lastUsedAt,revokedAt,createdBy,createdAt,updatedAt,lease');
    expectNoSecrets([key.secret, mock.adminKey], [json, csv], []);
  });

  it('get by id and by prefix', async () => {
    const { env } = envWith();
    const key = await createKey(mock, { name: 'got', scopes: ['api:read'] });
    for (const reference of [key.id, key.prefix]) {
      const result = await appraisal(['keys', 'get', reference, '-o', 'json'], env);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ id: key.id, prefix: key.prefix, name: 'got' });
      expect(result.stdout).not.toContain(key.secret);
    }
    expect((await appraisal(['keys', 'get', 'apk_Zz9Zz9Zz'], env)).code).toBe(6);
    const whole = await appraisal(['keys', 'get', key.secret], env);
    expect(whole.code).toBe(2);
    expect(whole.stderr).toContain(`that is a whole key, not its prefix: pass only ${key.prefix}`);
    expect(whole.stderr).not.toContain(key.secret);
  });
});

describe('keys revoke', () => {
  it('by id and by prefix; the revoked key gets 401 from then on', async () => {
    const { env } = envWith();
    const byId = await createKey(mock, { name: 'by id' });
    const byPrefix = await createKey(mock, { name: 'by prefix' });
    const one = await appraisal(['keys', 'revoke', byId.id, '--yes'], env);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).toContain(`Revoked key ${byId.prefix} (by id)`);
    const two = await appraisal(['keys', 'revoke', byPrefix.prefix, '--yes'], env);
    expect(two.code, two.stderr).toBe(0);
    expect(await statusWith(mock, byId.secret)).toBe(401);
    expect(await statusWith(mock, byPrefix.secret)).toBe(401);
    expect((await keyByPrefix(mock, byPrefix.prefix))!.revokedAt).not.toBeNull();
    const again = await appraisal(['keys', 'revoke', byPrefix.prefix, '--yes'], env);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('was already revoked');
  });

  it('needs --yes without a terminal; an unknown prefix is exit 6', async () => {
    const { env } = envWith();
    const key = await createKey(mock, { name: 'kept' });
    const noYes = await appraisal(['keys', 'revoke', key.prefix], env);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(/confirmation needed; pass --yes/);
    expect(await statusWith(mock, key.secret)).toBe(200);
    const unknown = await appraisal(['keys', 'revoke', 'apk_Zz9Zz9Zz', '--yes'], env);
    expect(unknown.code).toBe(6);
    expect(unknown.stderr).toContain('no API key with prefix apk_Zz9Zz9Zz');
  });

  it('refuses the key in use (exit 10) unless --force', async () => {
    const self = await createKey(mock, { name: 'self', scopes: ['keys:admin'] });
    const { env } = envWith(self.secret);
    const refused = await appraisal(['keys', 'revoke', self.prefix, '--yes'], env);
    expect(refused.code).toBe(10);
    expect(refused.stderr).toMatch(/refusing to revoke key .* it is the key this command is using/);
    expect(refused.stderr).toMatch(/^hint: .*keys rotate/m);
    expect(await statusWith(mock, self.secret)).toBe(200);
    const forced = await appraisal(['keys', 'revoke', self.prefix, '--yes', '--force'], env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await statusWith(mock, self.secret)).toBe(401);
    expectNoSecrets([self.secret], [refused, forced], []);
  });
});

describe('the expiry warning', () => {
  it('any command warns when the stored key expires within 14 days, at most once a day per profile', async () => {
    const { env, configDir } = envWith();
    const soon = await createKey(mock, {
      name: 'soon',
      scopes: ['api:read'],
      expiresAt: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    });
    const plain = { ...env, APPRAISAL_API_KEY: undefined };
    const login = await appraisal(['auth', 'login', '--with-key', '--insecure-storage'], plain, soon.secret);
    expect(login.code, login.stderr).toBe(0);
    const profileEnv = { ...plain, APPRAISAL_BASE_URL: undefined, APPRAISAL_CA_FILE: undefined };
    const first = await appraisal(['props', 'list', '--max-items', '1', '-o', 'json'], profileEnv);
    expect(first.code, first.stderr).toBe(0);
    // It names the profile, and a key that cannot rotate itself (api:read only) is told who can.
    expect(first.stderr).toMatch(
      new RegExp(
        `^warning: key ${soon.prefix}… expires in (4|5) days \\(.*\\); this key cannot rotate itself \\(scopes api:read, no keys:admin or api:admin\\): someone with such a key can replace it with appraisal keys create --name NAME --scope api:read --store-as default$`,
        'm',
      ),
    );
    const second = await appraisal(['props', 'list', '--max-items', '1', '-o', 'json'], profileEnv);
    expect(second.stderr).not.toMatch(/expires in/);
    // auth status always says it (once).
    const status = await appraisal(['auth', 'status'], profileEnv);
    expect(status.stderr.match(/expires in/g)).toHaveLength(1);
    const cache = readFileSync(join(configDir, 'key-expiry.json'), 'utf8');
    expect(cache).toContain(soon.prefix);
    expect(cache).not.toContain(soon.secret);
  });
});
