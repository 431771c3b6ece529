// main() run in process by test/helpers/run.ts: what every in-process command test relies on. It
// returns the exit code (never exits), writes only to the streams it is given, reads only the
// environment it is given, and runs again in the same process with nothing left over from before.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { run } from '../helpers/run.js';
import { pagesBy } from '../hostile/answers.js';
import { startHostile, type HostileServer } from '../hostile/server.js';

let mock: MockServer;

beforeAll(async () => {
  mock = await startMock({ records: 5 });
});

afterAll(async () => {
  await mock?.stop();
});

describe('main() in process', () => {
  it('answers --version and --help on the streams it was given, with exit 0', async () => {
    const version = await run(['--version']);
    expect(version).toMatchObject({ code: 0, stderr: '' });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const help = await run(['props', 'list', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: appraisal props list');
  });

  it('reports a bad flag as one error line and exit 2', async () => {
    const result = await run(['props', 'list', '--no-such-flag']);
    expect(result.code).toBe(2);
    expect(exitProblems(result)).toEqual([]);
    expect(result.stderr).toMatch(/^error: unknown option '--no-such-flag'/m);
  });

  it('suggests a shared option its help folds into one line, as it does a listed one', async () => {
    const folded = await run(['auth', 'status', '--profle', 'staging']);
    expect(folded.code).toBe(2);
    expect(folded.stderr).toMatch(/^error: unknown option '--profle' \(Did you mean --profile\?\)$/m);
    expect((await run(['props', 'list', '--base-ur', 'x'])).stderr).toMatch(/\(Did you mean --base-url\?\)$/m);
    // Not one the command does not take: `profiles list` takes no --profile.
    expect((await run(['profiles', 'list', '--profle', 'x'])).stderr).toMatch(/^error: unknown option '--profle'$/m);
  });

  it('`NOUN help VERB` is `help NOUN VERB`: the same help, and a verb that is not there is exit 2', async () => {
    const under = await run(['auth', 'help', 'login']);
    expect(under.code, under.stderr).toBe(0);
    expect(under).toEqual(await run(['help', 'auth', 'login']));
    expect(under.stdout).toContain('Usage: appraisal auth login');
    const typo = await run(['auth', 'help', 'logn']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^error: no help topic or command "auth logn"$/m);
    expect((await run(['auth', 'help'])).code).toBe(0);
  });

  it('runs a command against the mock, twice in a row with the same answer (nothing left over)', async () => {
    const env = isolatedEnv(mock.env);
    const first = await run(['props', 'list', '-o', 'json'], { env });
    const second = await run(['props', 'list', '-o', 'json'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toHaveLength(5);
    expect(second).toEqual(first);
  });

  it('reads only the environment it is given, never process.env', async () => {
    process.env.APPRAISAL_BASE_URL = 'http://127.0.0.1:1';
    try {
      const result = await run(['props', 'list', '-o', 'json'], { env: isolatedEnv(mock.env) });
      expect(result.code, result.stderr).toBe(0);
    } finally {
      delete process.env.APPRAISAL_BASE_URL;
    }
  });

  it('reads stdin it is given, and a table fits the terminal width it is given', async () => {
    const env = isolatedEnv(mock.env);
    const created = await run(['props', 'create', '--data', '-', '-o', 'json'], {
      env,
      stdin: JSON.stringify({
        name: 'Runner Point',
        propertyType: 'office',
        address: { line1: '1 Runner Way', city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
      }),
    });
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ address: { line1: '1 Runner Way' } });
    const narrow = await run(['props', 'list'], { env, tty: true, columns: 40 });
    expect(narrow.code, narrow.stderr).toBe(0);
    const lines = stripVTControlCharacters(narrow.stdout).trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
  });

  it('an aborted signal ends the command as Ctrl-C does (exit 130)', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run(['props', 'list'], { env: isolatedEnv(mock.env), signal: controller.signal });
    expect(result.code).toBe(130);
    expect(exitProblems(result, { interrupted: true })).toEqual([]);
  });
});

describe('what the process entry hands main()', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostile();
  });
  afterAll(async () => {
    await server?.close();
  });

  const record = (id: string) => ({ id, name: id });
  const env = () => isolatedEnv({ APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: 'apk_Heap0001_HeapS3cretHeapS3cretHeapS3cret42' });

  it('a read of 50,000 records or more asks for a small heap once, through favourSmallHeap (V8 flags are set by the entry alone)', async () => {
    // The first page announces 60,000 records; page 2 comes back empty, which ends the read (exit 9).
    server.on(
      'GET',
      '/api/properties',
      pagesBy(
        () => ({ limit: 1000, total: 60_000, pages: 60 }),
        (page) => (page === 1 ? [record('first')] : []),
      ),
    );
    const favourSmallHeap = vi.fn();
    const result = await run(['props', 'list', '-o', 'ndjson', '--concurrency', '1', '--retries', '0'], { env: env(), favourSmallHeap });
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toContain('page 2 of 60 is empty');
    expect(favourSmallHeap).toHaveBeenCalledTimes(1);
  });

  it('a short read keeps V8 as it is', async () => {
    server.on(
      'GET',
      '/api/properties',
      pagesBy(
        () => ({ limit: 25, total: 1, pages: 1 }),
        () => [record('only')],
      ),
    );
    const favourSmallHeap = vi.fn();
    const result = await run(['props', 'list', '-o', 'ndjson', '--retries', '0'], { env: env(), favourSmallHeap });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(record('only'));
    expect(favourSmallHeap).not.toHaveBeenCalled();
  });
});
