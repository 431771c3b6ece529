// The npm package as a user gets it (issue 29): `npm pack` of this checkout, `npm install -g` of the
// tarball into a temporary prefix from the local file (the one runtime dependency from npm's cache,
// --prefer-offline), then the installed `appraisal` run from another directory: the mock it starts,
// a list against that mock, completion, `version`, the keychain where a Secret Service exists. The
// tarball is packed and installed once for the file.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../src/boot/bundle-loader.js';
import { isolatedEnv, ROOT, runCli } from '../helpers/spawn.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';
import { createKey } from './credentials-support.js';

const hasKeyring = process.env.APPRAISAL_TEST_KEYRING === '1';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** npm with this process's environment minus what `npm test` itself set (npm_config_*, lifecycle). */
function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  return spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
}

let work: string;
let packed: string[];
let mainFile: string;
let prefix: string;
let installed: string[];
let mock: MockServer;

beforeAll(async () => {
  work = tempDir('appraisal-npm-');
  // What prepack does (a clean build), but only when stale: `npm test` has just built.
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale', '--clean'], { encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
  mainFile = readFileSync(join(ROOT, 'dist', '.build-stamp'), 'utf8').split('\n')[1]!;
  const pack = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
  expect(pack.status, pack.stderr).toBe(0);
  const [report] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = report!.files.map((file) => file.path).sort();
  prefix = join(work, 'prefix');
  const install = npm(
    ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, report!.filename)],
    work,
  );
  expect(install.status, install.stderr).toBe(0);
  installed = [join(prefix, 'bin', 'appraisal')];
  mock = await startMock({ program: installed, records: 5 });
}, 180_000);
afterAll(async () => {
  await mock?.stop();
});

/** The installed CLI, run from a directory that is neither the checkout nor the prefix. */
const runInstalled = (args: string[], env: Record<string, string | undefined> = isolatedEnv(), input?: string) =>
  runCli(args, { program: installed, cwd: tempDir('appraisal-cwd-'), env, ...(input === undefined ? {} : { stdin: input }) });

describe('the npm package', () => {
  it('packs exactly the launcher, the bundles, the code cache, the vendor bundles, openapi.json and the docs', () => {
    expect(packed).toEqual(
      [
        'CHANGELOG.md',
        'LICENSE',
        'README.md',
        'bin/appraisal.js',
        'bin/package.json',
        'dist/cli.cjs',
        'dist/help.json',
        `dist/${mainFile}`,
        `dist/${mainFile}.cache`,
        // Every vendor bundle the command bundle requires (each once), and the code caches of ajv's and DuckDB's.
        ...new Set(
          [...readFileSync(join(ROOT, 'dist', mainFile), 'latin1').matchAll(/require\("\.\/(vendor\/[\w-]+\.cjs)"\)/g)].map(
            (match) => `dist/${match[1]}`,
          ),
        ),
        'dist/vendor/ajv.cjs.cache',
        'dist/vendor/duckdb.cjs.cache',
        'openapi.json',
        'package.json',
      ].sort(),
    );
  });

  it('installs a handful of packages: itself, the keychain binding and DuckDB', () => {
    // Every package folder under the prefix, nested node_modules included (`@scope/name` as one).
    const packagesUnder = (nodeModules: string): string[] =>
      readdirSync(nodeModules)
        .filter((name) => !name.startsWith('.'))
        .flatMap((name) => (name.startsWith('@') ? readdirSync(join(nodeModules, name)).map((sub) => `${name}/${sub}`) : [name]))
        .flatMap((name) => {
          const nested = join(nodeModules, name, 'node_modules');
          return [name, ...(existsSync(nested) ? packagesUnder(nested) : [])];
        });
    const names = packagesUnder(join(prefix, 'lib', 'node_modules'));
    expect(names).toContain('appraisal-cli');
    expect(names).toContain('@napi-rs/keyring');
    expect(names).toContain('@duckdb/node-api');
    // The keyring's and DuckDB's platform binding(s) (DuckDB picks its glibc/musl binding with detect-libc);
    // nothing the bundles already hold (commander, undici, zod…).
    const native = (name: string): boolean =>
      name.startsWith('@napi-rs/keyring') || name.startsWith('@duckdb/node-') || name === 'detect-libc';
    expect(names.filter((name) => !native(name) && name !== 'appraisal-cli')).toEqual([]);
    expect(names.length).toBeLessThanOrEqual(8);
  });

  it('its code cache is accepted by V8 at the install location', () => {
    const loaded = loadBundle(pathToFileURL(join(prefix, 'lib', 'node_modules', 'appraisal-cli', 'dist', mainFile)));
    expect(loaded.cacheRejected).toBe(false);
  });

  it('prints its version, and `version` says it is the npm package', async () => {
    const short = await runInstalled(['--version']);
    expect(short.code, short.stderr).toBe(0);
    expect(short.stdout).toBe(`${pkg.version}\n`);
    const long = await runInstalled(['version']);
    expect(long.code, long.stderr).toBe(0);
    expect(long.stdout).toMatch(new RegExp(`^version: +${pkg.version.replaceAll('.', '\\.')}\n`));
    expect(long.stdout).toMatch(/^install: +npm package$/m);
  });

  it('runs the mock (started above from the installed CLI) and lists from it', async () => {
    const list = await runInstalled(['props', 'list', '-o', 'json', '--max-items', '3'], isolatedEnv(mock.env));
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(3);
  });

  it('syncs into DuckDB, its native binding resolved from the installed package', async () => {
    const sync = await runInstalled(['sync', 'props', '--to', 'duckdb:org.duckdb', '-o', 'json'], isolatedEnv(mock.env));
    expect(sync.code, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout).families.properties).toMatchObject({ new: 5, mode: 'full' });
  });

  it('writes Parquet through the installed DuckDB (-o parquet, loaded only then)', async () => {
    const out = join(tempDir('appraisal-parquet-'), 'props.parquet');
    const list = await runInstalled(['props', 'list', '--out', out], isolatedEnv(mock.env));
    expect(list.code, list.stderr).toBe(0);
    const bytes = readFileSync(out);
    // A Parquet file begins and ends with its magic number.
    expect([bytes.subarray(0, 4).toString(), bytes.subarray(-4).toString()]).toEqual(['PAR1', 'PAR1']);
  });

  it('prints shell completion', async () => {
    const completion = await runInstalled(['completion', 'bash']);
    expect(completion.code, completion.stderr).toBe(0);
    expect(completion.stdout).toContain('complete -F');
  });

  it.runIf(hasKeyring)(
    `logs in into the OS keychain and uses the stored key${hasKeyring ? '' : ' [skipped: no Secret Service; `npm test` provides one]'}`,
    async () => {
      const env = isolatedEnv();
      const key = await createKey(mock, { name: 'installed', scopes: ['api:read'] });
      const login = await runInstalled(
        ['auth', 'login', '--with-key'],
        { ...env, APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile },
        `${key.secret}\n`,
      );
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain('stored in the OS keychain');
      const status = await runInstalled(['auth', 'status', '-o', 'json'], env);
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ source: 'keychain', keyPrefix: key.prefix });
      expect((await runInstalled(['auth', 'logout'], env)).code).toBe(0);
    },
  );
});
