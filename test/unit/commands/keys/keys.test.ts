// The keys commands in-process: a real config dir and session, an in-memory keychain, and an
// in-process copy of the service's key routes over the mock's own key store.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../../../../src/core/api-client.js';
import type { Context } from '../../../../src/core/context.js';
import { KeychainUnavailableError } from '../../../../src/core/credentials/keychain.js';
import { writeInsecureKey } from '../../../../src/core/credentials/insecure-file.js';
import { LocalEnvironmentError, SafetyError, UsageError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { runCreate, STORE_NOW } from '../../../../src/commands/keys/create.js';
import { runGet } from '../../../../src/commands/keys/get.js';
import { runList } from '../../../../src/commands/keys/list.js';
import { runRevoke } from '../../../../src/commands/keys/revoke.js';
import { runRotate } from '../../../../src/commands/keys/rotate.js';
import { FakeKeychain, contextWithConfig, type ConfigContextOptions } from '../../core/credentials/fakes.js';
import { MockKeyRoutes } from './mock-key-routes.js';

const BASE = 'https://api.test';
const ORIGIN = 'https://api.test:443';

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

function setup(options: ConfigContextOptions & { client?: (service: MockKeyRoutes) => ApiClient } = {}) {
  const service = new MockKeyRoutes();
  const admin = service.addKey({ name: 'admin', scopes: ['api:admin'] });
  const keychain = (options.keychain as FakeKeychain | undefined) ?? new FakeKeychain();
  const fake = contextWithConfig({ globals: { baseUrl: BASE }, env: { APPRAISAL_API_KEY: admin.secret }, ...options, keychain });
  let requests = 0;
  const client = (secret: string): ApiClient => {
    const inner = service.client(secret);
    return {
      ...inner,
      send: (...args: Parameters<ApiClient['send']>) => (requests++, inner.send(...args)),
      get: (path: string) => (requests++, inner.get(path)),
      async *paginate() {
        requests++;
        const records = service.keys(); // with their secrets: the CLI must not print them
        yield* records;
        return { count: records.length, total: records.length, duplicatesDropped: 0, warnings: [] };
      },
    } as ApiClient;
  };
  const ctx: Context = {
    ...fake.ctx,
    api: async () => {
      const session = await fake.ctx.session();
      return client(session.credential!.secret);
    },
  };
  const visible = () =>
    fake.stdout() +
    fake.stderr() +
    filesUnder(fake.configDir)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
  return { ...fake, ctx, service, admin, keychain, client, requests: () => requests, visible };
}

describe('keys create', () => {
  it('prints the secret alone on stdout; metadata and the notice on stderr', async () => {
    const t = setup();
    await runCreate(t.ctx, { name: 'ci', scope: ['api:read', 'files:write'], expiresIn: '90d' });
    const created = t.service.keys().find((key) => key.name === 'ci')!;
    expect(t.stdout()).toBe(`${created.secret}\n`);
    expect(t.stderr()).toContain(`Created key ${created.prefix} (ci): id ${created.id}`);
    expect(t.stderr()).toContain('scopes: api:read files:write');
    expect(t.stderr()).toMatch(/expires: \d{4}-\d{2}-\d{2}T/);
    expect(t.stderr()).toContain(STORE_NOW);
    expect(t.stderr()).not.toContain(created.secret);
    expect(created.scopes).toEqual(['api:read', 'files:write']);
  });

  it('checks scopes, expiry, name and --out before any request', async () => {
    const t = setup();
    for (const options of [
      { name: 'ci', scope: ['props:read'] },
      { name: 'ci', scope: [] },
      { name: '', scope: ['api:read'] },
      { name: 'ci', scope: ['api:read'], expiresIn: '5 days' },
      { name: 'ci', scope: ['api:read'], expiresIn: '1d', expiresAt: '2030-01-01' },
    ]) {
      const error = await runCreate(t.ctx, options).catch((e: unknown) => e);
      expect(error, JSON.stringify(options)).toBeInstanceOf(UsageError);
    }
    const out = setup({ globals: { baseUrl: BASE, out: 'key.txt' } });
    await expect(runCreate(out.ctx, { name: 'ci', scope: ['api:read'] })).rejects.toThrow(/never writes the key to a file/);
    expect(t.requests() + out.requests()).toBe(0);
  });

  it('-o json prints the record with its secret', async () => {
    const t = setup({ globals: { baseUrl: BASE, output: 'json' } });
    await runCreate(t.ctx, { name: 'ci', scope: ['api:read'] });
    const record = JSON.parse(t.stdout());
    expect(record).toMatchObject({ name: 'ci', scopes: ['api:read'] });
    expect(record.secret).toMatch(/^apk_/);
    expect(t.stderr()).toBe(`${STORE_NOW}\n`);
  });

  it('--store-as puts the key in that profile\u2019s keychain entry and prints only the prefix', async () => {
    const t = setup();
    const config = await t.ctx.config();
    await config.saveProfile({ name: 'bot', baseUrl: `${BASE}/`, environment: 'staging' });
    await runCreate(t.ctx, { name: 'bot', scope: ['api:read'], storeAs: 'bot', expiresIn: '10d' });
    const created = t.service.keys().find((key) => key.name === 'bot')!;
    expect(t.stdout()).toBe(`${created.prefix}\n`);
    expect(t.keychain.entries.get(`bot@${ORIGIN}`)).toBe(created.secret);
    expect(config.getProfile('bot')).toMatchObject({ keyPrefix: created.prefix, keyStorage: 'keychain', environment: 'staging' });
    expect(t.visible()).not.toContain(created.secret);
    expect(readFileSync(join(t.configDir, 'key-expiry.json'), 'utf8')).toContain(created.prefix);
  });

  it('--store-as into an insecure-storage profile writes its file', async () => {
    const t = setup();
    const config = await t.ctx.config();
    await config.saveProfile({
      name: 'bot',
      baseUrl: BASE,
      environment: 'local',
      keyStorage: 'insecure-file',
      keyPrefix: 'apk_OLDOLDOL',
      keyOrigin: ORIGIN,
    });
    await runCreate(t.ctx, { name: 'bot', scope: ['api:read'], storeAs: 'bot' });
    const created = t.service.keys().find((key) => key.name === 'bot')!;
    expect(JSON.parse(readFileSync(join(t.configDir, 'credentials', 'bot.key'), 'utf8'))).toMatchObject({ key: created.secret });
    expect(t.keychain.calls).toEqual([]);
  });

  it('--store-as refuses a missing profile (exit 2) and another origin (exit 10) before any request', async () => {
    const t = setup();
    await expect(runCreate(t.ctx, { name: 'x', scope: ['api:read'], storeAs: 'nope' })).rejects.toThrow(/no profile "nope"/);
    await (await t.ctx.config()).saveProfile({ name: 'prod', baseUrl: 'https://api.example.com', environment: 'production' });
    const error = await runCreate(t.ctx, { name: 'x', scope: ['api:read'], storeAs: 'prod' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SafetyError);
    expect(exitCodeFor(error)).toBe(10);
    expect((error as Error).message).toMatch(/credentials never move between environments/);
    expect(t.requests()).toBe(0);
  });

  it('--store-as with a keychain that fails: the new key is revoked and nothing is printed', async () => {
    const keychain = new FakeKeychain();
    keychain.failure = new KeychainUnavailableError('locked', 'is locked');
    const t = setup({ keychain });
    await (await t.ctx.config()).saveProfile({ name: 'bot', baseUrl: BASE, environment: 'local' });
    const error = (await runCreate(t.ctx, { name: 'bot', scope: ['api:read'], storeAs: 'bot' }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('the OS keychain is locked');
    const created = t.service.keys().find((key) => key.name === 'bot')!;
    expect(error).toBeInstanceOf(LocalEnvironmentError);
    expect(error.message).toContain(`the new key ${created.prefix} was revoked; profile bot is unchanged`);
    expect(t.service.key(created.id).revokedAt).not.toBeNull();
    expect(t.stdout()).toBe('');
    expect(t.visible()).not.toContain(created.secret);
  });
});

describe('keys list / get', () => {
  it('never print a secret, even if the service sent one', async () => {
    const t = setup();
    const other = t.service.addKey({ name: 'other' });
    await runList(t.ctx);
    const listed = JSON.parse(t.stdout()) as Array<Record<string, unknown>>;
    expect(listed.map((key) => key.prefix)).toEqual([t.admin.prefix, other.prefix]);
    expect(t.stdout()).not.toContain('secret');
    const get = setup();
    const key = get.service.addKey({ name: 'k' });
    await runGet(get.ctx, key.prefix);
    expect(JSON.parse(get.stdout())).toMatchObject({ id: key.id, name: 'k' });
    expect(get.stdout()).not.toContain(key.secret);
  });
});

describe('keys revoke', () => {
  it('by prefix and by id, with --yes', async () => {
    const t = setup({ globals: { baseUrl: BASE, yes: true } });
    const a = t.service.addKey({ name: 'a' });
    const b = t.service.addKey({ name: 'b' });
    await runRevoke(t.ctx, a.prefix, {});
    await runRevoke(t.ctx, b.id, {});
    expect(t.service.key(a.id).revokedAt).not.toBeNull();
    expect(t.service.key(b.id).revokedAt).not.toBeNull();
    expect(t.stderr()).toContain(`Revoked key ${a.prefix} (a)`);
    await runRevoke(t.ctx, a.prefix, {});
    expect(t.stderr()).toContain(`key ${a.prefix} (a) was already revoked`);
  });

  it('asks first: without a terminal it needs --yes', async () => {
    const t = setup();
    const a = t.service.addKey({ name: 'a' });
    await expect(runRevoke(t.ctx, a.prefix, {})).rejects.toThrow(/confirmation needed; pass --yes/);
    expect(t.service.key(a.id).revokedAt).toBeNull();
    const tty = setup({ tty: true, answers: ['n'] });
    const b = tty.service.addKey({ name: 'b' });
    await expect(runRevoke(tty.ctx, b.prefix, {})).rejects.toThrow(/cancelled/);
    expect(tty.service.key(b.id).revokedAt).toBeNull();
  });

  it('refuses the key in use (exit 10) unless --force; names profiles that store the key', async () => {
    const t = setup({ globals: { baseUrl: BASE, yes: true } });
    const error = await runRevoke(t.ctx, t.admin.prefix, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SafetyError);
    expect(exitCodeFor(error)).toBe(10);
    expect((error as SafetyError).message).toMatch(/it is the key this command is using \(profile default, from APPRAISAL_API_KEY\)/);
    expect((error as SafetyError).hint).toMatch(/keys rotate/);
    expect(t.service.key(t.admin.id).revokedAt).toBeNull();

    const stored = t.service.addKey({ name: 'stored' });
    await (
      await t.ctx.config()
    ).saveProfile({ name: 'bot', baseUrl: BASE, environment: 'local', keyPrefix: stored.prefix, keyStorage: 'keychain' });
    await runRevoke(t.ctx, stored.prefix, {});
    expect(t.stderr()).toContain(`warning: profile bot stores key ${stored.prefix}; it stops working once it is revoked`);

    await runRevoke(t.ctx, t.admin.prefix, { force: true });
    expect(t.service.key(t.admin.id).revokedAt).not.toBeNull();
  });
});

describe('keys rotate (wiring)', () => {
  it('refuses a key from APPRAISAL_API_KEY with the manual recipe (exit 2)', async () => {
    const t = setup();
    const error = await runRotate(t.ctx, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/comes from APPRAISAL_API_KEY, which appraisal cannot update/);
    expect((error as UsageError).hint).toMatch(/keys create .* keys revoke/);
  });

  it('rotates an insecure-storage profile: file, profile, expiry cache and audit log updated; no secret anywhere', async () => {
    const t = setup({ env: {}, globals: { baseUrl: undefined, yes: true } });
    const old = t.service.addKey({ name: 'bot', scopes: ['api:read', 'keys:admin'] });
    const config = await t.ctx.config();
    await config.saveProfile({
      name: 'default',
      baseUrl: BASE,
      environment: 'local',
      keyPrefix: old.prefix,
      keyStorage: 'insecure-file',
      keyOrigin: ORIGIN,
    });
    writeInsecureKey(config.dir, 'default', old.secret, ORIGIN);
    const auditLog = join(t.configDir, '..', 'audit.jsonl');
    await runRotate(t.ctx, { auditLog }, { client: async (_ctx, _session, credential) => t.service.client(credential.secret) });
    const fresh = t.service.keys().find((key) => key.name?.startsWith('bot (rotated'))!;
    expect(JSON.parse(readFileSync(join(config.dir, 'credentials', 'default.key'), 'utf8'))).toEqual({ origin: ORIGIN, key: fresh.secret });
    expect(config.getProfile('default')?.keyPrefix).toBe(fresh.prefix);
    expect(t.service.key(old.id).revokedAt).not.toBeNull();
    expect(JSON.parse(t.stdout())).toMatchObject({ profile: 'default', oldPrefix: old.prefix, newPrefix: fresh.prefix, oldKey: 'revoked' });
    expect(t.stderr()).toContain(`Rotated profile default: ${old.prefix} → ${fresh.prefix} (${old.prefix} revoked)`);
    const audit = JSON.parse(readFileSync(auditLog, 'utf8'));
    expect(audit).toMatchObject({ profile: 'default', origin: ORIGIN, oldPrefix: old.prefix, newPrefix: fresh.prefix, outcome: 'rotated' });
    const visible =
      t.visible().replace(readFileSync(join(config.dir, 'credentials', 'default.key'), 'utf8'), '') + readFileSync(auditLog, 'utf8');
    for (const key of t.service.keys()) expect(visible).not.toContain(key.secret);
  });

  it('a failed rotation writes the audit line and exits with the cause\u2019s code', async () => {
    const keychain = new FakeKeychain();
    const t = setup({ env: {}, keychain, globals: { baseUrl: undefined, yes: true } });
    const old = t.service.addKey({ name: 'bot', scopes: ['keys:admin'] });
    keychain.entries.set(`default@${ORIGIN}`, old.secret);
    await (
      await t.ctx.config()
    ).saveProfile({
      name: 'default',
      baseUrl: BASE,
      environment: 'local',
      keyPrefix: old.prefix,
      keyStorage: 'keychain',
      keyOrigin: ORIGIN,
    });
    const originalSet = keychain.set.bind(keychain);
    keychain.set = async (account, secret) => {
      if (secret !== old.secret) throw new KeychainUnavailableError('locked', 'is locked or refused access (prompt dismissed)');
      return originalSet(account, secret);
    };
    const auditLog = join(t.configDir, '..', 'audit.jsonl');
    const error = (await runRotate(
      t.ctx,
      { auditLog },
      { client: async (_c, _s, credential) => t.service.client(credential.secret) },
    ).catch((e: unknown) => e)) as Error;
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toMatch(
      /^key rotation failed at step 4\/6 \(store the new key\): could not write the key of profile "default" to the OS keychain/,
    );
    expect(keychain.entries.get(`default@${ORIGIN}`)).toBe(old.secret);
    expect(JSON.parse(readFileSync(auditLog, 'utf8'))).toMatchObject({ outcome: 'rolled-back' });
    expect(t.service.works(old.secret)).toBe(true);
  });
});
