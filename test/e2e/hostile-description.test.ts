// Issue 26 item 9: a crafted service description. A published `pattern` like `^(a+)+$` (catastrophic
// backtracking in JavaScript's engine) must not hang `props create`, `--validate` or `smoke`: patterns
// are compiled with RE2 (linear time). A pattern RE2 cannot compile (a backreference) and a schema
// that includes itself (allOf) are contract errors (exit 9), not a hang or a stack overflow.
// Spawned: a hang must be a timeout of the child, not of the test runner.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { adminOf } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/temp.js';
import { page } from '../hostile/answers.js';
import { startHostile, type HostileServer } from '../hostile/server.js';

const KEY = 'apk_Patternz_PatternS3cretPatternS3cretPatt42';
const EVIL = '^(a+)+$';
/** 40 a's and a mismatch: about 2^40 steps for a backtracking engine. */
const ATTACK = `${'a'.repeat(40)}!`;
/** Well inside the suite's timeouts, far below what a backtracking engine would need. */
const NO_HANG_MS = 30_000;

type Schemas = Record<string, { properties?: Record<string, Record<string, unknown>>; [key: string]: unknown }>;

/** The bundled description with `change` applied to its schemas, as a file for --spec. */
function crafted(change: (schemas: Schemas) => void): string {
  const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as { components: { schemas: Schemas } };
  change(document.components.schemas);
  const path = join(tempDir('crafted-spec-'), 'openapi.json');
  writeFileSync(path, JSON.stringify(document));
  return path;
}

const evilNames = crafted((schemas) => {
  schemas.Property!.properties!.name!.pattern = EVIL;
  schemas.PropertyCreate!.properties!.name!.pattern = EVIL;
});

let server: HostileServer;
beforeAll(async () => {
  server = await startHostile();
});
afterAll(async () => {
  await server.close();
});

const env = () => isolatedEnv({ APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY });
const body = (name: string) =>
  JSON.stringify({
    name,
    propertyType: 'office',
    address: { line1: '1 Main St', city: 'X', region: 'NY', postalCode: '10001', country: 'US' },
  });

describe('a catastrophic pattern', () => {
  it('props list --validate: the record is checked in linear time (a violation, exit 9)', async () => {
    server.on('GET', '/api/properties', page([{ id: '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10', name: ATTACK }]));
    const result = await runCli(['props', 'list', '--validate', '-o', 'ndjson', '--spec', evilNames], {
      env: env(),
      timeoutMs: NO_HANG_MS,
    });
    expect(result.signal, 'killed: it hung').toBe(null);
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toMatch(/\$\.name must match pattern/);
  });

  it('props create: the body is checked in linear time (refused, exit 2, nothing sent)', async () => {
    const result = await runCli(['props', 'create', '--data', body(ATTACK), '--spec', evilNames], { env: env(), timeoutMs: NO_HANG_MS });
    expect(result.signal, 'killed: it hung').toBe(null);
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/\$\.name must match pattern/);
    expect(server.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  describe('smoke', () => {
    let mock: MockServer;
    beforeAll(async () => {
      mock = await startMock({ records: 0, seed: 5 });
    });
    afterAll(async () => {
      await mock?.stop();
    });

    it('validates a record with the attack in it against the crafted description, and ends', async () => {
      const created = await adminOf(mock).call('POST', '/api/properties', JSON.parse(body(ATTACK)));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const smokeEnv = isolatedEnv({ ...mock.env });
      const dir = smokeEnv.APPRAISAL_CONFIG_DIR!;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({ activeProfile: 'ci', profiles: { ci: { baseUrl: mock.baseUrl, environment: 'staging' } } }),
        { mode: 0o600 },
      );
      const result = await runCli(['smoke', '-o', 'json', '--spec', evilNames], { env: smokeEnv, timeoutMs: NO_HANG_MS });
      expect(result.signal, 'killed: it hung').toBe(null);
      const report = JSON.parse(result.stdout) as { checks: Array<{ name: string; status: string; detail: string }> };
      const list = report.checks.find((check) => check.name === 'list properties');
      expect(list?.status, JSON.stringify(report.checks)).toBe('fail');
      expect(list?.detail).toMatch(/\$\.name must match pattern/);
    });
  });
});

describe('descriptions that cannot be checked safely', () => {
  it('a backreference: a contract error naming the pattern (exit 9)', async () => {
    const spec = crafted((schemas) => {
      schemas.PropertyCreate!.properties!.name!.pattern = '^(a)\\1$';
    });
    const result = await runCli(['props', 'create', '--data', body('aa'), '--spec', spec], { env: env(), timeoutMs: NO_HANG_MS });
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toMatch(/^error: the service description's pattern "\^\(a\)\\\\1\$" cannot be checked in linear time/m);
  });

  it('a self-referencing allOf: a contract error (exit 9), not "Maximum call stack size exceeded"', async () => {
    const spec = crafted((schemas) => {
      schemas.PropertyCreate = { allOf: [{ $ref: '#/components/schemas/PropertyCreate' }] };
    });
    const result = await runCli(['props', 'create', '--data', body('x'), '--spec', spec], { env: env(), timeoutMs: NO_HANG_MS });
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toMatch(/^error: the service description's schema refers to itself without end/m);
    expect(result.stderr).not.toMatch(/Maximum call stack/);
  });
});
