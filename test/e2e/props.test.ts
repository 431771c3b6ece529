// `appraisal props …` end to end: the built binary against `appraisal mock`, asserting stdout,
// stderr and exit code (issue 3's "done when").
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

const RECORDS = 1200;
let mock: MockServer;
let admin: MockAdmin;
let truth: string[];
let env: Record<string, string | undefined>;

const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  run(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '10', ...extra } });

function parseOutput(format: string, text: string): string[] {
  if (format === 'json') return (JSON.parse(text) as Array<{ id: string }>).map((r) => r.id);
  if (format === 'ndjson')
    return text
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
  // csv: header row, then the id in the first column.
  const lines = text.trim().split('\r\n');
  expect(lines[0]!.split(',')[0]).toBe('id');
  return lines.slice(1).map((line) => line.split(',')[0]!);
}

beforeAll(async () => {
  mock = await startMock({ records: RECORDS, seed: 3 });
  admin = mockAdmin(mock);
  truth = await admin.ids('/api/properties');
  env = { ...isolatedEnv(), ...mock.env };
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});
beforeEach(async () => {
  await admin.clearFaults();
});

describe('props list: exports', () => {
  it.each(['json', 'ndjson', 'csv'])('exports all %s records in order, count equal to total', async (format) => {
    const result = await cli(['props', 'list', '-o', format, '--page-size', '100', '--concurrency', '8', '--fields', 'id,name']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const ids = parseOutput(format, result.stdout);
    expect(ids).toHaveLength(RECORDS);
    expect(new Set(ids).size).toBe(RECORDS);
    expect(ids).toEqual(truth);
  });

  it('writes --out atomically and says how many records it wrote', async () => {
    const dir = tempDir('props-out-');
    const out = join(dir, 'props.ndjson');
    const result = await cli(['props', 'list', '--out', out, '--page-size', '100']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('1,200 properties');
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(RECORDS);
    expect(readdirSync(dir)).toEqual(['props.ndjson']);
  });

  it('leaves no file at --out when the export fails mid-way, only the resumable partial beside it', async () => {
    const dir = tempDir('props-out-');
    const out = join(dir, 'props.csv');
    await admin.queueFaults([{ path: '/api/properties', query: { page: '5' }, fault: 'status=401' }]);
    const result = await cli(['props', 'list', '--out', out, '--page-size', '100', '--concurrency', '1']);
    expect(result.code).toBe(4);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('error:'))).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: GET \/api\/properties\?page=5.*401 Unauthorized/m);
    expect(readdirSync(dir).sort()).toEqual(['.props.csv.checkpoint', '.props.csv.partial']);
  });

  it('honours --max-items and --page', async () => {
    const limited = await cli(['props', 'list', '-o', 'ndjson', '--max-items', '7']);
    expect(limited.code).toBe(0);
    expect(parseOutput('ndjson', limited.stdout)).toEqual(truth.slice(0, 7));
    const page = await cli(['props', 'list', '-o', 'json', '--page', '2', '--page-size', '10']);
    expect(page.code).toBe(0);
    expect(parseOutput('json', page.stdout)).toEqual(truth.slice(10, 20));
  });

  it('refuses a --param that a filter flag already sets, before any request (one of them would be lost)', async () => {
    await admin.queueFaults([{ path: '/api/properties', fault: 'status=500', count: 5 }]);
    const result = await cli(['props', 'list', '--type', 'land', '--param', 'propertyType=office', '-o', 'ndjson']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --param propertyType: --type already sets it; give it once\n');
    expect(result.stdout).toBe('');
  });

  it('retries a 503 and a 429 on a read, then succeeds with every record', async () => {
    await admin.queueFaults([
      { path: '/api/properties', query: { page: '2' }, fault: 'status=503', count: 2 },
      { path: '/api/properties', query: { page: '3' }, fault: 'status=429;retry-after=1' },
    ]);
    const result = await cli(['props', 'list', '-o', 'ndjson', '--page-size', '100']);
    expect(result.code).toBe(0);
    expect(parseOutput('ndjson', result.stdout)).toEqual(truth);
  });

  it('times out a hung response with exit 3', async () => {
    await admin.queueFaults([{ path: '/api/properties', fault: 'hang', count: 5 }]);
    const result = await cli(['props', 'list', '--timeout', '1', '--retries', '0']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: .*timed out after 1s/);
  });

  it('fails with exit 9 on a malformed envelope', async () => {
    await admin.queueFaults([{ path: '/api/properties', fault: 'malformed-envelope' }]);
    const result = await cli(['props', 'list']);
    expect(result.code).toBe(9);
    expect(result.stderr).toMatch(/^error: page 1 of \/api\/properties: the answer is not a collection envelope/);
    expect(result.stdout).not.toContain('"id"');
  });
});

describe('props get/create/update/delete', () => {
  it('round-trips a property', async () => {
    const created = await cli([
      'props',
      'create',
      '-o',
      'json',
      '-f',
      'name=Harbor Point',
      '-f',
      'propertyType=office',
      '-f',
      'address.line1=1 Pier Rd',
      '-f',
      'address.city=Boston',
      '-f',
      'address.region=MA',
      '-f',
      'address.postalCode=02110',
      '-f',
      'address.country=US',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const record = JSON.parse(created.stdout) as { id: string; name: string };
    expect(record.name).toBe('Harbor Point');
    const updated = await cli(['props', 'update', record.id, '-o', 'json', '-F', 'yearBuilt=1998']);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ id: record.id, yearBuilt: 1998 });
    const fetched = await cli(['props', 'get', record.id, '-o', 'json']);
    expect(JSON.parse(fetched.stdout)).toMatchObject({ id: record.id, name: 'Harbor Point', yearBuilt: 1998 });
    const deleted = await cli(['props', 'delete', record.id, '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain(`Deleted property ${record.id}`);
    const gone = await cli(['props', 'get', record.id]);
    expect(gone.code).toBe(6);
    expect(gone.stderr).toMatch(/^error: GET \/api\/properties\/.*404 Not Found/);
  });

  it('update sends one nested field as a merge patch, without the fields its object requires on create', async () => {
    const id = truth[1]!;
    const updated = await cli(['props', 'update', id, '-o', 'json', '-f', 'address.city=Cambridge']);
    expect(updated.stderr).toBe('');
    expect(updated.code).toBe(0);
    const address = (JSON.parse(updated.stdout) as { address: Record<string, string> }).address;
    expect(address.city).toBe('Cambridge');
    expect(address.line1).toBeTruthy();
    // A nested value of the wrong type is still refused before any request.
    const wrong = await cli(['props', 'update', id, '-F', 'address.city=5']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^error: .*\$\.address\.city must be string/);
    expect(wrong.stderr).not.toMatch(/is required/);
  });

  it('-f for a field published as a number: the hint says -F, which sends it typed', async () => {
    const id = truth[1]!;
    const text = await cli(['props', 'update', id, '-f', 'yearBuilt=1990']);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/^error: .*\$\.yearBuilt must be integer/m);
    expect(text.stderr).toContain('hint: -f sends text: give yearBuilt as a number, a boolean or null with -F yearBuilt=VALUE');
    const typed = await cli(['props', 'update', id, '-o', 'json', '-F', 'yearBuilt=1990']);
    expect(typed.code, typed.stderr).toBe(0);
    expect((JSON.parse(typed.stdout) as { yearBuilt: number }).yearBuilt).toBe(1990);
  });

  it('a delete whose answer was lost, sent again, says the first attempt may have deleted it (exit 6)', async () => {
    const id = truth[2]!;
    await admin.queueFaults([{ path: `/api/properties/${id}`, method: 'DELETE', fault: 'lost-answer' }]);
    const result = await cli(['props', 'delete', id, '--yes']);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^error: DELETE \/api\/properties\/.*404 Not Found/);
    expect(result.stderr).toMatch(
      /^hint: the DELETE was sent 2 times: an earlier attempt, whose answer did not arrive, may have deleted it$/m,
    );
    truth.splice(2, 1);
  });

  it('refuses a malformed id before any request (exit 2)', async () => {
    await admin.clearRequests();
    const result = await cli(['props', 'get', 'not-a-uuid']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(/^error: property id must be a UUID/);
    expect((await admin.requests()).filter((r) => r.path.startsWith('/api/properties'))).toEqual([]);
  });

  it('reports the service rejecting a record (422, exit 7)', async () => {
    // --no-validate: the point is the service's own answer, not the CLI's check against the schema.
    const result = await cli(['props', 'create', '-f', 'name=Only a name', '--no-validate']);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/^error: POST \/api\/properties: 422/);
  });

  it('a create, update or new key whose output cannot be written is refused before anything is sent (exit 2)', async () => {
    const record = ['-f', 'name=Never made', '-f', 'propertyType=office', '--no-validate'];
    const scratch = tempDir('appraisal-props-out-');
    await admin.clearRequests();
    const refusals: Array<[string[], RegExp]> = [
      [['props', 'create', ...record, '-o', 'parquet'], /^error: -o parquet writes a list to a file; one record is shown with/],
      [['props', 'create', ...record, '--out', join(scratch, 'missing', 'x.json')], /^error: --out .*: directory .* does not exist/],
      [['props', 'create', ...record, '--out', join(scratch, 'x.weird')], /^error: --out .*: unknown extension \.weird/],
      [['props', 'update', truth[0]!, '-f', 'name=Never changed', '-o', 'parquet'], /^error: -o parquet writes a list/],
      [['keys', 'create', '--name', 'never', '--scope', 'properties:read', '-o', 'parquet'], /^error: -o parquet writes a list/],
    ];
    for (const [args, message] of refusals) {
      const refused = await cli(args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(message);
    }
    const sent = (await admin.requests()).filter((entry) => entry.method !== 'GET');
    expect(sent).toEqual([]);
    expect(readdirSync(scratch)).toEqual([]);
    // Its help offers the formats one record is written in.
    const help = await cli(['props', 'create', '--help']);
    expect(help.stdout).toMatch(/output format: table, json, ndjson, csv\s+\(default/);
    expect((await cli(['props', 'list', '--help'])).stdout).toMatch(/output format: table, json, ndjson, csv, parquet/);
  });

  it('never retries a POST', async () => {
    await admin.queueFaults([{ path: '/api/properties', method: 'POST', fault: 'status=503', count: 3 }]);
    await admin.clearRequests();
    const result = await cli(['props', 'create', '-f', 'name=x', '-f', 'propertyType=office', '--no-validate']);
    expect(result.code).toBe(8);
    const posts = (await admin.requests()).filter((r) => r.method === 'POST' && r.path === '/api/properties');
    expect(posts).toHaveLength(1);
  });

  it('fails with exit 9 when a single record comes back without an id', async () => {
    await admin.queueFaults([{ path: `/api/properties/${truth[0]}`, fault: 'missing-id' }]);
    const result = await cli(['props', 'get', truth[0]!, '-o', 'json']);
    expect(result.code).toBe(9);
    expect(result.stderr).toMatch(/^error: GET \/api\/properties\/.*not a record with a string id/);
  });

  it('gives 401 (exit 4) for an unknown key and 403 (exit 5) for a read-only key on create', async () => {
    const unknown = await cli(['props', 'list'], { APPRAISAL_API_KEY: 'apk_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('apk_AAAAAAAA');
    expect(unknown.stderr).not.toContain('BBBBBBBBBBBBBBBB');
    const readOnly = await admin.createKey(['properties:read']);
    const denied = await cli(['props', 'create', '-f', 'name=x', '-f', 'propertyType=office', '--no-validate'], {
      APPRAISAL_API_KEY: readOnly.secret,
    });
    expect(denied.code).toBe(5);
    expect(denied.stderr).toMatch(/properties:write/);
    expect(denied.stderr).not.toContain(readOnly.secret);
  });

  it('keeps no stray files', () => {
    expect(existsSync(join(env.HOME!, 'config', 'config.json'))).toBe(false);
  });
});
