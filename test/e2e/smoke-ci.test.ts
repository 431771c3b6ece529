// `appraisal smoke` as a CI pipeline runs it (issue 18): env-only setup, valid JUnit, quiet stdout,
// readiness, latency budgets, verdicts that cannot lie, reproducible failures, a checks file and
// GitHub Actions annotations — the built binary against the bundled mock.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, start } from '../helpers/run.js';
import { isolatedEnv } from '../helpers/env.js';
import { readValidJUnit } from '../helpers/junit.js';
import { mockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { waitFor } from '../helpers/wait.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let scratch: string;
beforeAll(async () => {
  mock = await startMock({ records: 20, seed: 18 });
  scratch = tempDir('smoke-ci-');
});
afterAll(async () => {
  await mock?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** Only APPRAISAL_BASE_URL / APPRAISAL_API_KEY (and the mock's CA): no stored profile at all. */
const envOnly = (extra: Record<string, string | undefined> = {}) => isolatedEnv({ ...mock.env, GITHUB_ACTIONS: undefined, ...extra });
let reports = 0;
const reportPath = () => join(scratch, `smoke-${++reports}.xml`);

interface Check {
  name: string;
  status: string;
  ms: number;
  detail: string;
  budgetMs?: number;
  failure?: { method?: string; path?: string; status?: number; requestId?: string; serviceMessage?: string; curl?: string };
}

describe('smoke in CI', () => {
  it('runs from environment variables alone with APPRAISAL_ENVIRONMENT=staging, quietly, and refuses production', async () => {
    const junit = reportPath();
    const staging = await run(['smoke', '--junit', junit], { env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging' }) });
    expect(staging.code, staging.stderr).toBe(0);
    // Quiet by default: the table on stderr, nothing on stdout without -o.
    expect(staging.stdout).toBe('');
    expect(staging.stderr).toMatch(/^environment\s+pass\s+.*staging profile "default" at https:\/\/127\.0\.0\.1:\d+/m);
    expect(staging.stderr).toMatch(/^smoke: passed — \d+ of \d+ checks passed/m);
    const { suite, cases } = await readValidJUnit(junit, readFileSync(junit, 'utf8'));
    expect(suite).toMatchObject({ failures: 0, skipped: 0 });
    expect(cases.every((c) => c.status === 'pass' && typeof c.time === 'number')).toBe(true);

    for (const [env, args] of [
      [{ APPRAISAL_ENVIRONMENT: 'production' }, []],
      [{}, ['--environment', 'production']],
    ] as const) {
      const refused = await run(['smoke', ...args], { env: envOnly(env) });
      expect(refused.code).toBe(10);
      expect(refused.stderr).toMatch(
        /^error: smoke refuses https:\/\/127\.0\.0\.1:\d+: it is declared production; test automation never targets production$/m,
      );
    }
    const typo = await run(['smoke'], { env: envOnly({ APPRAISAL_ENVIRONMENT: 'stagin' }) });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('APPRAISAL_ENVIRONMENT must be one of production, staging, development, local, got "stagin"');
  });

  it('APPRAISAL_ENVIRONMENT unset (docs/CI.md): local for a loopback base URL, so smoke runs; production for another host, refused', async () => {
    const loopback = await run(['smoke'], { env: envOnly({ APPRAISAL_ENVIRONMENT: undefined }) });
    expect(loopback.code, loopback.stderr).toBe(0);
    expect(loopback.stderr).toMatch(/^environment\s+pass\s+.*local profile "default" at https:\/\/127\.0\.0\.1:\d+/m);
    // `localhost.` reaches this machine but is not a loopback name (hostile-loopback.test.ts): production.
    const remote = await run(['smoke'], {
      env: envOnly({ APPRAISAL_ENVIRONMENT: undefined, APPRAISAL_BASE_URL: mock.baseUrl.replace('127.0.0.1', 'localhost.') }),
    });
    expect(remote.code, remote.stderr).toBe(10);
    expect(remote.stderr).toMatch(/^error: smoke refuses https:\/\/localhost\.:\d+: .*production/m);
  });

  it('writes JUnit that validates against junit-10.xsd for a run with skips, and a run with failures that reproduce', async () => {
    const admin = mockAdmin(mock);
    const narrow = (await admin.call('POST', '/api/keys', { name: 'smoke-ci-narrow', scopes: ['properties:read'] })).body as {
      data?: { secret: string };
      secret?: string;
    };
    const secret = narrow.data?.secret ?? narrow.secret!;
    const skips = reportPath();
    const skipped = await run(['smoke', '--junit', skips, '-o', 'json'], {
      env: envOnly({ APPRAISAL_ENVIRONMENT: 'development', APPRAISAL_API_KEY: secret }),
    });
    expect(skipped.code, skipped.stderr).toBe(0);
    const read = await readValidJUnit(skips, readFileSync(skips, 'utf8'));
    expect(Number(read.suite.skipped)).toBeGreaterThan(0);
    expect(read.cases.find((c) => c.name === 'list clients')).toMatchObject({
      status: 'skip',
      message: expect.stringContaining('cannot read clients'),
    });

    await admin.queueFaults([{ path: '/api/clients', fault: 'status=503', count: 100 }]);
    const failures = reportPath();
    try {
      const failed = await run(['smoke', '--retries', '0', '--junit', failures, '-o', 'json'], {
        env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging' }),
      });
      expect(failed.code).toBe(8);
      const check = (JSON.parse(failed.stdout) as { checks: Check[] }).checks.find((c) => c.name === 'list clients')!;
      expect(check.status).toBe('fail');
      expect(check.failure).toMatchObject({
        method: 'GET',
        path: expect.stringMatching(/^\/api\/clients\?/),
        status: 503,
        requestId: expect.any(String),
      });
      expect(check.failure!.curl).toMatch(
        /^curl -sS -i -X GET -H "x-api-key: \$APPRAISAL_API_KEY" --cacert '.+' 'https:\/\/127\.0\.0\.1:\d+\/api\/clients\?.*'$/,
      );
      expect(failed.stdout + failed.stderr).not.toContain(mock.adminKey);
      // The table shows the same reproduction under the failed row.
      expect(failed.stderr).toMatch(
        /^list clients\s+FAIL\s+\d+ ms\s+.*503.*\n\s+request: GET \/api\/clients\?\S+ → HTTP 503, request id \S+\n(\s+service said: .*\n)?\s+reproduce: curl /m,
      );
      const junit = await readValidJUnit(failures, readFileSync(failures, 'utf8'));
      const failedCase = junit.cases.find((c) => c.name === 'list clients')!;
      expect(failedCase.status).toBe('fail');
      expect(failedCase.body).toContain('reproduce: curl -sS -i -X GET -H "x-api-key: $APPRAISAL_API_KEY"');
    } finally {
      await admin.clearFaults();
    }
  });

  it('fails a check slower than --max-latency against a mock with --latency 250, with the times everywhere', async () => {
    const slow = await startMock({ records: 5, http: true, latencyMs: 250 });
    try {
      const junit = reportPath();
      const result = await run(['smoke', '--max-latency', '100ms', '--junit', junit, '-o', 'json'], {
        env: isolatedEnv({ ...slow.env, GITHUB_ACTIONS: undefined }),
      });
      expect(result.code).toBe(9);
      const checks = (JSON.parse(result.stdout) as { checks: Check[] }).checks;
      const credential = checks.find((c) => c.name === 'credential')!;
      expect(credential).toMatchObject({
        status: 'fail',
        budgetMs: 100,
        detail: expect.stringMatching(/^took \d+(\.\d+)?m?s, over its latency budget of 100ms/),
      });
      expect(credential.ms).toBeGreaterThanOrEqual(250);
      expect(result.stderr).toMatch(/^credential\s+FAIL\s+\d+ ms\s+took/m);
      // Issue 25 §5: the last line names the check that was too slow.
      expect(result.stderr).toMatch(/^error: smoke: check "[^"]+" failed: took \d+(\.\d+)?m?s, over its latency budget of 100ms/m);
      const { cases } = await readValidJUnit(junit, readFileSync(junit, 'utf8'));
      expect(cases.find((c) => c.name === 'credential')!.time).toBeGreaterThanOrEqual(0.25);
    } finally {
      await slow.stop();
    }
  });

  it('fails a run whose every check was refused (401): it proved nothing', async () => {
    const junit = reportPath();
    const unknownKey = 'apk_Zz9Yy8Xx_00000000000000000000000000000000';
    const result = await run(['smoke', '--junit', junit], {
      env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging', APPRAISAL_API_KEY: unknownKey }),
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^verdict\s+FAIL\s+.*refused \(401\/403\): the run proved nothing about the service$/m);
    const { cases } = await readValidJUnit(junit, readFileSync(junit, 'utf8'));
    expect(cases.at(-1)).toMatchObject({ name: 'verdict', status: 'fail' });
  });

  it('--wait-ready waits for a mock that starts later, and fails clearly when none comes', async () => {
    const port = await freePort();
    const adminKey = 'apk_Wait0001_0123456789abcdef0123456789abcdef';
    const env = isolatedEnv({ APPRAISAL_BASE_URL: `http://127.0.0.1:${port}`, APPRAISAL_API_KEY: adminKey, GITHUB_ACTIONS: undefined });
    const smoke = start(['smoke', '--wait-ready', '60s', '--verbose', '-o', 'json'], { env });
    // Start the service only once smoke has seen it missing (a condition, not a sleep).
    await waitFor(() => smoke.stderr().includes('smoke: not ready yet'), 'smoke to find the service not ready');
    const late = await startMock({ records: 5, http: true, adminKey, port });
    try {
      const result = await smoke.result;
      expect(result.code, result.stderr).toBe(0);
      const ready = (JSON.parse(result.stdout) as { checks: Check[] }).checks.find((c) => c.name === 'ready')!;
      expect(ready).toMatchObject({ status: 'pass', detail: expect.stringMatching(/^answered HTTP 200 after \d+ attempts$/) });
    } finally {
      await late.stop();
    }

    const never = await run(['smoke', '--wait-ready', '2s'], {
      env: isolatedEnv({ APPRAISAL_BASE_URL: `http://127.0.0.1:${await freePort()}`, APPRAISAL_API_KEY: adminKey }),
    });
    expect(never.code).toBe(3);
    expect(never.stderr).toMatch(
      /^error: smoke: check "[^"]+" failed: http:\/\/127\.0\.0\.1:\d+ was not ready within 2s \(\d+ attempts; last: .+\)$/m,
    );
    expect(never.stderr).toMatch(/^credential\s+skip\s+-\s+the service was not ready$/m);
  });

  it('adds the checks of a --checks file: any operationId or METHOD /path of the description, params onto its parameters, answers validated', async () => {
    const admin = mockAdmin(mock);
    const [propertyId] = await admin.ids('/api/properties');
    const file = join(scratch, 'smoke.json');
    const nobody = '00000000-0000-4000-8000-000000000000';
    writeFileSync(
      file,
      JSON.stringify({
        checks: [
          {
            name: 'offices exist',
            operation: 'listProperties',
            params: { propertyType: 'office' },
            expectStatus: 200,
            minItems: 1,
            maxLatency: '30s',
          },
          { name: 'enums answer', operation: 'GET /api/reference/enums', expectStatus: 200 },
          { name: 'no such property', operation: 'getProperty', params: { id: nobody }, expectStatus: 404 },
          { name: 'my key', operation: 'getCurrentApiKey' },
          { name: 'one property', operation: 'GET /api/properties/{id}', params: { id: propertyId } },
          { name: 'delete nothing', operation: 'DELETE /api/properties/{id}', params: { id: nobody }, allowWrite: true, expectStatus: 404 },
        ],
      }),
    );
    // The answer of "one property" breaks the published schema (the mock's fault): that check fails.
    await admin.queueFaults([{ path: `/api/properties/${propertyId}`, fault: 'schema-violation', count: 1 }]);
    try {
      const result = await run(['smoke', '--checks', file, '-o', 'json'], { env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging' }) });
      expect(result.code, result.stderr).toBe(9);
      const checks = (JSON.parse(result.stdout) as { checks: Check[] }).checks;
      expect(checks.slice(-6).map((c) => `${c.name}:${c.status}`)).toEqual([
        'offices exist:pass',
        'enums answer:pass',
        'no such property:pass',
        'my key:pass',
        'one property:fail',
        'delete nothing:pass',
      ]);
      expect(checks.at(-6)).toMatchObject({
        budgetMs: 30_000,
        detail: expect.stringMatching(/^page 1: \d+ items? \(at least 1 expected\), valid against the published schema$/),
      });
      expect(checks.at(-3)!.detail).toBe('answered HTTP 200, valid against the published schema');
      expect(checks.at(-2)).toMatchObject({
        detail: `the answer breaks the published schema of getProperty (1 violation): ${propertyId} $.updatedAt must be string`,
        failure: { method: 'GET', path: `/api/properties/${propertyId}` },
      });
    } finally {
      await admin.clearFaults();
    }

    // YAML too; a check that does not fit the description is refused before the data checks, naming it.
    const yaml = join(scratch, 'smoke.yaml');
    writeFileSync(yaml, 'checks:\n  - name: clients exist  # any list operation\n    operation: listClients\n    minItems: 1\n');
    const fromYaml = await run(['smoke', '--checks', yaml, '-o', 'json'], { env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging' }) });
    expect(fromYaml.code, fromYaml.stderr).toBe(0);
    expect((JSON.parse(fromYaml.stdout) as { checks: Check[] }).checks.at(-1)).toMatchObject({ name: 'clients exist', status: 'pass' });
    writeFileSync(
      yaml,
      'checks:\n  - name: red ones\n    operation: listProperties\n    params: {colour: red}\n  - name: create one\n    operation: createProperty\n',
    );
    const junit = reportPath();
    const misfit = await run(['smoke', '--checks', yaml, '--junit', junit], { env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging' }) });
    expect(misfit.code).toBe(2);
    expect(misfit.stderr).toMatch(
      /^error: --checks .*smoke\.yaml: checks\[0\] "red ones"\.params: "colour" is not a parameter of listProperties \(GET \/api\/properties\)$/m,
    );
    const report = await readValidJUnit(junit, readFileSync(junit, 'utf8'));
    expect(report.cases.at(-1)).toMatchObject({
      name: 'checks file',
      status: 'fail',
      message: expect.stringContaining('"colour" is not a parameter'),
    });

    writeFileSync(file, JSON.stringify({ checks: [{ name: 'typo', operation: 'listProperties', expectStatuss: 200 }] }));
    const bad = await run(['smoke', '--checks', file], { env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging' }) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --checks .*smoke\.json: unknown key "expectStatuss" at checks\[0\]$/m);
  });

  it('binds to the description the service publishes, as every command does: a moved operation is called where published, a missing one fails (exit 12)', async () => {
    const admin = mockAdmin(mock);
    // Assignments under /api/appraisal-assignments, no listFiles, designations as {success, data}, found by its Link header.
    await admin.call('POST', '/__mock/description', { variant: 'alternative' });
    try {
      const result = await run(['smoke', '-o', 'json'], { env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging' }) });
      expect(result.code).toBe(12);
      const checks = (JSON.parse(result.stdout) as { checks: Check[] }).checks;
      expect(checks.find((c) => c.name === 'spec check')).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(
          /^the description \(https:\/\/127\.0\.0\.1:\d+\/api\/v2\/openapi\.json\) lacks 1 operation the CLI calls: GET \/api\/files \(listFiles\)$/,
        ),
      });
      expect(checks.find((c) => c.name === 'list assignments')).toMatchObject({
        status: 'pass',
        detail: expect.stringMatching(/^page 1: 10 records of \d+, valid against the published schema$/),
      });
      expect(checks.find((c) => c.name === 'list designations')).toMatchObject({
        status: 'pass',
        detail: expect.stringContaining('valid against the published schema'),
      });
      expect(checks.find((c) => c.name === 'list files')).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(/^`appraisal smoke` needs GET \/api\/files \(listFiles\), which the service does not publish/),
      });
    } finally {
      await admin.call('POST', '/__mock/description', { variant: 'standard' });
    }
  });

  it("binds to the description --spec, APPRAISAL_SPEC or the profile names (a local file), else the service's own, cached", async () => {
    const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
      info: { title: string };
      paths: Record<string, Record<string, { operationId?: string }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    document.info.title = 'Local contract';
    // Stricter than the service: a client's name must be a number; listClients is called listCustomers.
    document.components.schemas.Client!.properties.name = { type: 'integer' };
    document.paths['/api/clients']!.get!.operationId = 'listCustomers';
    const spec = join(scratch, 'local-openapi.json');
    writeFileSync(spec, JSON.stringify(document));
    const result = await run(['smoke', '--spec', spec, '-o', 'json'], { env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging' }) });
    expect(result.code).toBe(9);
    const checks = (JSON.parse(result.stdout) as { checks: Check[] }).checks;
    expect(checks.find((c) => c.name === 'spec check')!.detail).toMatch(
      new RegExp(
        `^Local contract 0\\.1\\.0 \\(${spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\): \\d+ operations, all \\d+ the CLI calls published$`,
      ),
    );
    expect(checks.find((c) => c.name === 'list clients')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        /^10 of 10 records break the published schema of listCustomers: [0-9a-f-]{36} \$\.name must be integer/,
      ),
    });
    expect(checks.find((c) => c.name === 'list properties')!.status).toBe('pass');

    // The profile's spec URL (here a path) is honoured the same way.
    const withProfile = envOnly({ APPRAISAL_ENVIRONMENT: undefined });
    mkdirSync(withProfile.APPRAISAL_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    const config = { activeProfile: 'ci', profiles: { ci: { baseUrl: mock.baseUrl, environment: 'staging', specUrl: spec } } };
    writeFileSync(join(withProfile.APPRAISAL_CONFIG_DIR!, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    const fromProfile = await run(['smoke', '-o', 'json'], { env: { ...withProfile, APPRAISAL_BASE_URL: undefined } });
    expect(fromProfile.code).toBe(9);
    expect((JSON.parse(fromProfile.stdout) as { checks: Check[] }).checks.find((c) => c.name === 'spec check')!.detail).toContain(
      `Local contract 0.1.0 (${spec})`,
    );

    const checksFile = join(scratch, 'customers.json');
    writeFileSync(checksFile, JSON.stringify({ checks: [{ name: 'customers', operation: 'listCustomers', minItems: 1 }] }));
    const viaEnv = await run(['smoke', '--no-contract', '--checks', checksFile, '-o', 'json'], {
      env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging', APPRAISAL_SPEC: spec }),
    });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect((JSON.parse(viaEnv.stdout) as { checks: Check[] }).checks.at(-1)).toMatchObject({
      name: 'customers',
      status: 'pass',
      detail: 'page 1: 10 items (at least 1 expected)',
    });

    // Without --spec: the service's own description, then the cached copy on the next run (no download).
    const sameMachine = envOnly({ APPRAISAL_ENVIRONMENT: 'staging' });
    const specDetail = async () => {
      const result = await run(['smoke', '-o', 'json'], { env: sameMachine });
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { checks: Check[] }).checks.find((c) => c.name === 'spec check')!.detail;
    };
    expect(await specDetail()).toMatch(/^Property appraisal API 0\.1\.0 \(https:\/\/127\.0\.0\.1:\d+\/api\/openapi\.json\): /);
    expect(await specDetail()).toMatch(
      /^Property appraisal API 0\.1\.0 \(https:\/\/127\.0\.0\.1:\d+\/api\/openapi\.json \(cached copy of \d{4}-\d\d-\d\dT[\d:.]+Z\)\): /,
    );
  });

  it('checks the published description and reports a schema violation injected by the mock; --no-contract skips both', async () => {
    const admin = mockAdmin(mock);
    await admin.queueFaults([{ path: '/api/properties', fault: 'schema-violation', count: 1 }]);
    try {
      const result = await run(['smoke', '-o', 'json'], { env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging' }) });
      expect(result.code).toBe(9);
      const checks = (JSON.parse(result.stdout) as { checks: Check[] }).checks;
      expect(checks.find((c) => c.name === 'spec check')).toMatchObject({
        status: 'pass',
        detail: expect.stringMatching(/operations, all \d+ the CLI calls published$/),
      });
      expect(checks.find((c) => c.name === 'list properties')).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(
          /^1 of 10 records break the published schema of listProperties: [0-9a-f-]{36} \$\.updatedAt must be string$/,
        ),
      });
      expect(checks.find((c) => c.name === 'list clients')).toMatchObject({
        status: 'pass',
        detail: expect.stringContaining('valid against the published schema'),
      });
    } finally {
      await admin.clearFaults();
    }
    await admin.queueFaults([{ path: '/api/properties', fault: 'schema-violation', count: 1 }]);
    try {
      const skipped = await run(['smoke', '--no-contract', '-o', 'json'], { env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging' }) });
      expect(skipped.code, skipped.stderr).toBe(0);
      const names = (JSON.parse(skipped.stdout) as { checks: Check[] }).checks.map((c) => c.name);
      expect(names).not.toContain('spec check');
    } finally {
      await admin.clearFaults();
    }
  });

  it('under GITHUB_ACTIONS=true: ::error annotations for failures and a step summary', async () => {
    const admin = mockAdmin(mock);
    const summary = join(scratch, 'step-summary.md');
    writeFileSync(summary, '# earlier step\n');
    await admin.queueFaults([{ path: '/api/files', fault: 'status=503', count: 100 }]);
    try {
      const result = await run(['smoke', '--retries', '0'], {
        env: envOnly({ APPRAISAL_ENVIRONMENT: 'staging', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }),
      });
      expect(result.code).toBe(8);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^::error title=smoke%3A list files::.*503.*%0Areproduce: curl .*\$APPRAISAL_API_KEY/m);
      const markdown = readFileSync(summary, 'utf8');
      expect(markdown.startsWith('# earlier step\n### appraisal smoke: staging')).toBe(true);
      expect(markdown).toMatch(/^\| list files \| ❌ FAIL \| \d+ ms \| .*503.* \|$/m);
      expect(markdown).toMatch(/^\| credential \| ✅ pass \|/m);
      expect(markdown).not.toContain(mock.adminKey);
    } finally {
      await admin.clearFaults();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
