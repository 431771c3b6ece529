// The CLI bound to a service whose published description differs from our model: the mock serves
// its `alternative` description (assignments under /api/appraisal-assignments, listFiles removed,
// designations as {success, data} without pages, an extra yearBuiltFrom filter, the document at
// /api/v2/openapi.json announced by a service-desc Link). One config dir for the whole file, so the
// description cache is shared between runs; the mock's request log counts what was sent.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import { mockAdmin, type RequestLogEntry, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';

let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
const cli = (args: string[], extra: Record<string, string> = {}) => run(args, { env: { ...env, ...extra } });
const apiRequests = async (): Promise<RequestLogEntry[]> => (await admin.requests()).filter((r) => r.path.startsWith('/api/'));
const descriptionRequests = (log: RequestLogEntry[]) => log.filter((r) => r.path.endsWith('openapi.json'));

beforeAll(async () => {
  mock = await startMock({ records: 12, description: 'alternative' });
  admin = mockAdmin(mock);
  env = { ...isolatedEnv(), ...mock.env };
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

describe('a service whose description differs from our model', () => {
  it('discovers the description through the service-desc Link, without the key, and the moved operation works at its published path', async () => {
    const result = await cli(['assignments', 'list', '-o', 'ndjson', '--max-items', '3']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(3);
    const log = await apiRequests();
    expect(log.map((r) => `${r.method} ${r.path} ${r.status} ${r.keyPrefix ?? '-'}`)).toEqual([
      'GET /api/openapi.json 404 -',
      'GET /api/v2/openapi.json 200 -',
      expect.stringMatching(/^GET \/api\/appraisal-assignments 200 apk_/),
    ]);
  });

  it('refuses a command whose operation is not published before any request (exit 12), and does not re-fetch the fresh cache', async () => {
    await admin.clearRequests();
    const result = await cli(['files', 'list']);
    expect(result.code).toBe(12);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: `appraisal files list` needs GET \/api\/files \(listFiles\), which the service does not publish \(description: https:\/\/\S+\/api\/v2\/openapi\.json\)/,
    );
    expect(result.stderr).toContain('appraisal api --list');
    expect(await apiRequests()).toEqual([]);
  });

  it('api --strict refuses an operation the service does not publish with exit 12, as `api OPERATION_ID` does, before any request', async () => {
    await cli(['spec', 'sync']);
    await admin.clearRequests();
    const byPath = await cli(['api', 'GET', '/api/files', '--strict']);
    expect(byPath.code).toBe(12);
    expect(byPath.stdout).toBe('');
    expect(byPath.stderr).toMatch(
      /^error: refusing GET \/api\/files: internal path, not part of the public contract; published methods for this path: POST$/m,
    );
    const byId = await cli(['api', 'listFiles']);
    expect(byId.code).toBe(12);
    expect(await apiRequests()).toEqual([]);
  });

  it('reads the envelope form from the response schema: designations come as {success, data} in one answer', async () => {
    await admin.clearRequests();
    const result = await cli(['ref', 'designations', '-o', 'ndjson']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const codes = result.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { code: string }).code);
    expect(codes.length).toBeGreaterThan(3);
    expect(codes).toContain('MAI');
    const log = await apiRequests();
    expect(log.map((r) => `${r.path} ${JSON.stringify(r.query)}`)).toEqual(['/api/reference/designations {}']);
  });

  it('takes list filters from the published query parameters: --param for an extra one, refused for an unpublished one', async () => {
    const filtered = await cli(['props', 'list', '--param', 'yearBuiltFrom=1990', '-o', 'ndjson', '--fields', 'id,yearBuilt']);
    expect(filtered.code).toBe(0);
    const years = filtered.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { yearBuilt: number }).yearBuilt);
    expect(years.length).toBeGreaterThan(0);
    expect(years.every((year) => year >= 1990)).toBe(true);
    await admin.clearRequests();
    const refused = await cli(['clients', 'list', '--param', 'yearBuiltFrom=1990']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^error: --param yearBuiltFrom: the service does not publish a query parameter "yearBuiltFrom" for GET \/api\/clients/,
    );
    expect(refused.stderr).toMatch(/hint: published query parameters: q, clientType, updatedSince/);
    expect(await apiRequests()).toEqual([]);
  });

  it('api OPERATION_ID goes to the published path; its --help comes from the description', async () => {
    const [id] = await admin.ids('/api/appraisal-assignments');
    const result = await cli(['api', 'getAssignment', '--path-param', `id=${id}`, '--strict']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { id: string }).id).toBe(id);
    const listed = await cli(['api', 'listProperties', '--all', '-o', 'csv', '--max-items', '2']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split('\r\n')).toHaveLength(3);
    expect(listed.stdout).toMatch(/^id,name,/);
    const help = await cli(['api', 'listProperties', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: appraisal api listProperties/);
    expect(help.stdout).toMatch(/yearBuiltFrom\s+only properties built in or after this year/);
    const missing = await cli(['api', 'getAssignment']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/getAssignment needs --path-param id=/);
  });

  it('checks request bodies against the published schema before sending (exit 2 with JSON paths)', async () => {
    await admin.clearRequests();
    const result = await cli(['clients', 'create', '-f', 'name=', '-f', 'clientType=bank']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: the request body does not match the published schema of createClient: \$\.name must NOT have fewer than 1 characters; \$\.clientType must be one of/,
    );
    expect(result.stderr).toContain('--no-validate');
    expect(await apiRequests()).toEqual([]);
  });

  it('--validate reports records that break the response schema: count, first ones with id and path, exit 9', async () => {
    // A stricter copy of the description, given for this run only: every property needs a field none has.
    const dir = tempDir('appraisal-description-validate-');
    const strict = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
      components: { schemas: { Property: { required?: string[] } } };
    };
    strict.components.schemas.Property.required = [...(strict.components.schemas.Property.required ?? []), 'surveyor'];
    writeFileSync(join(dir, 'strict.json'), JSON.stringify(strict));
    const result = await cli(['props', 'list', '--validate', '--max-items', '7', '-o', 'ndjson', '--spec', join(dir, 'strict.json')]);
    expect(result.code).toBe(9);
    expect(result.stdout.trim().split('\n')).toHaveLength(7);
    expect(result.stderr).toMatch(/warning: record [0-9a-f-]{36}: \$\.surveyor is required/);
    expect(result.stderr.match(/warning: record /g)).toHaveLength(5);
    expect(result.stderr).toMatch(/error: 7 of 7 records do not match the published schema of listProperties/);
    const clean = await cli(['props', 'list', '--validate', '--max-items', '7', '-o', 'ndjson']);
    expect(clean.stderr).toBe('');
    expect(clean.code).toBe(0);
  });

  it('revalidates a stale copy with its ETag (304) and never asked for the description in between', async () => {
    const before = descriptionRequests(await admin.requests());
    expect(before).toEqual([]);
    await admin.clearRequests();
    const stale = await cli(['spec', 'show', '-o', 'json'], { APPRAISAL_SPEC_MAX_AGE: '0' });
    expect(stale.code).toBe(0);
    expect(JSON.parse(stale.stdout)).toMatchObject({ kind: 'service', version: '0.2.0-alternative', operations: 36, fromCache: true });
    expect(descriptionRequests(await admin.requests()).map((r) => `${r.path} ${r.status}`)).toEqual(['/api/v2/openapi.json 304']);
  });

  it('auth login --spec-url keeps where the description is published in the profile', async () => {
    const own = isolatedEnv({ APPRAISAL_CA_FILE: mock.env.APPRAISAL_CA_FILE });
    const specUrl = `${mock.baseUrl}/api/v2/openapi.json`;
    const login = await run(
      ['auth', 'login', '--profile', 'alt', '--base-url', mock.baseUrl, '--with-key', '--insecure-storage', '--spec-url', specUrl],
      {
        env: own,
        stdin: `${mock.env.APPRAISAL_API_KEY}\n`,
      },
    );
    expect(login.code).toBe(0);
    await admin.clearRequests();
    const shown = await run(['spec', 'show', '--profile', 'alt', '-o', 'json'], { env: own });
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ kind: 'profile', source: specUrl, version: '0.2.0-alternative' });
    // Straight to the profile's URL: no discovery request for /api/openapi.json.
    expect(descriptionRequests(await admin.requests()).map((r) => r.path)).toEqual(['/api/v2/openapi.json']);
  });

  it('spec check lists exactly the differences, by command, and fails for the missing operation', async () => {
    const result = await cli(['spec', 'check', '-o', 'json']);
    expect(result.code).toBe(12);
    const rows = JSON.parse(result.stdout) as Array<{
      command: string;
      status: string;
      publishedAs: string | null;
      changes: string | null;
    }>;
    const summary = rows.map(
      (row) => `${row.command}: ${row.status}${row.publishedAs ? ` ${row.publishedAs}` : ''}${row.changes ? ` (${row.changes})` : ''}`,
    );
    expect(summary.sort()).toEqual(
      [
        'assignments create: moved POST /api/appraisal-assignments',
        'assignments delete: moved DELETE /api/appraisal-assignments/{id}',
        'assignments get: moved GET /api/appraisal-assignments/{id}',
        'assignments import: changed (query parameters added: yearBuiltFrom)',
        'assignments import: moved GET /api/appraisal-assignments',
        'assignments import: moved PATCH /api/appraisal-assignments/{id}',
        'assignments import: moved POST /api/appraisal-assignments',
        'assignments link: moved PUT /api/appraisal-assignments/{id}/properties/{propertyId}',
        'assignments list: moved GET /api/appraisal-assignments',
        'assignments properties: moved GET /api/appraisal-assignments/{id}/properties',
        'assignments unlink: moved DELETE /api/appraisal-assignments/{id}/properties/{propertyId}',
        'assignments update: moved PATCH /api/appraisal-assignments/{id}',
        // `export --dir` reads every family: the moved one at its published path, the changed ones as
        // changed, and it needs listFiles too.
        'export: changed (query parameters added: yearBuiltFrom)',
        'export: changed (response schema changed; query parameters removed: page, limit)',
        'export: missing',
        'export: moved GET /api/appraisal-assignments',
        'files list: missing',
        'props import: changed (query parameters added: yearBuiltFrom)',
        'props list: changed (query parameters added: yearBuiltFrom)',
        'ref designations: changed (response schema changed; query parameters removed: page, limit)',
        // `sync` reads every family, as export does.
        'sync: changed (query parameters added: yearBuiltFrom)',
        'sync: missing',
        'sync: moved GET /api/appraisal-assignments',
      ].sort(),
    );
    const refused = /error: 3 commands cannot run against this service: (.*)/.exec(result.stderr)?.[1];
    expect(refused?.split(', ').sort()).toEqual(['export', 'files list', 'sync']);
  });

  it('spec diff shows what changed since the cached copy, breaking changes first', async () => {
    await admin.call('POST', '/__mock/description', { variant: 'standard' });
    try {
      const result = await cli(['spec', 'diff', '-o', 'json']);
      expect(result.code).toBe(0);
      const rows = JSON.parse(result.stdout) as Array<{ id: string; change: string; breaking: boolean; detail: string | null }>;
      expect(rows.map((row) => `${row.change} ${row.id}`).sort()).toEqual(
        [
          ...[
            'createAssignment',
            'deleteAssignment',
            'getAssignment',
            'getOpenApiDocument',
            'linkAssignmentProperty',
            'listAssignmentProperties',
            'listAssignments',
            'unlinkAssignmentProperty',
            'updateAssignment',
          ].map((id) => `moved ${id}`),
          'changed listDesignations',
          'changed listProperties',
          'added listFiles',
        ].sort(),
      );
      expect(rows.at(-1)).toMatchObject({ change: 'added', id: 'listFiles', breaking: false });
      expect(rows.slice(0, -1).every((row) => row.breaking)).toBe(true);
      expect(rows.find((row) => row.id === 'listProperties')!.detail).toBe('query parameters removed: yearBuiltFrom');
      // The cache now holds the standard description: files list works again.
      expect((await cli(['files', 'list', '--max-items', '1', '-o', 'json'])).code).toBe(0);
    } finally {
      await admin.call('POST', '/__mock/description', { variant: 'alternative' });
    }
  });
});

describe('an RFC 8631 service-desc Link on any answer', () => {
  const show = (log: RequestLogEntry[]) => log.map((r) => `${r.method} ${r.path} ${r.status} ${r.keyPrefix ?? '-'}`);

  it('is remembered when it differs from the description in use, and the next run asks there first (same origin)', async () => {
    const own = { ...isolatedEnv(), ...mock.env };
    const listOne = (args: string[]) => run([...args, '--max-items', '1', '-o', 'json'], { env: own });
    await admin.call('POST', '/__mock/description', { variant: 'standard' });
    try {
      expect((await listOne(['props', 'list'])).code).toBe(0); // cached: /api/openapi.json, fresh for a day
      // The deployment changes: assignments move, the description is at /api/v2/openapi.json, and
      // every answer says so. The cached copy is still fresh, so nobody asks for the description…
      await admin.call('POST', '/__mock/description', { variant: 'alternative' });
      await admin.clearRequests();
      const seen = await listOne(['props', 'list']);
      expect(seen.stderr).toBe('');
      expect(seen.code).toBe(0);
      expect(show(await apiRequests())).toEqual([expect.stringMatching(/^GET \/api\/properties 200 apk_/)]);
      // …but the Link on that answer was remembered: the next run fetches the announced document
      // first (without the key) and the moved operation works. Without it: a fresh cache, a 404.
      await admin.clearRequests();
      const next = await listOne(['assignments', 'list']);
      expect(next.stderr).toBe('');
      expect(next.code).toBe(0);
      expect(show(await apiRequests())).toEqual([
        'GET /api/v2/openapi.json 200 -',
        expect.stringMatching(/^GET \/api\/appraisal-assignments 200 apk_/),
      ]);
      // The same Link again is the description in use now: nothing more to remember, no request.
      await admin.clearRequests();
      expect((await listOne(['assignments', 'list'])).code).toBe(0);
      expect(descriptionRequests(await apiRequests())).toEqual([]);
    } finally {
      await admin.call('POST', '/__mock/description', { variant: 'alternative' });
    }
  });

  it('announcing another origin: the next run fetches it there without the key', async () => {
    const other = await startMock({ records: 1, seed: 3, http: true });
    const otherAdmin = mockAdmin(other);
    const own = { ...isolatedEnv(), ...mock.env };
    const listOne = (args: string[]) => run([...args, '--max-items', '1', '-o', 'json'], { env: own });
    try {
      await admin.call('POST', '/__mock/description', { variant: 'standard' });
      expect((await listOne(['props', 'list'])).code).toBe(0);
      await admin.call('POST', '/__mock/description', { variant: 'standard', link: `${other.baseUrl}/api/openapi.json` });
      expect((await listOne(['props', 'list'])).code).toBe(0);
      await admin.clearRequests();
      await otherAdmin.clearRequests();
      const next = await run(['spec', 'show', '-o', 'json'], { env: own });
      expect(next.stderr).toBe('');
      expect(JSON.parse(next.stdout)).toMatchObject({ kind: 'service', source: `${other.baseUrl}/api/openapi.json` });
      expect(show(await otherAdmin.apiRequests())).toEqual(['GET /api/openapi.json 200 -']);
      expect(descriptionRequests(await apiRequests())).toEqual([]);
    } finally {
      await admin.call('POST', '/__mock/description', { variant: 'alternative' });
      await otherAdmin.close();
      await other.stop();
    }
  });
});

describe('spec sync, validation and lists answered in one piece', () => {
  const show = (log: RequestLogEntry[]) => log.map((r) => `${r.method} ${r.path} ${r.status} ${r.keyPrefix ?? '-'}`);

  it('spec sync fetches now, fresh cache or not, and says what it did', async () => {
    const own = { ...isolatedEnv(), ...mock.env };
    await admin.clearRequests();
    const first = await run(['spec', 'sync', '-o', 'json'], { env: own });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe(`synced: downloaded ${mock.baseUrl}/api/v2/openapi.json (36 operations)\n`);
    expect(JSON.parse(first.stdout)).toMatchObject({ kind: 'service', version: '0.2.0-alternative', fromCache: false });
    expect(show(await apiRequests())).toEqual(['GET /api/openapi.json 404 -', 'GET /api/v2/openapi.json 200 -']);
    await admin.clearRequests();
    const again = await run(['spec', 'sync', '-o', 'json'], { env: own });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      /^synced: \S+\/api\/v2\/openapi\.json is unchanged since \S+ \(the service answered 304 Not Modified\)\n$/,
    );
    expect(show(await apiRequests())).toEqual(['GET /api/v2/openapi.json 304 -']);
  });

  it('get --validate: a record that breaks the response schema is printed, then exit 9 naming the field', async () => {
    const [id] = await admin.ids('/api/properties');
    await admin.call('POST', '/__mock/faults', { path: `/api/properties/${id}`, fault: 'schema-violation' });
    const result = await cli(['props', 'get', id!, '--validate', '-o', 'json']);
    expect(result.code).toBe(9);
    expect((JSON.parse(result.stdout) as { id: string }).id).toBe(id);
    expect(result.stderr).toMatch(/\$\.updatedAt must be string/);
    expect(result.stderr).toMatch(/^error: .*getProperty/m);
  });

  it('api and update: a body breaking the published request schema is exit 2 before any request; --no-validate sends it', async () => {
    const [client] = await admin.ids('/api/clients');
    await admin.clearRequests();
    const update = await cli(['clients', 'update', client!, '-f', 'clientType=nonsense']);
    expect(update.code).toBe(2);
    expect(update.stderr).toMatch(
      /^error: the request body does not match the published schema of updateClient: \$\.clientType must be one of: "lender"/,
    );
    const refused = await cli(['api', 'POST', '/api/clients', '--data', '{"name":"","clientType":"bank"}']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^error: the request body does not match the published schema of createClient: \$\.name must NOT have fewer than 1 characters; \$\.clientType must be one of/m,
    );
    // (The description may be fetched: the shared cache came from the spec diff test's service.)
    const sentToService = async () =>
      (await apiRequests()).filter((r) => !r.path.endsWith('openapi.json')).map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(await sentToService()).toEqual([]);
    const sent = await cli(['api', 'POST', '/api/clients', '--data', '{"name":"","clientType":"bank"}', '--no-validate']);
    expect(sent.code).toBe(7); // the service's own 422
    expect(await sentToService()).toEqual(['POST /api/clients 422']);
  });

  it('a list answered in one piece refuses --page, --page-size and --resume it cannot honour, before any request', async () => {
    await admin.clearRequests();
    const page = await cli(['ref', 'designations', '--page', '2']);
    expect(page.code).toBe(2);
    expect(page.stderr).toMatch(
      /^error: --page: GET \/api\/reference\/designations \(listDesignations\) answers its whole list in one piece \(its published answer is not paged\) and publishes no "page" query parameter\nhint: drop --page; --max-items N stops after N records\n$/,
    );
    const size = await cli(['ref', 'designations', '--page-size', '5']);
    expect(size.code).toBe(2);
    expect(size.stderr).toMatch(
      /^error: --page-size: GET \/api\/reference\/designations \(listDesignations\) answers its whole list in one piece/,
    );
    const dir = tempDir('appraisal-one-piece-');
    const resumed = await cli(['ref', 'designations', '--resume', '--out', join(dir, 'designations.ndjson'), '-o', 'ndjson']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(
      /^error: --resume: GET \/api\/reference\/designations \(listDesignations\) answers its whole list in one piece .*; there is no page to continue after/,
    );
    expect(readdirSync(dir)).toEqual([]);
    expect((await apiRequests()).filter((r) => !r.path.endsWith('openapi.json'))).toEqual([]);
  });

  it('a list answered in one piece that publishes page and limit gets --page and --page-size as those parameters', async () => {
    // The alternative designations answer in one piece; this description says so and publishes page/limit.
    const dir = tempDir('appraisal-one-piece-spec-');
    const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    document.paths['/api/reference/designations']!.get.responses['200'] = {
      description: 'every designation',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { success: { type: 'boolean' }, data: { type: 'array', items: { $ref: '#/components/schemas/Designation' } } },
          },
        },
      },
    };
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(document));
    await admin.clearRequests();
    const result = await cli(['ref', 'designations', '--page', '1', '--page-size', '2', '-o', 'ndjson', '--spec', join(dir, 'spec.json')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((await apiRequests()).map((r) => `${r.path} ${JSON.stringify(r.query)}`)).toEqual([
      '/api/reference/designations {"page":"1","limit":"2"}',
    ]);
  });
});
