// The single executable (issue 29): `npm run package`'s script builds it once for this file (into a
// temporary directory), then it is copied alone into an empty directory and run with a PATH that
// holds no `node`: its checksum, `version`, the mock it starts itself, a list against that mock
// (with the description cache), completion, `mock --detach`, SIGUSR1 ignored, and the keychain —
// through its embedded addon where a Secret Service exists, or one clear error where the addon
// cannot be loaded; `sync` into PostgreSQL (its driver is bundled), and DuckDB refused in one line
// without loading a module planted in a node_modules above the executable.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/spawn.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { createKey } from './credentials-support.js';
import { startPostgres } from '../helpers/postgres.js';

const hasKeyring = process.env.APPRAISAL_TEST_KEYRING === '1';
/** The addon race needs a second user to play the attacker (CI runs the suite as root). */
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const NAME = `appraisal-${process.platform}-${process.arch}`;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

let built: string;
let exe: string;
/** A directory on PATH with nothing in it: no node, no npm. */
let emptyPath: string;
let mock: MockServer;

/** The executable's environment: a private HOME, the empty PATH, nothing inherited but D-Bus. */
function env(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const home = tempDir('appraisal-sea-home-');
  return {
    HOME: home,
    PATH: emptyPath,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
    ...extra,
  };
}
// Only these variables: runCli would otherwise pass this process's environment (PATH with node).
const only = (vars: Record<string, string | undefined>) => ({
  ...Object.fromEntries(Object.keys(process.env).map((key) => [key, undefined])),
  ...vars,
});
const runExe = (args: string[], vars = env(), input?: string) =>
  runCli(args, { program: [exe], cwd: tempDir('appraisal-sea-cwd-'), env: only(vars), ...(input === undefined ? {} : { stdin: input }) });

/** `vars` with a profile whose key is in the keychain, so `auth status` loads the keychain's addon. */
function withKeychainProfile(vars: Record<string, string | undefined>): Record<string, string | undefined> {
  const dir = join(vars.XDG_CONFIG_HOME!, 'appraisal-cli');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const origin = 'https://127.0.0.1:9';
  const profile = { baseUrl: origin, environment: 'local', keyStorage: 'keychain', keyOrigin: origin };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  return vars;
}

beforeAll(async () => {
  built = tempDir('appraisal-sea-build-');
  const pack = spawnSync(process.execPath, [join(ROOT, 'scripts', 'package-sea.mjs'), '--out', built], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  expect(pack.status, pack.stderr).toBe(0);
  const alone = tempDir('appraisal-sea-alone-');
  exe = join(alone, NAME);
  copyFileSync(join(built, NAME), exe);
  chmodSync(exe, 0o755);
  emptyPath = tempDir('appraisal-sea-path-');
  mock = await startMock({ program: [exe], records: 5, env: only(env()) as Record<string, string> });
}, 240_000);
afterAll(async () => {
  await mock?.stop();
});

describe('the single executable', () => {
  it('is alone in its directory, and node is not on its PATH', () => {
    expect(readdirSync(join(exe, '..'))).toEqual([NAME]);
    const which = spawnSync('/bin/sh', ['-c', 'command -v node npm'], { env: { PATH: emptyPath } });
    expect(which.status).not.toBe(0);
  });

  it('has a checksum file beside it that matches, in the form sha256sum -c reads', () => {
    const digest = createHash('sha256')
      .update(readFileSync(join(built, NAME)))
      .digest('hex');
    expect(readFileSync(join(built, `${NAME}.sha256`), 'utf8')).toBe(`${digest}  ${NAME}\n`);
    const check = spawnSync('sha256sum', ['-c', `${NAME}.sha256`], { cwd: built, encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
  });

  it('prints its version; `version` and `--version --verbose` give every field', async () => {
    const short = await runExe(['--version']);
    expect(short.code, short.stderr).toBe(0);
    expect(short.stdout).toBe(`${pkg.version}\n`);
    const long = await runExe(['version']);
    expect(long.code, long.stderr).toBe(0);
    const fields = Object.fromEntries(
      long.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split(/:\s+/, 2) as [string, string]),
    );
    // The same build as dist/ (the executable is made from it): its commit and date, another install kind.
    const clone = await runCli(['version']);
    expect(clone.code, clone.stderr).toBe(0);
    const cloneFields = Object.fromEntries(
      clone.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split(/:\s+/, 2) as [string, string]),
    );
    expect(cloneFields.install).toBe('clone');
    expect(fields).toEqual({
      version: pkg.version,
      commit: cloneFields.commit,
      built: cloneFields.built,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      install: 'executable',
    });
    expect(fields.commit).toMatch(/^([0-9a-f]{40}(\+changes)?|unknown)$/);
    expect(fields.built).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const verbose = await runExe(['--version', '--verbose']);
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stdout).toBe(long.stdout);
  });

  it('runs the mock (started above by the executable) and lists from it, caching the description', async () => {
    const vars = env(mock.env);
    const list = await runExe(['props', 'list', '-o', 'json', '--max-items', '3'], vars);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(3);
    const cache = join(vars.XDG_CONFIG_HOME!, 'appraisal-cli', 'cache');
    expect(readdirSync(cache).some((file) => /^description-.*\.json$/.test(file))).toBe(true);
    // A second run answers from the cached description.
    const again = await runExe(['props', 'list', '-o', 'json', '--max-items', '1', '-v'], vars);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/GET \/api\/openapi\.json/);
  });

  it('uploads a file through its bundled multipart framing: the bytes the service stored are the file (3 MiB: one buffer read into again)', async () => {
    const vars = env(mock.env);
    const file = join(tempDir('appraisal-sea-upload-'), 'report.bin');
    const bytes = randomBytes(3 * 1024 * 1024 + 7);
    writeFileSync(file, bytes);
    const upload = await runExe(['files', 'upload', file, '-o', 'json'], vars);
    expect(upload.code, upload.stderr).toBe(0);
    // files upload exits 0 only when the service's size and sha256 match the file's; checked here too.
    expect(JSON.parse(upload.stdout)).toMatchObject({ size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  });

  it('prints shell completion and pre-rendered help', async () => {
    const completion = await runExe(['completion', 'bash']);
    expect(completion.code, completion.stderr).toBe(0);
    expect(completion.stdout).toContain('complete -F');
    const help = await runExe(['props', 'list', '--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: appraisal props list/);
  });

  it('starts the mock in the background with --detach (it restarts itself, not node)', async () => {
    const detached = await runExe(['mock', '--port', '0', '--http', '--detach']);
    expect(detached.code, detached.stderr).toBe(0);
    const pid = Number(/^APPRAISAL_MOCK_PID=(\d+)$/m.exec(detached.stdout)?.[1]);
    expect(pid).toBeGreaterThan(0);
    try {
      const baseUrl = /^APPRAISAL_BASE_URL=(.*)$/m.exec(detached.stdout)![1]!;
      const apiKey = /^APPRAISAL_API_KEY=(.*)$/m.exec(detached.stdout)![1]!;
      const list = await runExe(
        ['props', 'list', '-o', 'json', '--max-items', '1'],
        env({ APPRAISAL_BASE_URL: baseUrl, APPRAISAL_API_KEY: apiKey }),
      );
      expect(list.code, list.stderr).toBe(0);
    } finally {
      process.kill(pid, 'SIGTERM');
    }
  });

  it('ignores SIGUSR1 (no inspector), like the npm package', async () => {
    const child = spawn(exe, ['mock', '--port', '0', '--http'], {
      env: only(env()) as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await waitFor(() => stdout.includes('APPRAISAL_API_KEY='), 'the mock to listen');
      child.kill('SIGUSR1');
      const baseUrl = /^APPRAISAL_BASE_URL=(.*)$/m.exec(stdout)![1]!;
      const apiKey = /^APPRAISAL_API_KEY=(.*)$/m.exec(stdout)![1]!;
      // Still serving after the signal was delivered, and no inspector said it listens.
      const list = await runExe(
        ['props', 'list', '-o', 'json', '--max-items', '1'],
        env({ APPRAISAL_BASE_URL: baseUrl, APPRAISAL_API_KEY: apiKey }),
      );
      expect(list.code, list.stderr).toBe(0);
      expect(child.exitCode).toBeNull();
      expect(stderr).not.toMatch(/Debugger listening/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  describe.runIf(hasKeyring)(`the keychain${hasKeyring ? '' : ' [skipped: no Secret Service; `npm test` provides one]'}`, () => {
    it('logs in through its embedded addon, written once to a private directory of the user', async () => {
      const vars = env();
      const key = await createKey(mock, { name: 'executable', scopes: ['api:read'] });
      const login = await runExe(
        ['auth', 'login', '--with-key'],
        { ...vars, APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile },
        `${key.secret}\n`,
      );
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain('stored in the OS keychain');
      const status = await runExe(['auth', 'status', '-o', 'json'], vars);
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ source: 'keychain', keyPrefix: key.prefix });
      const native = join(vars.XDG_CACHE_HOME!, 'appraisal-cli', 'native');
      expect(statSync(native).mode & 0o777).toBe(0o700);
      const [addon, ...others] = readdirSync(native);
      expect(others).toEqual([]);
      expect(statSync(join(native, addon!)).mode & 0o777).toBe(0o600);
      // A changed copy is replaced, never loaded.
      writeFileSync(join(native, addon!), 'not the addon');
      const again = await runExe(['auth', 'status', '-o', 'json'], vars);
      expect(again.code, again.stderr).toBe(0);
      expect((await runExe(['auth', 'logout'], vars)).code).toBe(0);
    });

    it('refuses a cache path others can write, in one line naming the fallback, and writes nothing there', async () => {
      const shared = tempDir('appraisal-sea-shared-cache-');
      chmodSync(shared, 0o775);
      const status = await runExe(['auth', 'status'], withKeychainProfile(env({ XDG_CACHE_HOME: shared })));
      expect(status.stderr).toContain(
        `the keyring module did not load: refusing the cache ${shared} can be written by other users (mode 0775): ` +
          'set XDG_CACHE_HOME to a directory only you can write, or install the npm package)',
      );
      expect(status.stderr).not.toMatch(/^\s+at /m);
      expect(readdirSync(shared)).toEqual([]);
    });

    describe.runIf(asRoot)(`another user${asRoot ? '' : ' [skipped: needs root to run a second user]'}`, () => {
      it('never loads their file while they swap the cache directory between check and load (10 runs)', async () => {
        // A cache directory shared with another user: the first run made native/ there (ours, 0700) with
        // the addon; then the other user owns appraisal-cli/ (a shared cache, or one made before our
        // first run), and swaps native/ with their own directory holding their file under the addon's name.
        const base = tempDir('appraisal-sea-race-');
        chmodSync(base, 0o755);
        mkdirSync(join(base, 'cache'), { mode: 0o755 });
        const vars = withKeychainProfile(env({ XDG_CACHE_HOME: join(base, 'cache') }));
        const shared = join(base, 'cache', 'appraisal-cli');
        await runExe(['auth', 'status'], vars);
        const [addon] = readdirSync(join(shared, 'native'));
        expect(addon).toMatch(/^keyring-[0-9a-f]{16}\.node$/);
        const theirs = join(shared, 'theirs');
        mkdirSync(theirs, { mode: 0o755 });
        const planted = 'planted by another user';
        writeFileSync(join(theirs, addon!), planted);
        for (const path of [shared, theirs, join(theirs, addon!)]) chownSync(path, NOBODY, NOBODY);
        chmodSync(shared, 0o755);
        const swapper = join(base, 'swapper.py');
        copyFileSync(join(ROOT, 'test', 'hostile', 'exchange-swapper.py'), swapper);
        chmodSync(swapper, 0o644);
        const attacker = spawn(
          'setpriv',
          [
            `--reuid=${NOBODY}`,
            `--regid=${NOBODY}`,
            '--clear-groups',
            '/usr/bin/python3',
            swapper,
            shared,
            'native',
            'theirs',
            addon!,
            planted,
          ],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let said = '';
        attacker.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
        attacker.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
        const runs: string[] = [];
        try {
          // A whole line: the pipe may deliver a line in more than one chunk.
          await waitFor(() => said.includes('\n') || attacker.exitCode !== null, 'the other user to start swapping');
          expect(said).toBe('ready\n');
          for (let run = 0; run < 10; run += 1) runs.push((await runExe(['auth', 'status'], vars)).stderr);
          // Still swapping when the last run ended.
          expect(attacker.exitCode).toBeNull();
        } finally {
          attacker.kill('SIGKILL');
        }
        // Their file never reached the loader (it is not an ELF file: the loader would say so)...
        for (const stderr of runs) expect(stderr).not.toMatch(/invalid ELF header|file too short/);
        // ...because a cache path another user owns is refused, in one line naming the fallback.
        for (const stderr of runs) {
          expect(stderr).toContain(
            `the keyring module did not load: refusing the cache ${shared} is owned by another user (uid ${NOBODY}): ` +
              'set XDG_CACHE_HOME to a directory only you can write, or install the npm package)',
          );
        }
      });
    });

    it('where the addon cannot be written, login says so and names --insecure-storage and APPRAISAL_API_KEY', async () => {
      const blocked = join(tempDir('appraisal-sea-blocked-'), 'a-file');
      writeFileSync(blocked, '');
      const key = await createKey(mock);
      const login = await runExe(
        ['auth', 'login', '--with-key'],
        { ...env({ XDG_CACHE_HOME: blocked }), APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile },
        `${key.secret}\n`,
      );
      expect(login.code).toBe(2);
      expect(login.stderr).toMatch(
        /^error: could not store the key in the OS keychain; nothing was stored: the OS keychain is not available \(the keyring module did not load: .*\)$/m,
      );
      expect(login.stderr).toMatch(/^hint: .*APPRAISAL_API_KEY.*--insecure-storage/m);
      // One error line and its hint; no stack trace.
      expect(login.stderr.split('\n').filter((line) => /^(error|hint): /.test(line))).toHaveLength(2);
      expect(login.stderr).not.toMatch(/^\s+at /m);
      expect(login.stderr).not.toContain(key.secret);
    });
  });
});

describe('sync from the single executable', () => {
  it('fills PostgreSQL with its bundled driver', async () => {
    const cluster = await startPostgres();
    try {
      const run = await runExe(['sync', 'props', 'clients', '--to', cluster.url()], env(mock.env));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/^properties: 5 new, 0 changed, 0 unchanged, 0 gone \(full\)/m);
      expect(cluster.psql('SELECT count(*) FROM properties; SELECT count(*) FROM clients;')).toBe('5\n5');
    } finally {
      await cluster.stop();
    }
  }, 60_000);

  it('refuses DuckDB in one line and loads no module from a node_modules above it', async () => {
    // Anyone may write /tmp/node_modules: a require resolved beside an executable under /tmp would find it.
    const above = tempDir('appraisal-sea-planted-');
    const planted = join(above, 'node_modules', '@duckdb', 'node-api');
    mkdirSync(planted, { recursive: true });
    const marker = join(above, 'planted-code-ran');
    writeFileSync(join(planted, 'package.json'), JSON.stringify({ name: '@duckdb/node-api', main: 'index.js' }));
    writeFileSync(join(planted, 'index.js'), `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');`);
    mkdirSync(join(above, 'bin'));
    const beneath = join(above, 'bin', NAME);
    copyFileSync(exe, beneath);
    chmodSync(beneath, 0o755);
    const cwd = tempDir('appraisal-sea-cwd-');
    const run = await runCli(['sync', 'props', '--to', `duckdb:${join(cwd, 'x.duckdb')}`], {
      program: [beneath],
      cwd,
      env: only(env(mock.env)),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: cannot load DuckDB for .*x\.duckdb: Cannot find module '@duckdb\/node-api'/m);
    expect(run.stderr).toMatch(/^hint: .*install the package, or sync into postgres:\/\/…$/m);
    expect(run.stderr.split('\n').filter((line) => /^(error|hint): /.test(line))).toHaveLength(2);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    // `sql` the same way (a file there, so that it gets as far as loading DuckDB).
    writeFileSync(join(cwd, 'y.duckdb'), '');
    const query = await runCli(['sql', 'SELECT 1', '--to', 'duckdb:y.duckdb'], { program: [beneath], cwd, env: only(env(mock.env)) });
    expect(query.code).toBe(2);
    expect(query.stderr).toMatch(/^error: cannot load DuckDB for y\.duckdb: Cannot find module '@duckdb\/node-api'/m);
    expect(query.stderr).toMatch(/^hint: .*install the package, or query the database with the DuckDB shell$/m);
    expect(query.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(marker)).toBe(false);
  });
});
