// keys rotate end to end against `appraisal mock`: the old key gets 401, the new key works, the
// profile uses the new key, and no secret shows up in any output or file. Then a failure at each
// step — creation refused, verification fails, the store cannot be written, revocation fails — must
// leave the profile working, with a message that says exactly what happened.
//
// The OS keychain runs for real (a Secret Service of this file's own, see private-keyring.ts) when
// APPRAISAL_TEST_KEYRING=1, as under `npm test`; in CI these tests must run. The insecure-storage
// variants need no keychain and always run.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run, type RunResult } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { createKey, type CreatedKey } from './credentials-support.js';
import {
  clearFaults,
  clearRequestLog,
  expectNoSecrets,
  keyByPrefix,
  prefixesIn,
  queueFault,
  releaseHeld,
  statusWith,
  waitForRequest,
} from './keys-support.js';
import { startPrivateKeyring, type PrivateKeyring } from './private-keyring.js';
import { tempDir } from '../helpers/temp.js';

const hasKeyring = process.env.APPRAISAL_TEST_KEYRING === '1';
const inCI = process.env.CI === 'true';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ records: 5 });
});
afterAll(async () => {
  await mock?.stop();
});
afterEach(async () => {
  await clearFaults(mock);
});

function originKey(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

type Storage = 'insecure-file' | 'keychain';

interface Scenario {
  old: CreatedKey;
  env: Record<string, string | undefined>;
  home: string;
  configDir: string;
  keyFile: string;
  auditLog: string;
  runs: Outcome[];
  rotate(args?: string[], extraEnv?: Record<string, string>): Promise<Outcome>;
  /** What the profile's store holds now. */
  stored(): Promise<string | null>;
  profile(): Record<string, unknown>;
  run(args: string[]): Promise<Outcome>;
}

let counter = 0;

type Outcome = RunResult;

/** A profile logged in with a fresh admin key (api:read + keys:admin, expiring in 30 days). */
async function scenario(storage: Storage, keyring?: PrivateKeyring): Promise<Scenario> {
  counter++;
  const env = isolatedEnv(keyring?.env ?? {});
  const configDir = env.APPRAISAL_CONFIG_DIR!;
  const old = await createKey(mock, {
    name: `rotation ${counter}`,
    scopes: ['api:read', 'keys:admin'],
    expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  });
  // In process; the keychain tests point this process at their private keyring.
  const cli = run;
  const login = await cli(['auth', 'login', '--with-key', ...(storage === 'insecure-file' ? ['--insecure-storage'] : [])], {
    env: { ...env, APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile },
    stdin: `${old.secret}\n`,
  });
  expect(login.code, login.stderr).toBe(0);
  const runs: Outcome[] = [];
  const record = async (result: Promise<Outcome>) => {
    const done = await result;
    runs.push(done);
    return done;
  };
  const auditLog = join(env.HOME!, 'rotations.jsonl');
  return {
    old,
    env,
    home: env.HOME!,
    configDir,
    keyFile: join(configDir, 'credentials', 'default.key'),
    auditLog,
    runs,
    rotate: (args = [], extraEnv = {}) =>
      record(cli(['keys', 'rotate', '--yes', '--audit-log', auditLog, ...args], { env: { ...env, ...extraEnv } })),
    stored: async () => {
      if (storage === 'keychain') return keyring!.read(`default@${originKey(mock.baseUrl)}`);
      return existsSync(join(configDir, 'credentials', 'default.key'))
        ? (JSON.parse(readFileSync(join(configDir, 'credentials', 'default.key'), 'utf8')) as { key: string }).key
        : null;
    },
    profile: () => JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default,
    run: (args) => record(cli(args, { env })),
  };
}

function auditLines(s: Scenario): Array<Record<string, unknown>> {
  return readFileSync(s.auditLog, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** After a failed rotation: the profile still holds the old key and works with it. */
async function expectProfileKeepsOldKey(s: Scenario): Promise<void> {
  expect(await s.stored()).toBe(s.old.secret);
  expect(s.profile()).toMatchObject({ keyPrefix: s.old.prefix });
  const list = await s.run(['props', 'list', '--max-items', '1', '-o', 'json']);
  expect(list.code, list.stderr).toBe(0);
  const status = await s.run(['auth', 'status', '-o', 'json']);
  expect(JSON.parse(status.stdout)).toMatchObject({ keyPrefix: s.old.prefix });
  expect(await statusWith(mock, s.old.secret)).toBe(200);
}

/** The rotation ran to the end: new key stored, working and used; old key refused. */
async function expectRotated(s: Scenario, result: Outcome, storage: Storage): Promise<string> {
  expect(result.code, result.stderr).toBe(0);
  const summary = JSON.parse(result.stdout);
  expect(summary).toMatchObject({ profile: 'default', oldPrefix: s.old.prefix, oldKey: 'revoked' });
  const newSecret = (await s.stored())!;
  expect(newSecret.startsWith(`${summary.newPrefix}_`)).toBe(true);
  expect(newSecret).not.toBe(s.old.secret);
  // The old key gets 401, the new key works.
  expect(await statusWith(mock, s.old.secret)).toBe(401);
  expect(await statusWith(mock, newSecret)).toBe(200);
  // The profile uses the new key, from where it is stored.
  expect(s.profile()).toMatchObject({ keyPrefix: summary.newPrefix, keyStorage: storage });
  const status = await s.run(['auth', 'status', '-o', 'json']);
  expect(status.code, status.stderr).toBe(0);
  expect(JSON.parse(status.stdout)).toMatchObject({ keyPrefix: summary.newPrefix, source: storage, scopes: ['api:read', 'keys:admin'] });
  const list = await s.run(['props', 'list', '--max-items', '2', '-o', 'json']);
  expect(list.code, list.stderr).toBe(0);
  expect(JSON.parse(list.stdout)).toHaveLength(2);
  // Same name (with the date), same scopes, the same 30-day lifetime.
  const record = (await keyByPrefix(mock, summary.newPrefix))!;
  expect(record.name).toBe(`${(await keyByPrefix(mock, s.old.prefix))!.name} (rotated ${new Date().toISOString().slice(0, 10)})`);
  expect(record.scopes).toEqual(['api:read', 'keys:admin']);
  expect(Math.abs(Date.parse(record.expiresAt!) - (Date.now() + 30 * 86_400_000))).toBeLessThan(120_000);
  expect(result.stderr).toContain(`Rotated profile default: ${s.old.prefix} → ${summary.newPrefix} (${s.old.prefix} revoked)`);
  const [line] = auditLines(s);
  expect(line).toMatchObject({ profile: 'default', oldPrefix: s.old.prefix, newPrefix: summary.newPrefix, outcome: 'rotated' });
  expect((line!.steps as Array<{ step: string; ok: boolean }>).map((step) => step.ok)).toEqual([true, true, true, true, true, true]);
  if (process.platform !== 'win32') expect(statSync(s.auditLog).mode & 0o777).toBe(0o600);
  // No secret in any output, nor in any file but the insecure-storage key file itself.
  expectNoSecrets([s.old.secret, newSecret], s.runs, [s.home], storage === 'insecure-file' ? [s.keyFile] : []);
  return newSecret;
}

/** The new key a failed rotation named (and revoked): from its message. */
function newPrefixIn(result: Outcome, old: string): string | undefined {
  return prefixesIn(result.stderr).find((prefix) => prefix !== old);
}

describe('keychain availability', () => {
  it.runIf(inCI)('CI runs the keychain rotation tests (scripts/test.sh inside dbus-run-session)', () => {
    expect(hasKeyring, 'CI=true but APPRAISAL_TEST_KEYRING is not 1: run the suite with `npm test`').toBe(true);
  });
});

/** Whether this machine can make a directory unwritable even for root (chattr +i). */
function immutableDirsWork(): boolean {
  if (process.platform !== 'linux') return false;
  const dir = tempDir('appraisal-chattr-');
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
    try {
      mkdirSync(join(dir, 'probe'));
      return false;
    } catch {
      return true;
    } finally {
      execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
    }
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function rotationSuite(storage: Storage, keyring: () => PrivateKeyring | undefined) {
  const make = () => scenario(storage, keyring());

  it('rotates end to end: the old key gets 401, the new key works and is the profile\u2019s, no secret anywhere', async () => {
    const s = await make();
    const result = await s.rotate();
    expect(result.stderr).toMatch(
      /rotate: read key .*\nrotate: created key .*\nrotate: verified key .*\nrotate: stored key .*\nrotate: verified the stored key\nrotate: revoked key /,
    );
    await expectRotated(s, result, storage);
  });

  it('--keep-old leaves the old key working and says how to revoke it', async () => {
    const s = await make();
    const result = await s.rotate(['--keep-old', '--expires-in', '7d']);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.oldKey).toBe('kept');
    expect(await statusWith(mock, s.old.secret)).toBe(200);
    expect(result.stderr).toContain(`appraisal keys revoke ${s.old.prefix} --yes`);
    const record = (await keyByPrefix(mock, summary.newPrefix))!;
    expect(Math.abs(Date.parse(record.expiresAt!) - (Date.now() + 7 * 86_400_000))).toBeLessThan(120_000);
    expectNoSecrets([s.old.secret, (await s.stored())!], s.runs, [s.home], storage === 'insecure-file' ? [s.keyFile] : []);
  });

  it('creation refused (403, 422): nothing changes; exit 5 / 7', async () => {
    for (const [status, code] of [
      [403, 5],
      [422, 7],
    ] as const) {
      const s = await make();
      await queueFault(mock, { path: '/api/keys', method: 'POST', fault: `status=${status}` });
      const result = await s.rotate();
      expect(result.code, result.stderr).toBe(code);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: key rotation failed at step 2/6 \\(create the replacement\\): POST /api/keys: ${status} .*Nothing was changed\\. Profile default still uses the old key ${s.old.prefix}, which works$`,
          'm',
        ),
      );
      await expectProfileKeepsOldKey(s);
      expect(auditLines(s)[0]).toMatchObject({ outcome: 'rolled-back', newPrefix: null });
      expectNoSecrets([s.old.secret], s.runs, [s.home], storage === 'insecure-file' ? [s.keyFile] : []);
    }
  });

  it('verification of the new key fails (401): the new key is revoked, the profile keeps the old one', async () => {
    const s = await make();
    // The first GET /api/keys/current is the old key reading its record; the second is the new key.
    await queueFault(mock, { path: '/api/keys/current', method: 'GET', fault: 'status=401', skip: 1 });
    const result = await s.rotate();
    expect(result.code).toBe(4);
    const fresh = newPrefixIn(result, s.old.prefix)!;
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: key rotation failed at step 3/6 \\(verify the new key\\): GET /api/keys/current: 401 .*Rolled back: the new key ${fresh} was revoked\\. Profile default still uses the old key ${s.old.prefix}, which works$`,
        'm',
      ),
    );
    expect(result.stderr).toMatch(/^hint: nothing needs fixing: the profile keeps its working key/m);
    expect((await keyByPrefix(mock, fresh))!.revokedAt).not.toBeNull();
    await expectProfileKeepsOldKey(s);
    expectNoSecrets([s.old.secret], s.runs, [s.home], storage === 'insecure-file' ? [s.keyFile] : []);
  });

  it('revoking the old key fails (503): the new key is in place and works, the old one too; the message says how to finish', async () => {
    const s = await make();
    await queueFault(mock, { path: '/api/keys/*', method: 'DELETE', fault: 'status=503', count: 50 });
    const result = await s.rotate([], { APPRAISAL_RETRY_BASE_MS: '1' });
    await clearFaults(mock);
    expect(result.code).toBe(8);
    const fresh = newPrefixIn(result, s.old.prefix)!;
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: key rotation did not finish at step 6/6 \\(revoke the old key\\): DELETE /api/keys/[0-9a-f-]+: 503 .*Profile default now uses the new key ${fresh}, which works; the old key ${s.old.prefix} was NOT revoked and still works$`,
        'm',
      ),
    );
    expect(result.stderr).toContain(`hint: revoke the old key once the service answers: \`appraisal keys revoke ${s.old.prefix} --yes\``);
    const newSecret = (await s.stored())!;
    expect(newSecret.startsWith(`${fresh}_`)).toBe(true);
    expect(await statusWith(mock, newSecret)).toBe(200);
    expect(await statusWith(mock, s.old.secret)).toBe(200);
    expect(s.profile()).toMatchObject({ keyPrefix: fresh });
    expect(auditLines(s)[0]).toMatchObject({ outcome: 'rotated-old-key-active', newPrefix: fresh });
    // The command it names finishes the job.
    const finish = await s.run(['keys', 'revoke', s.old.prefix, '--yes']);
    expect(finish.code, finish.stderr).toBe(0);
    expect(await statusWith(mock, s.old.secret)).toBe(401);
    expect((await s.run(['props', 'list', '--max-items', '1', '-o', 'json'])).code).toBe(0);
    expectNoSecrets([s.old.secret, newSecret], s.runs, [s.home], storage === 'insecure-file' ? [s.keyFile] : []);
  });
}

describe('keys rotate, insecure-storage profile (no keychain needed)', () => {
  rotationSuite('insecure-file', () => undefined);

  const immutable = immutableDirsWork();
  it.runIf(immutable)(
    `the key file cannot be written (an immutable directory, even for root): rolled back, exit 2${immutable ? '' : ' [skipped: chattr +i does not work here]'}`,
    async () => {
      const s = await scenario('insecure-file');
      const credentials = join(s.configDir, 'credentials');
      // Hold creation until the directory is immutable: between reading the key and storing the new one.
      await queueFault(mock, { path: '/api/keys', method: 'POST', fault: 'hold' });
      await clearRequestLog(mock);
      const rotation = s.rotate();
      let result: Outcome;
      try {
        await waitForRequest(mock, (entry) => entry.method === 'POST' && entry.path === '/api/keys');
        execFileSync('chattr', ['+i', credentials]);
        expect(await releaseHeld(mock)).toBe(1);
        result = await rotation;
      } finally {
        execFileSync('chattr', ['-i', credentials]);
      }
      expect(result.code).toBe(2);
      const fresh = newPrefixIn(result, s.old.prefix)!;
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: key rotation failed at step 4/6 \\(store the new key\\): cannot write .*default\\.key: .*Rolled back: the new key ${fresh} was revoked\\. Profile default still uses the old key ${s.old.prefix}, which works$`,
          'm',
        ),
      );
      expect((await keyByPrefix(mock, fresh))!.revokedAt).not.toBeNull();
      await expectProfileKeepsOldKey(s);
      expectNoSecrets([s.old.secret], s.runs, [s.home], [s.keyFile]);
    },
  );

  it('a key from APPRAISAL_API_KEY is not rotated: exit 2 with the manual recipe, before any change', async () => {
    const key = await createKey(mock, { name: 'env key', scopes: ['keys:admin'] });
    const result = await run(['keys', 'rotate', '--yes'], { env: isolatedEnv({ ...mock.env, APPRAISAL_API_KEY: key.secret }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: the key in use (${key.prefix}) comes from APPRAISAL_API_KEY, which appraisal cannot update`);
    expect(result.stderr).toMatch(/^hint: rotate it in your secret store: `appraisal keys create/m);
    expect(await statusWith(mock, key.secret)).toBe(200);
  });

  it('without --yes off a terminal, nothing happens', async () => {
    const s = await scenario('insecure-file');
    const result = await s.run(['keys', 'rotate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/confirmation needed; pass --yes/);
    expect(await s.stored()).toBe(s.old.secret);
  });
});

describe.runIf(hasKeyring)(
  `keys rotate, OS keychain (a private Secret Service)${hasKeyring ? '' : ' [skipped: no Secret Service; `npm test` runs it under dbus-run-session with gnome-keyring]'}`,
  () => {
    let keyring: PrivateKeyring;
    const busOfThisProcess = process.env.DBUS_SESSION_BUS_ADDRESS;
    beforeAll(async () => {
      keyring = await startPrivateKeyring();
      // This file's own worker process: the keychain calls of the commands run here go to the private keyring.
      process.env.DBUS_SESSION_BUS_ADDRESS = keyring.env.DBUS_SESSION_BUS_ADDRESS;
    });
    afterAll(async () => {
      if (busOfThisProcess === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = busOfThisProcess;
      await keyring?.stop();
    });

    rotationSuite('keychain', () => keyring);

    it('the keychain is locked half-way (a real lock): the write fails, the new key is revoked, the entry still holds the old key', async () => {
      const s = await scenario('keychain', keyring);
      // Hold creation until the keychain is locked: between reading the key and storing the new one.
      await queueFault(mock, { path: '/api/keys', method: 'POST', fault: 'hold' });
      await clearRequestLog(mock);
      const rotation = s.rotate();
      let result: Outcome;
      try {
        await waitForRequest(mock, (entry) => entry.method === 'POST' && entry.path === '/api/keys');
        await keyring.lock();
        expect(await releaseHeld(mock)).toBe(1);
        result = await rotation;
      } finally {
        await keyring.unlock();
      }
      expect(result.code).toBe(2);
      const fresh = newPrefixIn(result, s.old.prefix)!;
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: key rotation failed at step 4/6 \\(store the new key\\): could not write the key of profile "default" to the OS keychain: the OS keychain is locked or refused access .*Rolled back: the new key ${fresh} was revoked\\. Profile default still uses the old key ${s.old.prefix}, which works$`,
          'm',
        ),
      );
      expect((await keyByPrefix(mock, fresh))!.revokedAt).not.toBeNull();
      expect(auditLines(s)[0]).toMatchObject({ outcome: 'rolled-back', newPrefix: fresh });
      await expectProfileKeepsOldKey(s);
      expectNoSecrets([s.old.secret], s.runs, [s.home]);
    });

    it('keys create --store-as puts the key in the profile\u2019s keychain entry; only the prefix is printed', async () => {
      const s = await scenario('keychain', keyring);
      const admin = { ...s.env, APPRAISAL_API_KEY: mock.adminKey };
      const result = await run(
        [
          'keys',
          'create',
          '--name',
          'stored',
          '--scope',
          'api:read',
          '--scope',
          'keys:admin',
          '--expires-in',
          '30d',
          '--store-as',
          'default',
        ],
        { env: admin },
      );
      expect(result.code, result.stderr).toBe(0);
      const prefix = result.stdout.trim();
      expect(result.stdout).toMatch(/^apk_[A-Za-z0-9]{8}\n$/);
      const secret = (await s.stored())!;
      expect(secret.startsWith(`${prefix}_`)).toBe(true);
      expect(s.profile()).toMatchObject({ keyPrefix: prefix, keyStorage: 'keychain' });
      const status = await s.run(['auth', 'status', '-o', 'json']);
      expect(JSON.parse(status.stdout)).toMatchObject({ keyPrefix: prefix, keyName: 'stored', source: 'keychain' });
      expectNoSecrets([secret, s.old.secret], [result, ...s.runs], [s.home]);
      // And it rotates like any other.
      await expectRotated({ ...s, old: { ...s.old, secret, prefix } }, await s.rotate(), 'keychain');
    });
  },
);
