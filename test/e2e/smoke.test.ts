// `appraisal smoke` with the built binary against the bundled mock.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { adminOf } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { createKey } from './credentials-support.js';
import { readValidJUnit } from '../helpers/junit.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ records: 30, seed: 11 });
});
afterAll(async () => {
  await mock?.stop();
});

/** The mock's test-control routes (outside the published contract), as its admin. */
const mockAdmin = (method: string, path: string, body?: unknown) => adminOf(mock).call(method, path, body);

/** An isolated config dir holding one profile for the mock's origin, with the given environment. */
function withProfile(environment: string, extra: Record<string, string | undefined> = {}) {
  const env = isolatedEnv({ ...mock.env, ...extra });
  const dir = env.APPRAISAL_CONFIG_DIR!;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ activeProfile: 'ci', profiles: { ci: { baseUrl: mock.baseUrl, environment } } }),
    { mode: 0o600 },
  );
  return env;
}

interface Report {
  ok: boolean;
  environment: string;
  checks: Array<{ name: string; status: string; ms: number; detail: string }>;
}

describe('appraisal smoke', () => {
  it('passes against the mock with an admin key, with --write, and writes a clean JUnit report', async () => {
    const env = withProfile('staging');
    const reports = tempDir('smoke-junit-');
    const result = await run(['smoke', '--profile', 'ci', '--write', '--junit', join(reports, 'smoke.xml'), '-o', 'json'], { env });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.ok).toBe(true);
    expect(report.environment).toBe('staging');
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'reachable',
        'credential',
        'key expiry',
        'list properties',
        'list designations',
        'get enums',
        'create property',
        'delete property',
      ]),
    );
    expect(result.stderr).toMatch(/^CHECK\s+RESULT\s+TIME\s+DETAIL$/m);
    expect(result.stderr).toMatch(/^credential\s+pass\s+\d+ ms\s+key apk_\w{8}… works; scopes: api:admin$/m);
    expect(result.stderr).toMatch(/^smoke: passed — \d+ of \d+ checks passed in/m);
    expect(result.stderr).not.toContain(mock.adminKey);
    const xml = readFileSync(join(reports, 'smoke.xml'), 'utf8');
    expect(xml).toMatch(/<testsuite name="appraisal smoke" tests="\d+" failures="0" errors="0" skipped="0"/);
    expect(xml).not.toContain('<failure');
    const junit = await readValidJUnit(join(reports, 'smoke.xml'), xml);
    expect(junit.cases.map((c) => c.name)).toEqual(report.checks.map((c) => c.name));
    // The throwaway property is gone again.
    const left = await run(['api', 'GET', '/api/properties', '-f', 'q=appraisal-smoke'], { env });
    expect(JSON.parse(left.stdout).items).toEqual([]);
  });

  it('runs against a loopback base URL without a profile (environment local)', async () => {
    const result = await run(['smoke', '-o', 'table'], { env: isolatedEnv(mock.env) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^environment\s+pass\s+.*local profile/m);
  });

  it('skips what the key scopes do not allow, saying so, and still passes', async () => {
    const key = await createKey(mock, { name: 'smoke-narrow', scopes: ['properties:read'] });
    const result = await run(['smoke', '--write', '-o', 'json'], { env: withProfile('development', { APPRAISAL_API_KEY: key.secret }) });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    const byName = new Map(report.checks.map((c) => [c.name, c]));
    expect(byName.get('list properties')!.status).toBe('pass');
    expect(byName.get('list clients')).toMatchObject({
      status: 'skip',
      detail: 'the key cannot read clients (needs api:read or clients:read)',
    });
    expect(byName.get('create property')).toMatchObject({ status: 'skip', detail: expect.stringContaining('cannot create properties') });
    expect(result.stderr).toMatch(/^list clients\s+skip\s+-\s+the key cannot read clients/m);
  });

  it('warns about a key that expires soon', async () => {
    const key = await createKey(mock, {
      name: 'smoke-expiring',
      scopes: ['api:read'],
      expiresAt: new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString(),
    });
    const result = await run(['smoke', '-o', 'json'], { env: withProfile('staging', { APPRAISAL_API_KEY: key.secret }) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('warning: the key expires in 3 days');
    const expiry = (JSON.parse(result.stdout) as Report).checks.find((c) => c.name === 'key expiry')!;
    expect(expiry).toMatchObject({ status: 'pass', detail: expect.stringContaining('rotate it soon') });
  });

  it('fails when the service answers 503: exit 8, the table and the JUnit report show the failures', async () => {
    const env = withProfile('staging');
    const reports = tempDir('smoke-junit-');
    expect((await mockAdmin('POST', '/__mock/faults', { path: '/api/*', fault: 'status=503', count: 1000 })).status).toBe(201);
    try {
      const result = await run(['smoke', '--retries', '0', '--junit', join(reports, 'smoke.xml'), '-o', 'json'], { env });
      expect(result.code).toBe(8);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.ok).toBe(false);
      expect(report.checks.find((c) => c.name === 'reachable')!.status).toBe('fail');
      expect(report.checks.find((c) => c.name === 'credential')!.status).toBe('fail');
      expect(result.stderr).toMatch(/^reachable\s+FAIL\s+/m);
      expect(result.stderr).toMatch(/^smoke: FAILED — 2 of \d+ checks failed/m);
      expect(result.stderr).toMatch(/^error: .*503/m);
      const xml = readFileSync(join(reports, 'smoke.xml'), 'utf8');
      expect(xml).toMatch(/failures="2"/);
      expect(xml).toMatch(/<testcase name="reachable" [^>]*>\s*<failure message="[^"]*503[^"]*" type="ServiceUnavailableError">/);
      expect(xml).toMatch(/<testcase name="list properties" [^>]*>\s*<skipped message="the credential check failed"\/>/);
      const junit = await readValidJUnit(join(reports, 'smoke.xml'), xml);
      expect(junit.cases.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual(['reachable', 'credential']);
    } finally {
      await mockAdmin('DELETE', '/__mock/faults');
    }
  });

  it('refuses a production profile with exit 10 before any request', async () => {
    const env = withProfile('production');
    expect((await mockAdmin('DELETE', '/__mock/requests')).status).toBe(204);
    const reports = tempDir('smoke-junit-');
    const result = await run(['smoke', '--profile', 'ci', '--junit', join(reports, 'smoke.xml')], { env });
    expect(result.code).toBe(10);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: smoke refuses the production profile "ci"/m);
    expect(result.stderr).toMatch(/^hint: use a staging, development or local profile/m);
    const xml = readFileSync(join(reports, 'smoke.xml'), 'utf8');
    expect(xml).toContain('failures="1"');
    expect(xml).toContain('type="SafetyError"');
    await readValidJUnit(join(reports, 'smoke.xml'), xml);
    // Nothing reached the service.
    const log = await mockAdmin('GET', '/__mock/requests');
    const requests = (log.body as { items: Array<{ path: string }> }).items;
    expect(requests.filter((r) => r.path !== '/__mock/requests')).toEqual([]);
  });

  it('refuses an APPRAISAL_ENVIRONMENT that contradicts the stored profile (exit 2), before any request', async () => {
    const result = await run(['smoke', '--profile', 'ci'], { env: withProfile('production', { APPRAISAL_ENVIRONMENT: 'staging' }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: profile "ci" is a production profile; APPRAISAL_ENVIRONMENT\/--environment says staging$/m);
  });

  it('refuses a profile of unknown environment with exit 10', async () => {
    const result = await run(['smoke'], { env: withProfile('qa') });
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/^error: smoke refuses the production profile "ci"/m);
  });
});
