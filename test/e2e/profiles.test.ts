// profiles list / use / remove with the built binary (insecure storage, so no keychain is needed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { createKey } from './credentials-support.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ records: 5 });
});
afterAll(async () => {
  await mock?.stop();
});

describe('profiles', () => {
  it('list, use and remove', async () => {
    const env = isolatedEnv();
    const configDir = env.APPRAISAL_CONFIG_DIR!;
    const empty = await run(['profiles', 'list', '-o', 'json'], { env });
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([]);

    const keyA = await createKey(mock, { name: 'a' });
    const keyB = await createKey(mock, { name: 'b' });
    const target = { APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile };
    for (const [profile, key, environment] of [
      ['first', keyA, 'development'],
      ['second', keyB, 'staging'],
    ] as const) {
      const login = await run(['auth', 'login', '-p', profile, '--with-key', '--insecure-storage', '--environment', environment], {
        env: { ...env, ...target },
        stdin: key.secret,
      });
      expect(login.code, login.stderr).toBe(0);
    }

    const list = await run(['profiles', 'list', '-o', 'json'], { env });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({
        name: 'first',
        active: true,
        environment: 'development',
        keyPrefix: keyA.prefix,
        keyStorage: 'insecure-file',
      }),
      expect.objectContaining({ name: 'second', active: false, environment: 'staging', keyPrefix: keyB.prefix }),
    ]);
    expect(list.stdout).not.toContain(keyA.secret);

    const table = await run(['profiles', 'list', '-o', 'table'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('second');
    expect(table.stdout).toContain(keyB.prefix);

    expect((await run(['profiles', 'use', 'nope'], { env })).code).toBe(2);
    const use = await run(['profiles', 'use', 'second'], { env });
    expect(use.code).toBe(0);
    const status = await run(['auth', 'status', '-o', 'json'], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'second', keyName: 'b', environment: 'staging' });

    const refused = await run(['profiles', 'remove', 'second'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    const removed = await run(['profiles', 'remove', 'second', '--yes'], { env });
    expect(removed.code, removed.stderr).toBe(0);
    // Removing the profile does not revoke its key: it says so, and how.
    expect(removed.stderr).toContain(
      `note: the key ${keyB.prefix} itself still works on the service until it is revoked (appraisal keys revoke ${keyB.prefix} --yes`,
    );
    expect(existsSync(join(configDir, 'credentials', 'second.key'))).toBe(false);
    expect(existsSync(join(configDir, 'credentials', 'first.key'))).toBe(true);
    const left = JSON.parse((await run(['profiles', 'list', '-o', 'json'], { env })).stdout) as Array<{ name: string }>;
    expect(left.map((p) => p.name)).toEqual(['first']);
    // The active profile is gone, `first` is still there: status says none is active and how to choose.
    const none = await run(['auth', 'status'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'error: no profile is active; the profiles set up are: first\n' +
        'hint: choose one with `appraisal profiles use first`, or name it for one command with --profile NAME\n',
    );
    // Any command says the same: the session is where it is found out.
    const listed = await run(['props', 'list'], { env });
    expect(listed.code).toBe(2);
    expect(listed.stderr).toBe(none.stderr);
    expect((await run(['profiles', 'use', 'first'], { env })).code).toBe(0);
    const chosen = await run(['auth', 'status', '-o', 'json'], { env });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(JSON.parse(chosen.stdout)).toMatchObject({ profile: 'first', keyName: 'a' });
  });

  it('a production profile gets a banner with profile and key prefix before a destructive action', async () => {
    const env = isolatedEnv();
    const key = await createKey(mock);
    const login = await run(['auth', 'login', '-p', 'prod', '--with-key', '--insecure-storage', '--environment', 'production'], {
      env: { ...env, APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile },
      stdin: key.secret,
    });
    expect(login.code, login.stderr).toBe(0);
    const result = await run(['profiles', 'remove', 'prod'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^!! PRODUCTION: profile prod at ${mock.baseUrl}, key ${key.prefix}…`, 'm'));
  });
});
