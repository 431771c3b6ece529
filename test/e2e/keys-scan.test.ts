// `keys scan` against `appraisal mock`, in process: what it prints is true when it is read. With
// --revoke, a key it revoked is printed as revoked (not as the live key it found), still with exit
// 20; a revocation that is refused midway leaves each record as it then is. A --pattern match of
// another form is shown cut, never whole. The git history and the cannot-tell path are in
// key-lifecycle.test.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { createKey, revokeKey, type CreatedKey } from './credentials-support.js';
import { clearFaults, expectNoSecrets, queueFault, statusWith } from './keys-support.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ records: 1 });
});
afterAll(async () => {
  await mock?.stop();
});
beforeEach(async () => {
  await clearFaults(mock);
});

interface Row {
  status: string;
  prefix: string;
  file: string;
  line: number;
}

/** A home with `leaks/` holding one file per key, each key on line 2; the environment of the admin key. */
function leakedIn(keys: readonly CreatedKey[]) {
  const env = isolatedEnv(mock.env);
  const dir = join(env.HOME!, 'leaks');
  mkdirSync(dir);
  for (const [i, key] of keys.entries()) writeFileSync(join(dir, `${i}.env`), `# settings\nAPPRAISAL_API_KEY=${key.secret}\n`);
  return { env, dir };
}

const statusOf = (rows: Row[], key: CreatedKey) => rows.filter((row) => row.prefix === key.prefix).map((row) => row.status);

describe('keys scan --revoke', () => {
  it('prints the key it revoked as revoked, the others as they are, and still exits 20', async () => {
    const leaked = await createKey(mock, { name: 'leaked live' });
    const dead = await createKey(mock, { name: 'leaked dead' });
    await revokeKey(mock, dead.id);
    const { env, dir } = leakedIn([leaked, dead]);

    const result = await run(['keys', 'scan', dir, '--revoke', '--yes', '-o', 'json'], { env });
    expect(result.code, result.stderr).toBe(20);
    const rows = JSON.parse(result.stdout) as Row[];
    expect(statusOf(rows, leaked)).toEqual(['revoked']);
    expect(statusOf(rows, dead)).toEqual(['revoked']);
    expect(await statusWith(mock, leaked.secret)).toBe(401);
    expect(result.stderr).toContain(`Revoked key ${leaked.prefix} (found in `);
    expect(result.stderr).toMatch(new RegExp(`^error: 1 live key found: ${leaked.prefix}; revoked ${leaked.prefix}$`, 'm'));
    // Run again: what it printed the first time is what the service now says.
    const again = await run(['keys', 'scan', dir, '-o', 'json'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(rows);
    expectNoSecrets([leaked.secret, dead.secret], [result, again], []);
  });

  it('the key this command uses is not revoked, and is printed as live', async () => {
    const self = await createKey(mock, { name: 'scanner', scopes: ['keys:admin', 'api:read'] });
    const leaked = await createKey(mock, { name: 'leaked beside it' });
    const { env, dir } = leakedIn([self, leaked]);
    const result = await run(['keys', 'scan', dir, '--revoke', '--yes', '-o', 'json'], {
      env: { ...env, APPRAISAL_API_KEY: self.secret },
    });
    expect(result.code, result.stderr).toBe(20);
    const rows = JSON.parse(result.stdout) as Row[];
    expect(statusOf(rows, self)).toEqual(['live']);
    expect(statusOf(rows, leaked)).toEqual(['revoked']);
    expect(await statusWith(mock, self.secret)).toBe(200);
  });

  it('a revocation refused midway: each record as it then is, the service error as the exit', async () => {
    const first = await createKey(mock, { name: 'revoked first' });
    const second = await createKey(mock, { name: 'refused second' });
    const { env, dir } = leakedIn([first, second]);
    // The first DELETE goes through, the second is refused (403 is not retried).
    await queueFault(mock, { method: 'DELETE', path: '/api/keys/*', status: 403, skip: 1, count: 1 });
    const result = await run(['keys', 'scan', dir, '--revoke', '--yes', '-o', 'json'], { env });
    expect(result.code).toBe(5);
    const rows = JSON.parse(result.stdout) as Row[];
    expect(statusOf(rows, first)).toEqual(['revoked']);
    expect(statusOf(rows, second)).toEqual(['live']);
    expect(await statusWith(mock, first.secret)).toBe(401);
    expect(await statusWith(mock, second.secret)).toBe(200);
  });

  it('not confirmed (no --yes, no terminal): nothing revoked, the keys printed as live, exit 2', async () => {
    const leaked = await createKey(mock, { name: 'not confirmed' });
    const { env, dir } = leakedIn([leaked]);
    const result = await run(['keys', 'scan', dir, '--revoke', '-o', 'json'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/confirmation needed; pass --yes/);
    expect(statusOf(JSON.parse(result.stdout) as Row[], leaked)).toEqual(['live']);
    expect(await statusWith(mock, leaked.secret)).toBe(200);
  });
});

describe('keys scan --pattern', () => {
  it('shows a match that is not of our format cut to its beginning and …, never whole (it may be a secret)', async () => {
    const env = isolatedEnv(mock.env);
    const dir = join(env.HOME!, 'passwords');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'db password: hunter2\nwifi: hunter7\nlong: hunter123456789012\n');
    const result = await run(['keys', 'scan', dir, '--pattern', 'hunter[0-9]+', '-o', 'json'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { status: 'unknown to the service', prefix: '…', file: expect.stringMatching(/notes\.txt$/), line: 1, commit: null },
      { status: 'unknown to the service', prefix: '…', file: expect.stringMatching(/notes\.txt$/), line: 2, commit: null },
      { status: 'unknown to the service', prefix: 'hunt…', file: expect.stringMatching(/notes\.txt$/), line: 3, commit: null },
    ]);
    for (const secret of ['hunter2', 'hunter7', 'hunter1']) {
      expect(result.stdout).not.toContain(secret);
      expect(result.stderr).not.toContain(secret);
    }
  });
});
