import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import smokeCommand from '../../../../src/commands/smoke/index.js';
import { allows } from '../../../../src/core/scopes.js';
import type { Environment } from '../../../../src/core/config.js';
import type { GlobalOptions } from '../../../../src/core/global-options.js';
import {
  ExpectationError,
  MissingCredentialError,
  NotFoundError,
  SafetyError,
  ServiceUnavailableError,
} from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import type { Session } from '../../../../src/core/session.js';
import { fakeContext } from '../../../helpers/fake-context.js';
import { runNoun } from '../fake-api.js';
import { Reply, routeApi, type Handler } from '../api/request-fake.js';
import { tempDir } from '../../../helpers/temp.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const OPENAPI = fileURLToPath(new URL('../../../../openapi.json', import.meta.url));
const page = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}` }));

function session(environment: Environment): Session {
  return {
    profileName: environment,
    profile: { name: environment, baseUrl: `https://${environment}.example.com`, environment },
    baseUrl: `https://${environment}.example.com`,
    origin: `https://${environment}.example.com:443`,
    environment,
    caFile: undefined,
    credential: { secret: 'apk_AbCdEf12_0123456789abcdefghijklmnopqrstuv', prefix: 'apk_AbCdEf12', source: 'env', kind: 'api-key' },
  };
}

interface Setup {
  environment?: Environment;
  scopes?: string[];
  expiresAt?: string | null;
  routes?: Record<string, Handler>;
  globals?: Partial<GlobalOptions>;
}

function setup(options: Setup = {}) {
  const properties = new Map<string, Record<string, unknown>>();
  const { api, calls } = routeApi({
    'GET /api/openapi.json': () => ({ openapi: '3.1.0', paths: {} }),
    'GET /api/keys/current': () => ({
      id: 'k1',
      prefix: 'apk_AbCdEf12',
      scopes: options.scopes ?? ['api:admin'],
      expiresAt: options.expiresAt ?? null,
    }),
    'GET /api/properties': () => page(10),
    'GET /api/assignments': () => page(3),
    'GET /api/clients': () => page(0),
    'GET /api/files': () => page(1),
    'GET /api/reference/designations': () => [{ id: 'd1', code: 'MAI' }],
    'GET /api/reference/enums': () => ({ success: true, data: { propertyTypes: ['Industrial', 'Office'], assignmentStatuses: ['open'] } }),
    'GET /api/keys': () => page(2),
    'POST /api/properties': (e) => {
      const record = { id: 'p-1', ...(e.body as object) };
      properties.set('p-1', record);
      return new Reply(201, record);
    },
    'GET /api/properties/p-1': () => properties.get('p-1'),
    'PATCH /api/properties/p-1': (e) => {
      const record = { ...properties.get('p-1'), ...(e.body as object) };
      properties.set('p-1', record);
      return record;
    },
    'DELETE /api/properties/p-1': () => {
      properties.delete('p-1');
      return undefined;
    },
    ...options.routes,
  });
  const dir = tempDir('smoke-');
  // Smoke binds to the description (here the repository's own, as --spec); the contract checks,
  // which need records the schemas allow, are tested end to end against the mock.
  const globals = { output: 'json' as const, spec: OPENAPI, ...options.globals };
  const fake = fakeContext({ api, session: session(options.environment ?? 'staging'), now: () => NOW, cwd: dir, globals });
  const run = (...args: string[]) => runNoun(smokeCommand, fake.ctx, [...args, '--no-contract']);
  return { ...fake, calls, run, dir, properties };
}

function report(stdout: string) {
  return JSON.parse(stdout) as { ok: boolean; checks: Array<{ name: string; status: string; detail: string; errorType?: string }> };
}

describe('appraisal smoke (in-process)', () => {
  it('passes every check against a healthy service and reports them three ways', async () => {
    const t = setup();
    await t.run('--junit', 'smoke.xml');
    const result = report(t.stdout());
    expect(result.ok).toBe(true);
    expect(result.checks.map((c) => `${c.name}:${c.status}`)).toEqual([
      'environment:pass',
      'reachable:pass',
      'credential:pass',
      'key expiry:pass',
      'list properties:pass',
      'list assignments:pass',
      'list clients:pass',
      'list files:pass',
      'list designations:pass',
      'get enums:pass',
      'list keys:pass',
    ]);
    expect(result.checks.find((c) => c.name === 'list properties')!.detail).toBe('page 1: 10 records of 10');
    expect(result.checks.find((c) => c.name === 'credential')!.detail).toBe('key apk_AbCdEf12… works; scopes: api:admin');
    expect(result).toMatchObject({
      environment: 'staging',
      profile: 'staging',
      baseUrl: 'https://staging.example.com',
      keyPrefix: 'apk_AbCdEf12',
    });
    // One page each, through paginate.
    const listed = t.calls.filter((c) => c.paginate);
    expect(listed.every((c) => c.paginate!.page === 1)).toBe(true);
    // Reachability does not depend on the credential.
    expect(t.calls.find((c) => c.path === '/api/openapi.json')!.auth).toBe(false);
    const stderr = t.stderr();
    expect(stderr).toMatch(/^CHECK\s+RESULT\s+TIME\s+DETAIL$/m);
    expect(stderr).toMatch(/^list properties\s+pass\s+\d+ ms\s+page 1: 10 records of 10$/m);
    expect(stderr).toContain('smoke: passed — 11 of 11 checks passed in');
    const xml = readFileSync(join(t.dir, 'smoke.xml'), 'utf8');
    expect(xml).toContain('<testsuite name="appraisal smoke" tests="11" failures="0" errors="0" skipped="0"');
    expect(xml).toContain('<testcase name="credential" classname="appraisal.smoke.staging"');
    expect(t.properties.size).toBe(0);
  });

  it.each<Environment>(['production'])(
    'refuses a %s profile with exit 10 before any request, and says so in the JUnit report',
    async (environment) => {
      const t = setup({ environment });
      const error = await t.run('--junit', 'smoke.xml').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SafetyError);
      expect(exitCodeFor(error)).toBe(10);
      expect((error as Error).message).toContain('smoke refuses the production profile "production"');
      expect(t.calls).toEqual([]);
      const xml = readFileSync(join(t.dir, 'smoke.xml'), 'utf8');
      expect(xml).toContain('failures="1"');
      expect(xml).toContain('<testcase name="environment"');
      expect(xml).toContain('type="SafetyError"');
    },
  );

  it('refuses an environment that is not a known non-production one', async () => {
    const t = setup({ environment: 'qa' as Environment });
    await expect(t.run()).rejects.toThrow(SafetyError);
    expect(t.calls).toEqual([]);
  });

  it('fails with the exit code of the first failure when the service answers 503, and the JUnit report shows it', async () => {
    const unavailable: Handler = (e) => {
      throw new ServiceUnavailableError(`${e.method} ${e.path}: 503 Service Unavailable`, { status: 503, method: e.method, path: e.path });
    };
    const t = setup({ routes: { 'GET /api/openapi.json': unavailable, 'GET /api/keys/current': unavailable } });
    const error = await t.run('--junit', 'smoke.xml').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(exitCodeFor(error)).toBe(8);
    const result = report(t.stdout());
    expect(result.ok).toBe(false);
    expect(result.checks.find((c) => c.name === 'reachable')).toMatchObject({ status: 'fail', errorType: 'ServiceUnavailableError' });
    expect(result.checks.find((c) => c.name === 'list properties')).toMatchObject({
      status: 'skip',
      detail: 'the credential check failed',
    });
    expect(t.stderr()).toMatch(/^reachable\s+FAIL\s+\d+ ms\s+GET \/api\/openapi.json: 503 Service Unavailable$/m);
    expect(t.stderr()).toContain('smoke: FAILED — 2 of 11 checks failed');
    const xml = readFileSync(join(t.dir, 'smoke.xml'), 'utf8');
    expect(xml).toContain('failures="2"');
    expect(xml).toContain('<failure message="GET /api/openapi.json: 503 Service Unavailable" type="ServiceUnavailableError">');
  });

  it('counts any HTTP answer short of 429/5xx as reachable', async () => {
    const t = setup({
      routes: {
        'GET /api/openapi.json': () => {
          throw new NotFoundError('x', { status: 404, method: 'GET', path: '/api/openapi.json' });
        },
      },
    });
    await t.run();
    expect(report(t.stdout()).checks[1]).toMatchObject({
      name: 'reachable',
      status: 'pass',
      detail: 'staging.example.com answered HTTP 404 over TLS (certificate verified)',
    });
  });

  it('skips the families the scopes do not allow, saying why', async () => {
    const t = setup({ scopes: ['properties:read', 'reference:read'] });
    await t.run('--write');
    const checks = report(t.stdout()).checks;
    expect(checks.find((c) => c.name === 'list properties')!.status).toBe('pass');
    expect(checks.find((c) => c.name === 'list clients')).toMatchObject({
      status: 'skip',
      detail: 'the key cannot read clients (needs api:read or clients:read)',
    });
    expect(checks.find((c) => c.name === 'list keys')).toMatchObject({
      status: 'skip',
      detail: 'the key cannot manage keys (needs api:admin or keys:admin)',
    });
    expect(checks.find((c) => c.name === 'create property')).toMatchObject({
      status: 'skip',
      detail: 'the key cannot create properties (needs api:write or properties:write)',
    });
    expect(t.calls.some((c) => c.path === '/api/clients')).toBe(false);
  });

  it('--write creates, reads, updates and deletes a throwaway property', async () => {
    const t = setup({ scopes: ['api:delete'] });
    await t.run('--write');
    const checks = report(t.stdout()).checks;
    expect(checks.slice(-4).map((c) => `${c.name}:${c.status}:${c.detail}`)).toEqual([
      'create property:pass:created p-1',
      'get property:pass:read back p-1',
      'update property:pass:renamed p-1',
      'delete property:pass:deleted p-1',
    ]);
    const created = t.calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(created).toMatchObject({ name: `appraisal-smoke ${NOW.toISOString()}`, propertyType: 'Industrial', address: { country: 'US' } });
    expect(t.properties.size).toBe(0);
  });

  it('--write never creates what it could not delete', async () => {
    const t = setup({ scopes: ['api:write'] });
    await t.run('--write');
    const checks = report(t.stdout()).checks;
    expect(checks.find((c) => c.name === 'create property')!.detail).toContain('cannot delete properties');
    expect(t.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('--write still deletes when reading back fails', async () => {
    const t = setup({ scopes: ['api:delete'], routes: { 'GET /api/properties/p-1': () => ({ id: 'other' }) } });
    await expect(t.run('--write')).rejects.toThrow(/answered another record/);
    const checks = report(t.stdout()).checks;
    expect(checks.find((c) => c.name === 'get property')!.status).toBe('fail');
    expect(checks.find((c) => c.name === 'delete property')!.status).toBe('pass');
    expect(t.properties.size).toBe(0);
  });

  it('fails on an expired key (exit 4), and passes with a warning within 14 days', async () => {
    const expired = setup({ expiresAt: '2026-02-28T00:00:00Z' });
    const error = await expired.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingCredentialError);
    expect(exitCodeFor(error)).toBe(4);
    const soon = setup({ expiresAt: '2026-03-06T12:00:00Z' });
    await soon.run();
    expect(report(soon.stdout()).checks.find((c) => c.name === 'key expiry')!.detail).toBe(
      'expires in 5 days (2026-03-06T12:00:00.000Z): rotate it soon',
    );
    expect(soon.stderr()).toContain('warning: the key expires in 5 days');
    const hours = setup({ expiresAt: '2026-03-01T20:00:00Z' });
    await expect(hours.run()).rejects.toThrow('the key expires in 8 hours');
  });

  it('prints only the table and summary with -o table (nothing on stdout)', async () => {
    const t = setup({ globals: { output: 'table' } });
    await t.run();
    expect(t.stdout()).toBe('');
    expect(t.stderr()).toContain('smoke: passed');
  });

  it('-o ndjson prints one check a line', async () => {
    const t = setup({ globals: { output: 'ndjson' } });
    await t.run();
    const lines = t
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatchObject({ name: 'environment', status: 'pass' });
  });

  it('prints the report on stdout only when -o asks for it (the table on stderr is enough otherwise)', async () => {
    const t = setup({ globals: { output: undefined } });
    await t.run();
    expect(t.stdout()).toBe('');
    expect(t.stderr()).toMatch(/^CHECK\s+RESULT/m);
  });

  it('fails a run whose every data check was skipped: it proved nothing (exit 9)', async () => {
    const t = setup({ scopes: [] });
    const error = await t.run('--write').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExpectationError);
    expect(exitCodeFor(error)).toBe(9);
    const checks = report(t.stdout()).checks;
    expect(checks.at(-1)).toMatchObject({
      name: 'verdict',
      status: 'fail',
      detail: 'all 11 data checks were skipped: the run proved nothing about the service',
    });
    expect(t.stderr()).toContain('smoke: FAILED — 1 of 16 checks failed');
  });

  it('checks --max-latency, --wait-ready and --checks before any request', async () => {
    const t = setup();
    await expect(t.run('--max-latency', 'soon')).rejects.toThrow('--max-latency must be a duration');
    await expect(t.run('--wait-ready', '0s')).rejects.toThrow('--wait-ready must be between 1s and 1h');
    await expect(t.run('--checks', 'missing.json')).rejects.toThrow('--checks missing.json: cannot read it (no such file or directory)');
    expect(t.calls).toEqual([]);
  });

  it('checks the --junit directory before anything else', async () => {
    const t = setup();
    await expect(t.run('--junit', 'missing/dir/smoke.xml')).rejects.toThrow(/does not exist/);
    expect(t.calls).toEqual([]);
  });
});

describe('allows', () => {
  it('reads the scope model of API.md', () => {
    expect(allows(['api:read'], 'clients', 'read')).toBe(true);
    expect(allows(['api:read'], 'clients', 'write')).toBe(false);
    expect(allows(['api:write'], 'properties', 'delete')).toBe(false);
    expect(allows(['api:delete'], 'properties', 'delete')).toBe(true);
    expect(allows(['api:admin'], 'files', 'delete')).toBe(true);
    expect(allows(['properties:write'], 'properties', 'read')).toBe(true);
    expect(allows(['properties:write'], 'clients', 'read')).toBe(false);
    expect(allows(['properties:read'], 'properties', 'write')).toBe(false);
    expect(allows([], 'properties', 'read')).toBe(false);
  });
});
