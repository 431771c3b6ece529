// The keys commands as the documented cron lines run them (docs/KEYS.md): `keys rotate` with
// --if-expiring-within / --if-older-than says in one sentence why there is nothing to do, and with
// -q says nothing at all; so do `keys revoke --due` and the summary of `keys audit`. Cron mails
// whatever a job prints: a quiet day must print nothing. In process against `appraisal mock`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run, type RunResult } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { createKey, type CreatedKey } from './credentials-support.js';
import { call, statusWith } from './keys-support.js';

const DAY = 86_400_000;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ records: 1 });
});
afterAll(async () => {
  await mock?.stop();
});

interface Profile {
  key: CreatedKey;
  /** A run, its stderr without the warning that the key is in a plain-text file (these profiles use
   *  --insecure-storage; under -q that warning comes once a day, see core/credentials/insecure-file.ts). */
  run(args: string[]): Promise<RunResult>;
}

const PLAIN_TEXT_WARNING = /^warning: profile default: the key is stored in plain text in .*\n/m;

/** A profile `default` logged in (insecure storage) with a new admin key; its dates set on the service. */
async function profile(dates: { expiresAt: string | null; createdAt: string }): Promise<Profile> {
  const env = isolatedEnv();
  const key = await createKey(mock, { name: 'cron', scopes: ['api:read', 'keys:admin'] });
  const patched = await call(mock, 'PATCH', `/__mock/keys/${key.id}`, { body: dates });
  expect(patched.status).toBe(200);
  const login = await run(['auth', 'login', '--with-key', '--insecure-storage'], {
    env: { ...env, APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile },
    stdin: `${key.secret}\n`,
  });
  expect(login.code, login.stderr).toBe(0);
  return {
    key,
    run: async (args) => {
      const result = await run(args, { env });
      return { ...result, stderr: result.stderr.replace(PLAIN_TEXT_WARNING, '') };
    },
  };
}

const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const daysAhead = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe('keys rotate on a schedule, nothing to do', () => {
  it('says why in one sentence, for a key that expires and one that never does, with either flag or both', async () => {
    const expiring = await profile({ expiresAt: daysAhead(41), createdAt: daysAgo(20) });
    const forever = await profile({ expiresAt: null, createdAt: daysAgo(3) });
    const cases: Array<[Profile, string[], string]> = [
      [expiring, ['--if-expiring-within', '14d', '--if-older-than', '90d'], 'expires in 41 days and is 20 days old'],
      [expiring, ['--if-expiring-within', '14d'], 'expires in 41 days'],
      [expiring, ['--if-older-than', '90d'], 'is 20 days old'],
      [forever, ['--if-expiring-within', '14d', '--if-older-than', '90d'], 'never expires and is 3 days old'],
      [forever, ['--if-expiring-within', '14d'], 'never expires'],
      [forever, ['--if-older-than', '90d'], 'is 3 days old'],
    ];
    for (const [p, flags, because] of cases) {
      const result = await p.run(['keys', 'rotate', '--yes', ...flags]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr, flags.join(' ')).toBe(`nothing to do: key ${p.key.prefix} of profile default ${because}\n`);
      expect(result.stdout).toBe('');
    }
    // The reason is the same words in the record a script reads.
    const json = await forever.run(['keys', 'rotate', '--yes', '--if-expiring-within', '14d', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ rotated: false, reason: 'never expires' });
    expect(await statusWith(mock, expiring.key.secret)).toBe(200);
    expect(await statusWith(mock, forever.key.secret)).toBe(200);
  });

  it('-q prints nothing when nothing was done (the documented cron line); -o json still prints the record', async () => {
    const p = await profile({ expiresAt: daysAhead(41), createdAt: daysAgo(20) });
    const cron = ['keys', 'rotate', '--yes', '-q', '--if-expiring-within', '14d', '--if-older-than', '90d'];
    const quiet = await p.run(cron);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe('');
    const json = await p.run([...cron, '-o', 'json']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({ rotated: false, oldPrefix: p.key.prefix });
  });
});

describe('keys revoke --due, nothing due', () => {
  it('says so in one line, and nothing with -q', async () => {
    const p = await profile({ expiresAt: null, createdAt: daysAgo(1) });
    const loud = await p.run(['keys', 'revoke', '--due', '--yes']);
    expect(loud.code, loud.stderr).toBe(0);
    expect(loud.stderr).toBe('nothing due for profile default: no pending revocations\n');
    const quiet = await p.run(['keys', 'revoke', '--due', '--yes', '-q']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe('');
  });
});

describe('keys audit -q', () => {
  it('keeps the findings on stdout and the exit code, and leaves out the summary line', async () => {
    const env = isolatedEnv(mock.env);
    const loud = await run(['keys', 'audit', '-o', 'json'], { env });
    expect(loud.code, loud.stderr).toBe(0);
    expect(loud.stderr).toMatch(/^Audited \d+ keys: \d+ with critical findings, \d+ with warnings\n$/);
    const quiet = await run(['keys', 'audit', '-o', 'json', '-q'], { env });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    // The same keys and findings (lastUsedAt moves: each run uses the admin key).
    const findings = (stdout: string) =>
      (JSON.parse(stdout) as Array<{ prefix: string; findings: string[] }>).map(({ prefix, findings }) => ({ prefix, findings }));
    expect(findings(quiet.stdout)).toEqual(findings(loud.stdout));
    // The admin key has api:admin, a warning: --fail-on still fails, with its error line alone.
    const failing = await run(['keys', 'audit', '-o', 'json', '-q', '--fail-on', 'warning'], { env });
    expect(failing.code).toBe(20);
    expect(failing.stderr).toMatch(/^error: \d+ keys? ha(s|ve) findings at or above warning \(--fail-on warning\)\nhint: .*\n$/);
  });
});
