// Issue 26 item 19: discovering the service description never blocks the user's command. Against
// the hostile test server (test/hostile), /api/openapi.json answers 5xx, 401, 403, a redirect
// elsewhere, an endless body, a malformed one, or nothing in time: `props list` still sends its own
// request and prints the record, after one sanitised warning line that names the command; then the
// last good copy, else the bundled model. `--verbose` says which description was used; `spec sync`
// (an explicit request) still fails; smoke fails its spec check and goes on (against the mock).
// Also issue 25 §5: an unreachable service and `--timeout 0.001` are reported in words a person reads.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { run as runCli } from '../helpers/run.js';
import { adminOf } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { ALL_CONTROL, endlessJson, json, page, RAW_CONTROL, text } from '../hostile/answers.js';
import { startHostile, type HostileServer, type Route } from '../hostile/server.js';

const KEY = 'apk_Discovr1_DiscoveryS3cretDiscoveryS3cret4';
const RECORD = { id: '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10', name: 'Harbor View' };
const BUNDLED = "the CLI's own model \\(bundled openapi\\.json\\)";
const WARNING = (using: string) =>
  new RegExp(`^warning: while reading the service description for \`appraisal props list\`: [^\\n]+; going on with ${using}\\n$`);

let server: HostileServer;

/** A config dir of its own (so its own description cache), against the hostile server. */
function client(extra: Record<string, string> = {}) {
  const env = isolatedEnv({ APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY, ...extra });
  return (args: string[], more: Record<string, string> = {}) => runCli([...args, '--retries', '0'], { env: { ...env, ...more } });
}

const dataAsked = () => server.requests.filter((request) => request.path.startsWith('/api/properties')).length;

beforeAll(async () => {
  server = await startHostile();
  server.on('GET', '/api/properties', page([RECORD]));
});
afterAll(async () => {
  await server.close();
});

const redirectElsewhere: Route = (_req, res) => {
  res.writeHead(302, { location: 'https://descriptions.example.invalid/openapi.json' });
  res.end();
};
/** Never answers: the description's own time bound ends the wait. */
const silent: Route = () => {};

describe('discovery fails: the command still runs, with the bundled model', () => {
  it.each<[string, Route, string[]]>([
    ['500 with control sequences in its message', json(500, { error: { code: 'DOWN', message: `down ${ALL_CONTROL}\nsecond line` } }), []],
    ['401', json(401, { error: { code: 'UNAUTHORIZED', message: 'no' } }), []],
    ['403', json(403, { error: { code: 'FORBIDDEN', message: 'no' } }), []],
    ['a redirect elsewhere', redirectElsewhere, []],
    ['an endless body (over the description bound)', endlessJson('{"openapi":"3.1.0","x":"', 'aaaaaaaa'), []],
    ['nothing in time', silent, ['--timeout', '1.5']],
  ])('%s', async (_name, route, extra) => {
    server.on('GET', '/api/openapi.json', route);
    const before = dataAsked();
    const result = await client()(['props', 'list', '-o', 'ndjson', ...extra]);
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject(RECORD);
    expect(dataAsked()).toBe(before + 1);
    expect(result.stderr).toMatch(WARNING(BUNDLED));
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });

  it('a malformed JSON body: one warning saying what came, then the bundled model', async () => {
    server.on('GET', '/api/openapi.json', text(200, '{"openapi": "3.1.0", "paths": {', { 'content-type': 'application/json' }));
    const result = await client()(['props', 'list', '-o', 'ndjson']);
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject(RECORD);
    expect(result.stderr).toMatch(/^warning: [^\n]*not (?:JSON|a JSON OpenAPI document)[^\n]*bundled openapi\.json\)\n$/);
  });

  it('the last good copy when there is one; --verbose says which description was used', async () => {
    server.on('GET', '/api/openapi.json', json(200, JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8'))));
    const cli = client({ APPRAISAL_SPEC_MAX_AGE: '0' });
    const synced = await cli(['spec', 'sync', '-o', 'json']);
    expect(synced.code, synced.stderr).toBe(0);
    const { fetchedAt } = JSON.parse(synced.stdout) as { fetchedAt: string };
    server.on('GET', '/api/openapi.json', json(503, { error: { code: 'DOWN', message: 'maintenance' } }));
    const down = await cli(['props', 'list', '-o', 'ndjson']);
    expect(down.code, down.stderr).toBe(0);
    expect(JSON.parse(down.stdout)).toMatchObject(RECORD);
    expect(down.stderr).toMatch(WARNING(`the copy of ${fetchedAt.replace(/[.]/g, '\\.')}`));
    const verbose = await cli(['props', 'list', '-o', 'ndjson', '--verbose']);
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stderr).toContain(`service description: ${server.url}/api/openapi.json (cached copy of ${fetchedAt})`);
  });

  it('--verbose names the bundled model when that is what was used', async () => {
    server.on('GET', '/api/openapi.json', json(500, { error: { code: 'DOWN', message: 'down' } }));
    const result = await client()(['props', 'list', '-o', 'ndjson', '--verbose']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("service description: the CLI's own model (bundled openapi.json)\n");
  });

  it('spec sync, an explicit request, fails with the error', async () => {
    server.on('GET', '/api/openapi.json', json(500, { error: { code: 'DOWN', message: 'down' } }));
    const result = await client()(['spec', 'sync']);
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^error: .*500/m);
  });
});

describe('issue 25 §5: failures in words a person reads', () => {
  it('an unreachable service: the warning says "while reading the service description" and names the command', async () => {
    const closed = await startHostile();
    const url = closed.url;
    await closed.close();
    const result = await runCli(['props', 'list', '--retries', '0'], {
      env: isolatedEnv({ APPRAISAL_BASE_URL: url, APPRAISAL_API_KEY: KEY }),
    });
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^warning: while reading the service description for `appraisal props list`: /m);
    expect(result.stderr).not.toMatch(/^error: GET \/api\/openapi\.json/m);
    // The work went on with the bundled description and failed on its own request, naming the command.
    expect(result.stderr).toMatch(/^error: `appraisal props list`: GET \/api\/properties\?page=1: cannot connect to /m);
  });

  it('--timeout 0.001 says 1ms, not 0s', async () => {
    server.on('GET', '/api/openapi.json', silent);
    server.on('GET', '/api/properties', silent);
    try {
      const result = await client()(['props', 'list', '--timeout', '0.001']);
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).toMatch(/^error: `appraisal props list`: GET \/api\/properties[^\n]*: timed out after 1ms/m);
      expect(result.stderr).not.toMatch(/after 0s/);
    } finally {
      server.on('GET', '/api/properties', page([RECORD]));
    }
  });
});

describe('smoke', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock({ records: 10, seed: 3 });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  // A 5xx there fails the reachable check (the service is not healthy); a 403 passes it (the service
  // answered), and then the description cannot be read: the spec check fails, the others run.
  it('a failed discovery fails the spec check; the other checks run', async () => {
    const env = isolatedEnv({ ...mock.env });
    const dir = env.APPRAISAL_CONFIG_DIR!;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ activeProfile: 'ci', profiles: { ci: { baseUrl: mock.baseUrl, environment: 'staging' } } }),
      { mode: 0o600 },
    );
    await adminOf(mock).queueFault({ path: '/api/openapi.json', status: 403, count: 5 });
    const result = await runCli(['smoke', '-o', 'json', '--retries', '0'], { env });
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code).not.toBe(0);
    const report = JSON.parse(result.stdout) as { checks: Array<{ name: string; status: string; detail: string }> };
    const spec = report.checks.find((check) => check.name === 'spec check');
    expect(spec?.status, JSON.stringify(report.checks)).toBe('fail');
    expect(spec?.detail).toMatch(/403/);
    expect(report.checks.find((check) => check.name === 'reachable')?.status).toBe('pass');
    const others = report.checks.filter((check) => check.name !== 'spec check');
    expect(others.filter((check) => check.status === 'pass').length).toBeGreaterThan(3);
    expect(report.checks.find((check) => check.name === 'list properties')?.status).toBe('pass');
  });
});
