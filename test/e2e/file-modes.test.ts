// Under a permissive umask (000) the files that hold configuration or a key are still created 0600,
// and their directories 0700: the config dir, config.json, the --insecure-storage key files, the
// OpenAPI cache — every file the CLI leaves in its config dir. In process: this test file's process
// (its own vitest worker) runs under umask 000 while the commands run.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type RunResult } from '../helpers/run.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { tempDir } from '../helpers/temp.js';
import { mockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';

let mock: MockServer;
let umask: number;

beforeAll(async () => {
  mock = await startMock({ records: 5 });
  umask = process.umask(0o000);
});

afterAll(async () => {
  if (umask !== undefined) process.umask(umask);
  await mock?.stop();
});

/** `appraisal ARGS` in this process, under its umask 000. */
function runUnderUmask000(args: string[], env: Record<string, string | undefined>, input?: string): Promise<RunResult> {
  return run(args, { env, stdin: input ?? '' });
}

/** Every file and directory under `root` with its permission bits, e.g. `config.json 600`. */
function modes(root: string): Record<string, string> {
  const found: Record<string, string> = { '.': (statSync(root).mode & 0o777).toString(8) };
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = `${prefix}${entry.name}`;
      found[name] = (statSync(path).mode & 0o777).toString(8);
      if (entry.isDirectory()) walk(path, `${name}/`);
    }
  };
  walk(root, '');
  return found;
}

function expectPrivate(root: string): Record<string, string> {
  const found = modes(root);
  for (const [name, mode] of Object.entries(found)) {
    const isDir = statSync(join(root, name)).isDirectory();
    expect(`${name} ${mode}`).toBe(`${name} ${isDir ? '700' : '600'}`);
  }
  return found;
}

function expectOk(result: RunResult): void {
  expect(exitProblems(result), result.stderr).toEqual([]);
  expect(result.code, result.stderr).toBe(0);
}

describe('file modes under umask 000', () => {
  it('the umask really is 000 here (a file made without a mode is 0666)', () => {
    const dir = tempDir('appraisal-umask-');
    writeFileSync(join(dir, 'probe'), '');
    expect((statSync(join(dir, 'probe')).mode & 0o777).toString(8)).toBe('666');
  });

  it('auth login --insecure-storage with APPRAISAL_CONFIG_DIR: dir 0700, config.json and the key file 0600', async () => {
    const home = tempDir('appraisal-modes-home-');
    const configDir = join(home, 'nested', 'config');
    const env = { HOME: home, APPRAISAL_CONFIG_DIR: configDir, APPRAISAL_CA_FILE: mock.caFile };
    expectOk(
      await runUnderUmask000(['auth', 'login', '--with-key', '--insecure-storage', '--base-url', mock.baseUrl], env, `${mock.adminKey}\n`),
    );
    const found = expectPrivate(configDir);
    expect(found).toMatchObject({ '.': '700', 'config.json': '600' });
    expect(Object.entries(found).some(([name, mode]) => name.startsWith('credentials/') && name.endsWith('.key') && mode === '600')).toBe(
      true,
    );
  });

  it('every config-writing command (a second profile, profiles use, the OpenAPI cache, logout) keeps them private', async () => {
    const home = tempDir('appraisal-modes-home-');
    const configDir = join(home, 'config');
    const env = { HOME: home, APPRAISAL_CONFIG_DIR: configDir, APPRAISAL_CA_FILE: mock.caFile };
    const login = (profile: string) =>
      runUnderUmask000(
        ['auth', 'login', '--profile', profile, '--with-key', '--insecure-storage', '--base-url', mock.baseUrl],
        env,
        `${mock.adminKey}\n`,
      );
    expectOk(await login('default'));
    expectOk(await login('staging'));
    expectOk(await runUnderUmask000(['profiles', 'use', 'staging'], env));
    expectOk(await runUnderUmask000(['api', 'GET', '/api/properties', '-f', 'limit=1'], env));
    expectOk(await runUnderUmask000(['auth', 'logout', '--profile', 'default'], env));
    const found = expectPrivate(configDir);
    expect(Object.keys(found).filter((name) => name.endsWith('.key'))).toHaveLength(1);
  });

  it('keys rotate --audit-log: the audit log is 0600, the rotated key file still 0600', async () => {
    const admin = mockAdmin(mock);
    try {
      const key = await admin.createKey(['api:admin'], 'file modes');
      const home = tempDir('appraisal-modes-home-');
      const configDir = join(home, 'config');
      const env = { HOME: home, APPRAISAL_CONFIG_DIR: configDir, APPRAISAL_CA_FILE: mock.caFile };
      expectOk(
        await runUnderUmask000(['auth', 'login', '--with-key', '--insecure-storage', '--base-url', mock.baseUrl], env, `${key.secret}\n`),
      );
      const audit = join(home, 'logs', 'rotations.jsonl');
      mkdirSync(join(home, 'logs'));
      expectOk(await runUnderUmask000(['keys', 'rotate', '--yes', '--audit-log', audit], env));
      expect((statSync(audit).mode & 0o777).toString(8)).toBe('600');
      expectPrivate(configDir);
    } finally {
      await admin.close();
    }
  });

  it('the default config dir under XDG_CONFIG_HOME (created by the CLI) is 0700 too', async () => {
    const home = tempDir('appraisal-modes-home-');
    const xdg = join(home, 'xdg');
    const env = { HOME: home, XDG_CONFIG_HOME: xdg, APPRAISAL_CA_FILE: mock.caFile };
    expectOk(
      await runUnderUmask000(['auth', 'login', '--with-key', '--insecure-storage', '--base-url', mock.baseUrl], env, `${mock.adminKey}\n`),
    );
    const [dir] = readdirSync(xdg);
    expect(dir).toBeDefined();
    expectPrivate(join(xdg, dir!));
  });

  it('the same under HOME with neither variable set', async () => {
    const home = tempDir('appraisal-modes-home-');
    mkdirSync(join(home, '.config'));
    const env = { HOME: home, XDG_CONFIG_HOME: undefined, APPRAISAL_CA_FILE: mock.caFile };
    expectOk(
      await runUnderUmask000(['auth', 'login', '--with-key', '--insecure-storage', '--base-url', mock.baseUrl], env, `${mock.adminKey}\n`),
    );
    const [dir] = readdirSync(join(home, '.config'));
    expect(dir).toBeDefined();
    expectPrivate(join(home, '.config', dir!));
  });
});
