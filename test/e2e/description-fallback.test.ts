// Where the service's description cannot be had, against the hostile test server (test/hostile): a
// service that publishes none (the bundled model, said once per profile), a stale cached copy the
// service cannot revalidate (the last good copy, with a warning), and an answer at the discovery
// path that is no OpenAPI description (an HTML page: taken as none published, with a warning naming
// what was found; the last good copy when there is one).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { json, page, text } from '../hostile/answers.js';
import { startHostile, type HostileServer } from '../hostile/server.js';

const KEY = 'apk_Fallbck1_FallbackS3cretFallbackS3cretFa42';
const RECORD = { id: '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10', name: 'Harbor View' };
const BUNDLED = "using the CLI's own model (bundled openapi.json)";
const HTML = '<!doctype html><html><body>Sign in to continue</body></html>';

let server: HostileServer;
const descriptionAsked = () => server.requests.filter((r) => r.path.startsWith('/api/openapi.json')).length;

/** A config dir of its own (so its own description cache), against one hostile server. */
function client(extra: Record<string, string> = {}) {
  const env = isolatedEnv({ APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY, ...extra });
  return (args: string[], more: Record<string, string> = {}) => run([...args, '--retries', '0'], { env: { ...env, ...more } });
}

beforeAll(async () => {
  server = await startHostile();
  server.on('GET', '/api/properties', page([RECORD]));
});
afterAll(async () => {
  await server.close();
});

describe('the service description cannot be had', () => {
  it('a service that publishes none: the bundled model, said once per profile and not again on the next run', async () => {
    server.on('GET', '/api/openapi.json', json(404, { error: { code: 'NOT_FOUND', message: 'no description' } }));
    const cli = client();
    const first = await cli(['props', 'list', '-o', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject(RECORD);
    expect(first.stderr).toBe(`${server.url} publishes no API description; ${BUNDLED} (see \`appraisal spec show\`)\n`);
    const asked = descriptionAsked();
    const again = await cli(['props', 'list', '-o', 'ndjson']);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(descriptionAsked()).toBe(asked); // the cached "publishes none" is fresh: not asked again
    // Another profile of the same service is told once too.
    const other = await cli(['props', 'list', '-o', 'ndjson', '--profile', 'ci']);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain(BUNDLED);
    const shown = await cli(['spec', 'show', '-o', 'json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ kind: 'bundled', source: "the CLI's own model (bundled openapi.json)" });
  });

  it('an HTML page where the description should be: taken as none published, with one warning naming what was found; api checks against the same model', async () => {
    server.on('GET', '/api/openapi.json', text(200, HTML, { 'content-type': 'text/html; charset=utf-8' }));
    server.on('GET', '/api/internal/stats', json(200, { n: 1 }));
    const cli = client();
    const first = await cli(['props', 'list', '-o', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject(RECORD);
    expect(first.stderr).toBe(
      `warning: GET /api/openapi.json: the service answered with a body that is not JSON (200 OK, content-type text/html; charset=utf-8, ${HTML.length} bytes); that is not an OpenAPI description, so the service publishes none this CLI can read: ${BUNDLED}\n`,
    );
    const asked = descriptionAsked();
    const again = await cli(['props', 'list', '-o', 'ndjson']);
    expect(again.stderr).toBe('');
    expect(descriptionAsked()).toBe(asked);
    // `appraisal api` binds to the same model: a published path passes --strict, an internal one is refused.
    expect((await cli(['api', 'GET', '/api/properties', '--strict'])).code).toBe(0);
    const internal = await cli(['api', 'GET', '/api/internal/stats', '--strict']);
    expect(internal.code).toBe(12);
    expect(internal.stderr).toMatch(/^error: refusing GET \/api\/internal\/stats: internal path/m);
  });

  it('a JSON answer without "paths" (a catch-all route) is no description either', async () => {
    server.on('GET', '/api/openapi.json', json(200, { success: true, data: RECORD }));
    const result = await client()(['props', 'list', '-o', 'ndjson']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      `warning: ${server.url}/api/openapi.json: not an OpenAPI document: it has no "paths" object; that is not an OpenAPI description, so the service publishes none this CLI can read: ${BUNDLED}\n`,
    );
  });

  it('a stale cached copy the service cannot revalidate (503, then an HTML page): the last good copy, with a warning', async () => {
    server.on('GET', '/api/openapi.json', json(200, JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8'))));
    const cli = client();
    const cached = await cli(['spec', 'sync', '-o', 'json']);
    expect(cached.code, cached.stderr).toBe(0);
    const { fetchedAt } = JSON.parse(cached.stdout) as { fetchedAt: string };
    server.on('GET', '/api/openapi.json', text(503, 'maintenance'));
    const down = await cli(['props', 'list', '-o', 'ndjson'], { APPRAISAL_SPEC_MAX_AGE: '0' });
    expect(down.code, down.stderr).toBe(0);
    expect(JSON.parse(down.stdout)).toMatchObject(RECORD);
    expect(down.stderr).toMatch(
      new RegExp(
        `^warning: while reading the service description for \`appraisal props list\`: .*503.*; going on with the copy of ${fetchedAt.replace(/[.]/g, '\\.')}\\n$`,
      ),
    );
    server.on('GET', '/api/openapi.json', text(200, HTML, { 'content-type': 'text/html' }));
    const page = await cli(['spec', 'show', '-o', 'json'], { APPRAISAL_SPEC_MAX_AGE: '0' });
    expect(page.code, page.stderr).toBe(0);
    expect(page.stderr).toMatch(
      /^warning: GET \/api\/openapi\.json: the service answered with a body that is not JSON \(200 OK, content-type text\/html, \d+ bytes\); that is not an OpenAPI description: using the copy of /,
    );
    expect(JSON.parse(page.stdout)).toMatchObject({ kind: 'service', fetchedAt, fromCache: true });
  });
});
