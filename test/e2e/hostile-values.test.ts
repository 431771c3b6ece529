// Values the service sends that the CLI must not change or refuse wrongly (issue 26 items 16, 18),
// against the hostile test server: an integer beyond 2^53 is refused in every format with one
// contract error (exit 9) rather than printed changed; the same digits in a string pass untouched;
// a body starting with a UTF-8 byte order mark is read, not taken for a web page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { run } from '../helpers/run.js';
import { json, text } from '../hostile/answers.js';
import { startHostile, type HostileServer } from '../hostile/server.js';

const KEY = 'apk_Values01_ValuesS3cretValuesS3cretValues42';
const BIG = '9007199254740993';
const ID = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';
let server: HostileServer;

const rawPage = (items: string) =>
  text(200, `{"items":[${items}],"pagination":{"page":1,"limit":1,"total":1,"pages":1}}`, { 'content-type': 'application/json' });
const cli = (args: string[]) =>
  run([...args, '--retries', '0'], { env: isolatedEnv({ APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY }) });

beforeAll(async () => {
  server = await startHostile();
  server.on('GET', '/api/openapi.json', json(404, { error: { code: 'NOT_FOUND', message: 'none' } }));
});
afterAll(async () => {
  await server.close();
});

describe('an integer beyond 2^53', () => {
  it.each(['json', 'ndjson', 'csv', 'table'])('-o %s: refused with one contract error, the value never printed changed', async (format) => {
    server.on('GET', '/api/properties', rawPage(`{"id":"p1","name":"Big","landArea":${BIG}}`));
    const result = await cli(['props', 'list', '-o', format]);
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toMatch(new RegExp(`^error: GET /api/properties[^\\n]*: the answer holds the integer ${BIG}, `, 'm'));
    expect(result.stdout).not.toContain('9007199254740992');
  });

  it('the same digits in a string pass untouched', async () => {
    server.on('GET', '/api/properties', rawPage(`{"id":"p1","name":"Big","parcelNumber":"${BIG}"}`));
    const result = await cli(['props', 'list', '-o', 'ndjson']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`"parcelNumber":"${BIG}"`);
  });

  it('a single record (props get) too', async () => {
    server.on(
      'GET',
      `/api/properties/${ID}`,
      text(200, `{"success":true,"data":{"id":"${ID}","landArea":${BIG}}}`, { 'content-type': 'application/json' }),
    );
    const result = await cli(['props', 'get', ID, '-o', 'json']);
    expect(result.code, result.stderr).toBe(9);
    expect(result.stdout).toBe('');
  });
});

describe('a UTF-8 byte order mark before the JSON', () => {
  it('is read, not refused as "a web page"', async () => {
    const body = `\ufeff{"items":[{"id":"p1","name":"Bom"}],"pagination":{"page":1,"limit":1,"total":1,"pages":1}}`;
    server.on('GET', '/api/properties', text(200, body, { 'content-type': 'application/json; charset=utf-8' }));
    const result = await cli(['props', 'list', '-o', 'ndjson']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 'p1', name: 'Bom' });
    expect(result.stderr).not.toMatch(/web page|not JSON/);
  });
});
