// Issue 26 item 8: `http://localhost.` is not this machine (glibc resolves the fully qualified name
// through DNS, which someone else may answer). The CLI refuses to send the key to it over plain http
// (exit 6, before any request carries it) and does not treat it as a `local` service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { page } from '../hostile/answers.js';
import { startHostile, type HostileServer } from '../hostile/server.js';

const KEY = 'apk_Loopbck1_LoopbackS3cretLoopbackS3cret42';
let server: HostileServer;

beforeAll(async () => {
  server = await startHostile();
  server.on('GET', '/api/properties', page([{ id: 'p1' }]));
});

afterAll(async () => {
  await server?.close();
});

describe('a base URL spelled localhost.', () => {
  it('gets no key over plain http: one error line, no request carries the key', async () => {
    const result = await run(['props', 'list', '--retries', '0'], {
      env: isolatedEnv({ APPRAISAL_BASE_URL: `http://localhost.:${server.port}`, APPRAISAL_API_KEY: KEY }),
    });
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(10);
    expect(result.stderr).toMatch(/^error: refusing to send the credential over plain http:\/\/ to localhost\.:\d+$/m);
    expect(server.requests.filter((request) => request.headers['x-api-key'] !== undefined)).toEqual([]);
  });

  it('is refused before anything goes out, the description included (list and api alike)', async () => {
    const env = isolatedEnv({ APPRAISAL_BASE_URL: `http://localhost.:${server.port}`, APPRAISAL_API_KEY: KEY });
    const before = server.requests.length;
    for (const argv of [
      ['props', 'list', '--retries', '0'],
      ['api', 'GET', '/api/properties', '--retries', '0'],
    ]) {
      const result = await run(argv, { env });
      expect(result.code, result.stderr).toBe(10);
      // No warning about a description it could not read first: it was never asked.
      expect(result.stderr).toBe(
        `error: refusing to send the credential over plain http:// to localhost.:${server.port}\n` +
          'hint: use an https:// base URL; plain http is accepted only for this machine (localhost, 127.0.0.1, ::1)\n',
      );
    }
    expect(server.requests.slice(before)).toEqual([]);
  });

  it('the same service spelled localhost is this machine: the key goes over plain http', async () => {
    const result = await run(['props', 'list', '-o', 'ndjson', '--retries', '0'], {
      env: isolatedEnv({ APPRAISAL_BASE_URL: `http://localhost:${server.port}`, APPRAISAL_API_KEY: KEY }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe('p1');
  });
});
