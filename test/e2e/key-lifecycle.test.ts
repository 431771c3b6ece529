// Key lifecycle automation (issue 17) end to end, the built binary against `appraisal mock`:
// scheduled rotation, delivery of the new key, the grace period and `keys revoke --due`,
// `keys audit` and `keys scan`. Keys are made old, unused, expired or nearly expired with the mock's
// PATCH /__mock/keys/{id}. Profiles use --insecure-storage (no keychain needed); the keychain path
// of rotation is covered by rotate.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run, type RunResult } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { createKey, type CreatedKey } from './credentials-support.js';
import { call, expectNoSecrets, keyByPrefix, statusWith } from './keys-support.js';

const DAY = 86_400_000;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ records: 3 });
});
afterAll(async () => {
  await mock?.stop();
});

async function setDates(key: { id: string }, dates: Record<string, string | null>): Promise<void> {
  const { status } = await call(mock, 'PATCH', `/__mock/keys/${key.id}`, { body: dates });
  expect(status).toBe(200);
}

interface Profile {
  old: CreatedKey;
  env: Record<string, string | undefined>;
  home: string;
  configDir: string;
  runs: RunResult[];
  run(args: string[], extra?: Record<string, string>): Promise<RunResult>;
  stored(): string;
}

let counter = 0;

/** A profile logged in (insecure storage) with a fresh admin key that expires in 30 days. */
async function profile(scopes = ['api:read', 'keys:admin']): Promise<Profile> {
  counter++;
  const env = isolatedEnv();
  const configDir = env.APPRAISAL_CONFIG_DIR!;
  const old = await createKey(mock, { name: `lifecycle ${counter}`, scopes, expiresAt: new Date(Date.now() + 30 * DAY).toISOString() });
  const login = await run(['auth', 'login', '--with-key', '--insecure-storage'], {
    env: { ...env, APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile },
    stdin: `${old.secret}\n`,
  });
  expect(login.code, login.stderr).toBe(0);
  const runs: RunResult[] = [];
  return {
    old,
    env,
    home: env.HOME!,
    configDir,
    runs,
    run: async (args, extra = {}) => {
      const result = await run(args, { env: { ...env, ...extra } });
      runs.push(result);
      return result;
    },
    stored: () => (JSON.parse(readFileSync(join(configDir, 'credentials', 'default.key'), 'utf8')) as { key: string }).key,
  };
}

describe('keys rotate on a schedule', () => {
  it('does nothing (exit 0, one line) while the key is young and far from expiry, and rotates once the service says it is due', async () => {
    const p = await profile();
    const schedule = ['keys', 'rotate', '--yes', '--if-expiring-within', '14d', '--if-older-than', '90d', '-o', 'json'];
    const idle = await p.run(schedule);
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.stderr).toMatch(
      new RegExp(`^nothing to do: key ${p.old.prefix} of profile default expires in 30 days and is \\d+ (minute|hour)s? old$`, 'm'),
    );
    expect(JSON.parse(idle.stdout)).toMatchObject({ rotated: false, oldPrefix: p.old.prefix });
    expect(p.stored()).toBe(p.old.secret);
    expect(await statusWith(mock, p.old.secret)).toBe(200);

    // The service's record decides (not the local cache): 87 days old, 3 days left — a 90-day key.
    await setDates(p.old, {
      createdAt: new Date(Date.now() - 87 * DAY).toISOString(),
      expiresAt: new Date(Date.now() + 3 * DAY).toISOString(),
    });
    // The expiry warning names the profile and the command, for a key that can rotate itself.
    const status = await p.run(['auth', 'status', '-o', 'json']);
    expect(status.stderr).toContain(`warning: key ${p.old.prefix}… expires in 3 days`);
    expect(status.stderr).toContain('rotate it with appraisal keys rotate --profile default');

    const due = await p.run(schedule);
    expect(due.code, due.stderr).toBe(0);
    // One rounding rule (issue 25 §5): the same key reads the same number of days in both messages.
    expect(due.stderr).toContain(`rotate: key ${p.old.prefix} is due: it expires in 3 days`);
    const summary = JSON.parse(due.stdout);
    expect(summary).toMatchObject({ oldPrefix: p.old.prefix, oldKey: 'revoked' });
    expect(await statusWith(mock, p.old.secret)).toBe(401);
    expect(await statusWith(mock, p.stored())).toBe(200);
    // The replacement gets the old key's lifetime (90 days) by default.
    const fresh = (await keyByPrefix(mock, summary.newPrefix))!;
    expect(Math.abs(Date.parse(fresh.expiresAt!) - (Date.now() + 90 * DAY))).toBeLessThan(120_000);

    // --if-older-than alone, on the new key: nothing to do.
    const again = await p.run(['keys', 'rotate', '--yes', '--if-older-than', '90d']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^nothing to do: key apk_\w+ of profile default is \d+ (minute|hour)s? old$/m);
    expectNoSecrets([p.old.secret, p.stored()], p.runs, [p.home], [join(p.configDir, 'credentials', 'default.key')]);
  });
});

describe('keys create --store-as over a stored key', () => {
  it('says the key it replaced still works on the service, and how to revoke it', async () => {
    const p = await profile();
    const result = await p.run(['keys', 'create', '--name', 'replacement', '--scope', 'api:read', '--store-as', 'default'], {
      APPRAISAL_API_KEY: mock.adminKey,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `note: the key it replaced in profile default, ${p.old.prefix}, still works on the service until it is revoked: appraisal keys revoke ${p.old.prefix} --yes`,
    );
    expect(p.stored().startsWith(`${result.stdout.trim()}_`)).toBe(true);
    expect(await statusWith(mock, p.old.secret)).toBe(200);
  });
});

describe('keys rotate --deliver', () => {
  it('gives each command exactly the new secret on stdin, no credential in its environment, and redacts its output', async () => {
    const p = await profile();
    const out = join(p.home, 'delivered');
    mkdirSync(out);
    // The first delivery echoes what it got (the CLI must redact it); both dump their environment.
    const first = `cat > "${out}/stdin-1"; env > "${out}/env-1"; cat "${out}/stdin-1"; echo " <- got it"`;
    const second = `cat > "${out}/stdin-2"; env > "${out}/env-2"`;
    const result = await p.run(['keys', 'rotate', '--yes', '-o', 'json', '--deliver', first, '--deliver', second], {
      APPRAISAL_MOCK_ADMIN_KEY: mock.adminKey,
      COPY_OF_THE_KEY: p.old.secret,
      UNRELATED: 'kept',
    });
    expect(result.code, result.stderr).toBe(0);
    const newSecret = p.stored();
    const summary = JSON.parse(result.stdout);
    expect(summary.delivered).toEqual([first, second]);
    for (const n of [1, 2]) {
      expect(readFileSync(join(out, `stdin-${n}`), 'utf8')).toBe(newSecret);
      const env = readFileSync(join(out, `env-${n}`), 'utf8');
      expect(env).toContain(`APPRAISAL_KEY_PREFIX=${summary.newPrefix}\n`);
      expect(env).toContain(`APPRAISAL_KEY_ID=${summary.newKeyId}\n`);
      expect(env).toContain('UNRELATED=kept\n');
      for (const name of ['APPRAISAL_API_KEY', 'APPRAISAL_TOKEN', 'APPRAISAL_MOCK_ADMIN_KEY', 'COPY_OF_THE_KEY'])
        expect(env).not.toMatch(new RegExp(`^${name}=`, 'm'));
      for (const secret of [newSecret, p.old.secret, mock.adminKey]) expect(env).not.toContain(secret);
    }
    // What the child printed comes through cut to the prefix.
    expect(result.stderr).toMatch(new RegExp(`\ndeliver: ${summary.newPrefix}_?… <- got it\n`));
    expect(result.stderr).toMatch(/rotate: delivered the new key to .*\nrotate: delivered the new key to .*\nrotate: revoked key /);
    expect(await statusWith(mock, p.old.secret)).toBe(401);
    expectNoSecrets(
      [newSecret, p.old.secret],
      p.runs,
      [p.home],
      [join(p.configDir, 'credentials', 'default.key'), join(out, 'stdin-1'), join(out, 'stdin-2')],
    );
  });

  it('a failing delivery rolls back: the old key keeps working, the new one is revoked, and earlier deliveries are named (exit 21)', async () => {
    const p = await profile();
    const got = join(p.home, 'got');
    const audit = join(p.home, 'audit.jsonl');
    const result = await p.run([
      'keys',
      'rotate',
      '--yes',
      '--audit-log',
      audit,
      '--deliver',
      `cat > "${got}"`,
      '--deliver',
      'echo refused >&2; exit 3',
    ]);
    expect(result.code, result.stderr).toBe(21);
    const newPrefix = readFileSync(got, 'utf8').slice(0, 12);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: key rotation failed at step 6/7 \\(deliver the new key\\): delivery 2/2 \\(echo refused >&2; exit 3\\) exited with code 3\\. Rolled back: the new key ${newPrefix} was revoked\\. Delivery \`cat > "[^"]+"\` already received the new key, which is now revoked: .* Profile default still uses the old key ${p.old.prefix}, which works$`,
        'm',
      ),
    );
    expect(result.stderr).toContain('deliver: refused');
    expect(p.stored()).toBe(p.old.secret);
    expect(await statusWith(mock, p.old.secret)).toBe(200);
    expect(await statusWith(mock, readFileSync(got, 'utf8'))).toBe(401);
    expect(JSON.parse(readFileSync(audit, 'utf8'))).toMatchObject({ outcome: 'rolled-back', delivered: [`cat > "${got}"`] });

    // A delivery that hangs is stopped at --deliver-timeout, with the same roll-back.
    const slow = await p.run(['keys', 'rotate', '--yes', '--deliver', 'sleep 60', '--deliver-timeout', '1s']);
    expect(slow.code, slow.stderr).toBe(21);
    expect(slow.stderr).toMatch(/delivery \(sleep 60\) timed out after 1s .*Rolled back: the new key apk_\w+ was revoked/);
    expect(await statusWith(mock, p.old.secret)).toBe(200);
  });
});

describe('keys rotate --grace', () => {
  it('keeps the old key until its time, records it (local state, audit log, auth status), and keys revoke --due revokes it then', async () => {
    const p = await profile();
    const audit = join(p.home, 'audit.jsonl');
    const result = await p.run(['keys', 'rotate', '--yes', '--grace', '24h', '--audit-log', audit, '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ oldKey: 'pending', oldPrefix: p.old.prefix });
    expect(result.stderr).toContain(`(${p.old.prefix} to be revoked at ${summary.oldKeyRevokedFrom})`);
    expect(Math.abs(Date.parse(summary.oldKeyRevokedFrom) - (Date.now() + DAY))).toBeLessThan(120_000);
    expect(await statusWith(mock, p.old.secret)).toBe(200);
    expect(JSON.parse(readFileSync(audit, 'utf8'))).toMatchObject({
      outcome: 'rotated',
      pendingRevocation: { prefix: p.old.prefix, dueAt: summary.oldKeyRevokedFrom },
    });

    const status = await p.run(['auth', 'status', '-o', 'json']);
    expect(status.stderr).toContain(`pending revocation: key ${p.old.prefix} still works until ${summary.oldKeyRevokedFrom}`);
    expect(JSON.parse(status.stdout).pendingRevocations).toEqual([expect.objectContaining({ prefix: p.old.prefix, due: false })]);

    const early = await p.run(['keys', 'revoke', '--due', '--yes']);
    expect(early.code, early.stderr).toBe(0);
    expect(early.stderr).toContain(
      `nothing due for profile default: 1 pending, the next (${p.old.prefix}) at ${summary.oldKeyRevokedFrom}`,
    );
    expect(await statusWith(mock, p.old.secret)).toBe(200);

    // The grace period passes.
    const file = join(p.configDir, 'pending-revocations.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    state.pending[0].dueAt = new Date(Date.now() - 60_000).toISOString();
    writeFileSync(file, JSON.stringify(state));
    const dueStatus = await p.run(['auth', 'status']);
    expect(dueStatus.stderr).toContain(`pending revocation: key ${p.old.prefix} was due at`);
    const revoke = await p.run(['keys', 'revoke', '--due', '--yes']);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stderr).toContain(`Revoked key ${p.old.prefix}`);
    expect(await statusWith(mock, p.old.secret)).toBe(401);
    expect(await statusWith(mock, p.stored())).toBe(200);
    expect(JSON.parse(readFileSync(file, 'utf8')).pending).toEqual([]);
    expectNoSecrets([p.old.secret, p.stored()], p.runs, [p.home], [join(p.configDir, 'credentials', 'default.key')]);
  });
});

describe('keys audit', () => {
  it('lists every key with its findings, worst first; --fail-on gates CI with exit 20', async () => {
    const admin = { ...isolatedEnv(), ...mock.env };
    const now = Date.now();
    const expired = await createKey(mock, { name: 'audit expired', scopes: ['api:read'], expiresAt: new Date(now + DAY).toISOString() });
    await setDates(expired, { expiresAt: new Date(now - 2 * DAY).toISOString() });
    const soon = await createKey(mock, {
      name: 'audit soon',
      scopes: ['api:read', 'api:write'],
      expiresAt: new Date(now + 5 * DAY).toISOString(),
    });
    const forever = await createKey(mock, { name: 'audit twin', scopes: ['api:read'] });
    const twin = await createKey(mock, { name: 'audit twin', scopes: ['api:read'], expiresAt: new Date(now + 60 * DAY).toISOString() });
    const idle = await createKey(mock, { name: 'audit idle', scopes: ['api:read'], expiresAt: new Date(now + 60 * DAY).toISOString() });
    await setDates(idle, { createdAt: new Date(now - 200 * DAY).toISOString(), lastUsedAt: new Date(now - 120 * DAY).toISOString() });

    const json = await run(['keys', 'audit', '-o', 'json'], { env: admin });
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Array<{
      prefix: string;
      severity: string;
      findings: string[];
      inUse: boolean;
      daysLeft: number | null;
    }>;
    const row = (key: CreatedKey) => rows.find((r) => r.prefix === key.prefix)!;
    expect(row(expired)).toMatchObject({ severity: 'critical', findings: ['critical: expired 2 days ago but not revoked'] });
    expect(row(soon)).toMatchObject({ severity: 'warning', findings: ['warning: expires in 5 days'], daysLeft: 5 });
    expect(row(forever).findings).toEqual(['warning: never expires', 'info: 2 active keys are named "audit twin"']);
    expect(row(twin)).toMatchObject({ severity: 'info', findings: ['info: 2 active keys are named "audit twin"'] });
    expect(row(idle)).toMatchObject({ severity: 'warning', findings: ['warning: unused for 120 days'] });
    const self = rows.find((r) => r.inUse)!;
    expect(self.findings).toEqual(expect.arrayContaining(['warning: has the api:admin scope', 'info: the key profile default uses']));
    // Worst first.
    expect(rows[0]!.severity).toBe('critical');
    expect(json.stderr).toMatch(/^Audited \d+ keys: 1 with critical findings, \d+ with warnings$/m);
    expectNoSecrets([expired.secret, soon.secret, mock.adminKey], [json], []);

    // A table for people: scopes read "api:read, api:write".
    const table = await run(['keys', 'audit', '-o', 'table'], { env: admin });
    expect(table.stdout).toContain('api:read, api:write');

    const critical = await run(['keys', 'audit', '--fail-on', 'critical', '-o', 'csv'], { env: admin });
    expect(critical.code).toBe(20);
    expect(critical.stderr).toMatch(/^error: 1 key has findings at or above critical \(--fail-on critical\)$/m);
    await call(mock, 'POST', `/__mock/keys/${expired.id}/revoke`);
    expect((await run(['keys', 'audit', '--fail-on', 'critical', '-o', 'csv'], { env: admin })).code).toBe(0);
    expect((await run(['keys', 'audit', '--fail-on', 'warning', '-o', 'csv'], { env: admin })).code).toBe(20);
  });
});

describe('keys scan', () => {
  function git(cwd: string, ...args: string[]): void {
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd,
      stdio: 'ignore',
    });
  }

  it('finds a key in an old commit of a git repository, reports its prefix only, and --revoke revokes it (exit 20)', async () => {
    const env = isolatedEnv();
    const repo = join(env.HOME!, 'repo');
    mkdirSync(repo);
    const leaked = await createKey(mock, { name: 'leaked', scopes: ['api:read'] });
    const dead = await createKey(mock, { name: 'dead', scopes: ['api:read'] });
    await call(mock, 'POST', `/__mock/keys/${dead.id}/revoke`);
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'config.env'), `# deploy settings\nURL=https://example.com\nAPPRAISAL_API_KEY=${leaked.secret}\n`);
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'oops');
    writeFileSync(join(repo, 'config.env'), '# deploy settings\nURL=https://example.com\n');
    writeFileSync(join(repo, 'notes.txt'), `old key: ${dead.secret}\n`);
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'remove the key');

    const plain = await run(['keys', 'scan', repo, '-o', 'json'], { env: { ...env, ...mock.env } });
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout)).toEqual([
      { status: 'revoked', prefix: dead.prefix, file: expect.stringMatching(/notes\.txt$/), line: 1, commit: null },
    ]);

    // A key that cannot list keys cannot tell which are live.
    const reader = await createKey(mock, { name: 'reader', scopes: ['api:read'] });
    const blind = await run(['keys', 'scan', repo, '--git', '-o', 'json'], {
      env: { ...env, ...mock.env, APPRAISAL_API_KEY: reader.secret },
    });
    expect(blind.code, blind.stderr).toBe(0);
    expect(blind.stderr).toMatch(/^warning: cannot tell which of them are live: listing keys needs an admin key/m);

    const found = await run(['keys', 'scan', repo, '--git', '-o', 'json'], { env: { ...env, ...mock.env } });
    expect(found.code, found.stderr).toBe(20);
    const rows = JSON.parse(found.stdout) as Array<{ status: string; prefix: string; file: string; line: number; commit: string | null }>;
    expect(rows).toContainEqual({
      status: 'live',
      prefix: leaked.prefix,
      file: expect.stringMatching(/^[0-9a-f]{12}:config\.env$/),
      line: 3,
      commit: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect(found.stderr).toMatch(new RegExp(`^error: 1 live key found: ${leaked.prefix}$`, 'm'));

    const audit = join(env.HOME!, 'revoked.jsonl');
    const revoke = await run(['keys', 'scan', repo, '--git', '--revoke', '--yes', '--audit-log', audit], {
      env: { ...env, ...mock.env },
    });
    expect(revoke.code, revoke.stderr).toBe(20);
    expect(revoke.stderr).toContain(`Revoked key ${leaked.prefix} (found in `);
    expect(revoke.stderr).toMatch(new RegExp(`^error: 1 live key found: ${leaked.prefix}; revoked ${leaked.prefix}$`, 'm'));
    expect(await statusWith(mock, leaked.secret)).toBe(401);
    expect(JSON.parse(readFileSync(audit, 'utf8'))).toMatchObject({ action: 'revoke', prefix: leaked.prefix, keyId: leaked.id });

    const after = await run(['keys', 'scan', repo, '--git', '-o', 'json'], { env: { ...env, ...mock.env } });
    expect(after.code, after.stderr).toBe(0);
    expect(existsSync(join(repo, '.git'))).toBe(true);
    expectNoSecrets([leaked.secret, dead.secret, mock.adminKey], [plain, blind, found, revoke, after], [], []);
    expect(readFileSync(audit, 'utf8')).not.toContain(leaked.secret);
  });
});
