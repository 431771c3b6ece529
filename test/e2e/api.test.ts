// `appraisal api` with the built binary against the bundled mock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run, type RunResult } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { adminOf } from '../helpers/mock-admin.js';
import { tempDir } from '../helpers/temp.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

let mock: MockServer;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  mock = await startMock({ records: 40, seed: 3 });
  env = isolatedEnv(mock.env);
});
afterAll(async () => {
  await mock?.stop();
});

const api = (...args: string[]): Promise<RunResult> => run(['api', ...args, '--retries', '0'], { env });

function lines(text: string): string[] {
  return text.split('\n').filter(Boolean);
}

describe('appraisal api', () => {
  it('GET prints the response body as JSON; -f adds query parameters', async () => {
    const result = await api('GET', '/api/properties', '-f', 'limit=3', '-F', 'page=2');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.items).toHaveLength(3);
    expect(body.pagination).toMatchObject({ page: 2, limit: 3, total: 40 });
  });

  it('GET of one record, method in any case, path without the leading slash', async () => {
    const list = JSON.parse((await api('GET', '/api/properties?limit=1')).stdout);
    const id = list.items[0].id as string;
    const result = await api('get', `api/properties/${id}`);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id });
  });

  it('POST sends --data and -f as the JSON body, PATCH and DELETE work on the created record', async () => {
    const created = await api(
      'POST',
      '/api/properties',
      '--data',
      JSON.stringify({ name: 'Raw API Tower', propertyType: 'office' }),
      '-f',
      'address.line1=1 Raw Way',
      '-f',
      'address.city=Boston',
      '-f',
      'address.region=MA',
      '-f',
      'address.postalCode=02110',
      '-f',
      'address.country=US',
      '-F',
      'yearBuilt=1999',
    );
    expect(created.code, created.stderr).toBe(0);
    const record = JSON.parse(created.stdout);
    expect(record).toMatchObject({ name: 'Raw API Tower', yearBuilt: 1999, address: { city: 'Boston' } });
    const patched = await api('PATCH', `/api/properties/${record.id}`, '-F', 'yearBuilt=2001');
    expect(patched.code, patched.stderr).toBe(0);
    expect(JSON.parse(patched.stdout).yearBuilt).toBe(2001);
    const deleted = await api('DELETE', `/api/properties/${record.id}`, '--yes');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe('');
    const gone = await api('GET', `/api/properties/${record.id}`);
    expect(gone.code).toBe(6);
  });

  it('DELETE without --yes and without a terminal is refused before any request', async () => {
    const result = await api('DELETE', '/api/properties/00000000-0000-4000-8000-000000000000');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pass --yes');
  });

  it('--all pages through the whole collection with the same paging as list', async () => {
    const result = await api('GET', '/api/properties', '--all', '-o', 'ndjson', '--page-size', '7');
    expect(result.code, result.stderr).toBe(0);
    const records = lines(result.stdout).map((line) => JSON.parse(line));
    expect(records).toHaveLength(40);
    expect(new Set(records.map((r) => r.id)).size).toBe(40);
    const capped = await api('GET', '/api/properties', '--all', '-o', 'json', '--max-items', '9');
    expect(JSON.parse(capped.stdout)).toHaveLength(9);
  });

  it('--all as csv picks columns from the first record', async () => {
    const result = await api('GET', '/api/reference/designations', '--all', '-o', 'csv');
    expect(result.code, result.stderr).toBe(0);
    const [header, ...rows] = lines(result.stdout);
    expect(header).toMatch(/^id,/);
    expect(header).toContain('code');
    expect(rows.length).toBeGreaterThan(0);
  });

  it('-i prints the status line and response headers, never a credential', async () => {
    const result = await api('-i', 'GET', '/api/keys/current');
    expect(result.code).toBe(0);
    const [head, body] = result.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP 200');
    expect(head).toMatch(/^x-request-id: \S+$/m);
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(body!).scopes).toContain('api:admin');
    expect(result.stdout).not.toContain(mock.adminKey);
  });

  it('warns on stderr for a path outside the public contract, and maps its 404 to exit 6', async () => {
    const result = await api('GET', '/api/internal/stats');
    expect(result.stderr).toContain('warning: internal path: GET /api/internal/stats is not part of the public contract');
    expect(result.code).toBe(6);
    expect(lines(result.stderr).filter((l) => l.startsWith('error:'))).toHaveLength(1);
  });

  it('--strict refuses an internal path with exit 12 (unpublished) and sends nothing', async () => {
    const result = await api('GET', '/api/internal/stats', '--strict');
    expect(result.code).toBe(12);
    expect(result.stderr).toContain('error: refusing GET /api/internal/stats: internal path, not part of the public contract');
    expect(result.stdout).toBe('');
  });

  it('--strict lets a published operation through quietly', async () => {
    const result = await api('GET', '/api/reference/enums', '--strict');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).success).toBe(true);
  });

  it('--spec URL on another origin is fetched and checked against; an unreachable one is a warning naming it', async () => {
    const other = await startMock({ records: 1, seed: 3, http: true });
    try {
      const checked = await api('GET', '/api/reference/enums', '--strict', '--spec', `${other.env.APPRAISAL_BASE_URL}/api/openapi.json`);
      expect(checked.stderr).toBe('');
      expect(checked.code).toBe(0);
    } finally {
      await other.stop();
    }
    const unreachable = await api('GET', '/api/reference/enums', '--spec', 'https://127.0.0.2:1/openapi.json');
    expect(unreachable.code).toBe(0);
    expect(unreachable.stderr).toMatch(
      /^warning: could not load the service description: GET https:\/\/127\.0\.0\.2:1\/openapi\.json: .*; skipping the public-contract check$/m,
    );
    expect(unreachable.stderr).not.toMatch(/constructor/);
  });

  it('--spec FILE that is no OpenAPI document: a warning and the request sent; --strict refuses with exit 2, nothing sent', async () => {
    const dir = tempDir('api-bad-spec-');
    writeFileSync(join(dir, 'bad.json'), '<html>\n');
    const admin = adminOf(mock);
    await admin.clearRequests();
    const sent = await run(['api', 'GET', '/api/properties', '--spec', 'bad.json', '-f', 'limit=2', '--retries', '0'], { env, cwd: dir });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toBe(
      'warning: could not load the service description: --spec bad.json is not a JSON OpenAPI document; skipping the public-contract check\n',
    );
    expect(JSON.parse(sent.stdout).items).toHaveLength(2);
    expect((await admin.apiRequests()).map((r) => r.path)).toEqual(['/api/properties']);
    await admin.clearRequests();
    const strict = await run(['api', 'GET', '/api/properties', '--spec', 'bad.json', '--strict', '--retries', '0'], { env, cwd: dir });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(
      /^error: cannot check GET \/api\/properties against the public contract: --spec bad\.json is not a JSON OpenAPI document$/m,
    );
    expect(strict.stdout).toBe('');
    expect(await admin.apiRequests()).toEqual([]);
    // A path that names no file is a typo to fix, not a description that failed: still an error.
    const missing = await run(['api', 'GET', '/api/properties', '--spec', 'missing.json'], { env, cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('error: cannot read --spec missing.json: no such file or directory\n');
  });

  it('--all on an operation the description says answers one record is a usage error (exit 2) before any request', async () => {
    const admin = adminOf(mock);
    await api('GET', '/api/reference/enums'); // the description cached, so the log below holds only what --all sends
    await admin.clearRequests();
    const result = await api('GET', '/api/keys/current', '--all');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: --all pages through a collection, but GET /api/keys/current (getCurrentApiKey) returns one record\nhint: drop --all to get the record\n',
    );
    expect(result.stdout).toBe('');
    expect(await admin.apiRequests()).toEqual([]);
  });

  it('--all on a published collection whose answer is no collection envelope is still a broken contract (exit 9)', async () => {
    const admin = adminOf(mock);
    await admin.queueFault({ path: '/api/properties', method: 'GET', fault: 'malformed-envelope', count: 1 });
    const result = await api('GET', '/api/properties', '--all', '-o', 'ndjson');
    expect(result.code).toBe(9);
    expect(result.stderr).toMatch(/^error: page 1 of \/api\/properties: /m);
    expect(result.stderr).not.toContain('returns one record');
  });

  it.each([['x-api-key: apk_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'], ['Authorization: Bearer abc']])(
    'refuses the header %s with exit 2',
    async (header) => {
      const result = await api('GET', '/api/properties', '-H', header);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: refusing to set the (x-api-key|authorization) header by hand/m);
      expect(result.stderr).not.toContain('BBBBBBBB');
    },
  );

  it('refuses a key in the query string', async () => {
    const result = await api('GET', '/api/properties?api_key=abc');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to send a credential in the URL');
  });

  it('maps non-2xx answers to the same exit codes and messages as every other command', async () => {
    const missing = await api('GET', '/api/properties/00000000-0000-4000-8000-000000000000');
    expect(missing.code).toBe(6);
    const rejected = await api('POST', '/api/properties', '--data', '{"name":""}', '--no-validate');
    expect(rejected.code).toBe(7);
    const unauthorized = await run(['api', 'GET', '/api/properties'], {
      env: { ...env, APPRAISAL_API_KEY: 'apk_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' },
    });
    expect(unauthorized.code).toBe(4);
    expect(unauthorized.stderr).not.toContain('BBBBBBBB');
    const unavailable = await api('GET', '/api/properties', '-H', 'x-mock-fault: status=503');
    expect(unavailable.code).toBe(8);
    const same = await run(['props', 'get', '00000000-0000-4000-8000-000000000000', '--retries', '0'], { env });
    expect(
      lines(missing.stderr)
        .find((l) => l.startsWith('error:'))
        ?.replace(/request id \S+/, ''),
    ).toBe(
      lines(same.stderr)
        .find((l) => l.startsWith('error:'))
        ?.replace(/request id \S+/, ''),
    );
  });

  it('--list prints the published operations from /api/openapi.json', async () => {
    const result = await api('--list', '-o', 'json');
    expect(result.code, result.stderr).toBe(0);
    const operations = JSON.parse(result.stdout) as Array<{ method: string; path: string }>;
    expect(operations).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/properties' }));
    expect(operations).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/keys/current' }));
    expect(operations.some((o) => o.path.startsWith('/__mock'))).toBe(false);
    const table = await api('--list', '-o', 'table');
    expect(table.stdout).toMatch(/METHOD|method/);
  });

  it('caches the service description per origin and uses it without a request while fresh', async () => {
    const own = isolatedEnv(mock.env);
    await run(['api', 'GET', '/api/reference/enums'], { env: own });
    const { readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const cached = readdirSync(join(own.APPRAISAL_CONFIG_DIR!, 'cache'));
    expect(cached).toHaveLength(1);
    expect(cached[0]).toMatch(/^description-[0-9a-f]{32}\.json$/);
    const again = await run(['api', 'GET', '/api/reference/enums', '--strict', '-v'], { env: own });
    expect(again.code).toBe(0);
    // No request for it (--verbose traces each as `> GET URL`); it only names the cached copy it used.
    expect(again.stderr).not.toMatch(/^> GET \S*\/api\/openapi\.json/m);
    expect(again.stderr).toMatch(/^service description: \S+\/api\/openapi\.json \(cached copy of /m);
  });
});
