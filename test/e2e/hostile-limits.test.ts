// Issue 14 items 3, 4 and 8 against the hostile test server (test/hostile): answers too large or
// endless, pagination that lies, paths that climb out of the base URL. Each run (in process) asserts
// the exit code, the message and how many requests reached the server; the peak RSS of a process
// reading the big answers is hostile-process.test.ts's, as the kernel measures it.
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { endlessJson, json, page, pagesBy } from '../hostile/answers.js';
import { collectionRequests, expectCleanFailure, useLimitsServer } from '../hostile/limits.js';

const limits = useLimitsServer();
const env = limits.env;

describe('item 3: bounded memory for any answer', () => {
  // The 64 MiB default against an endless and an announced 600 MiB answer, with the peak RSS: hostile-process.test.ts.
  it('the limit follows APPRAISAL_MAX_RESPONSE_SIZE', async () => {
    limits.server.on('GET', '/api/properties', endlessJson('{"items":[', '{"id":"x"},'));
    const small = await run(['props', 'list', '-o', 'json', '--retries', '0'], { env: env({ APPRAISAL_MAX_RESPONSE_SIZE: '1MiB' }) });
    expectCleanFailure(small, 9);
    expect(small.stderr).toContain('the answer is more than 1 MiB, larger than the 1 MiB limit');

    const bad = await run(['props', 'list'], { env: env({ APPRAISAL_MAX_RESPONSE_SIZE: 'lots' }) });
    expectCleanFailure(bad, 2);
    expect(bad.stderr).toContain('error: APPRAISAL_MAX_RESPONSE_SIZE must be a size of at least 1 KiB such as 64MiB or 512KiB, got "lots"');
  });

  it('an answer announced larger than the limit is refused unread, and nothing is left to throw later', async () => {
    // A whole answer, its content-length over the limit: it arrives in full before it is refused.
    const body = JSON.stringify({
      items: [{ id: 'x', notes: 'n'.repeat(8 * 1024) }],
      pagination: { page: 1, limit: 1, total: 1, pages: 1 },
    });
    limits.server.on('GET', '/api/properties', json(200, body, { 'content-length': String(Buffer.byteLength(body)) }));
    // The body refused by its content-length was destroyed with no reader: undici's abort error
    // then had no listener and surfaced as an uncaught exception of the process.
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const refused = await run(['props', 'list', '-o', 'json', '--retries', '0'], { env: env({ APPRAISAL_MAX_RESPONSE_SIZE: '1KiB' }) });
      expectCleanFailure(refused, 9);
      expect(refused.stderr).toContain('the answer is announced as 8.1 KiB, larger than the 1 KiB limit for one JSON answer');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('uncaughtException', record);
    }
    expect(uncaught).toEqual([]);
  });

  it('--max-response-size lowers the cap over the environment, and the refusal names the size; a bad value is exit 2', async () => {
    limits.server.on('GET', '/api/properties', endlessJson('{"items":[', '{"id":"x"},'));
    // The variable allows 4 MiB; the flag wins and stops the endless body at 512 KiB.
    const lowered = await run(['props', 'list', '-o', 'json', '--retries', '0', '--max-response-size', '512KiB'], {
      env: env({ APPRAISAL_MAX_RESPONSE_SIZE: '4MiB' }),
    });
    expectCleanFailure(lowered, 9);
    expect(lowered.stderr).toContain('the answer is more than 512 KiB, larger than the 512 KiB limit for one JSON answer; stopped reading');
    expect(lowered.stderr).toContain('hint: ask for smaller pages (--page-size), or raise the limit with --max-response-size 256MiB');
    expect(lowered.stdout).toBe('');
    expect(collectionRequests(limits.server)).toHaveLength(1);

    limits.server.requests.length = 0;
    for (const value of ['lots', '12 parsecs', '100', '-1MiB']) {
      const bad = await run(['props', 'list', '--max-response-size', value], { env: env() });
      expectCleanFailure(bad, 2);
      expect(bad.stderr.trim()).toBe(`error: --max-response-size must be a size of at least 1 KiB such as 64MiB or 512KiB, got "${value}"`);
    }
    expect(collectionRequests(limits.server)).toEqual([]);
  });

  it('an answer under a raised limit is read whole', async () => {
    const items = Array.from({ length: 3 }, (_, i) => ({ id: `id-${i}`, blob: 'y'.repeat(600 * 1024) }));
    limits.server.on('GET', '/api/properties', page(items));
    const raised = await run(['props', 'list', '-o', 'ndjson', '--retries', '0'], { env: env({ APPRAISAL_MAX_RESPONSE_SIZE: '4MiB' }) });
    expect(raised.code, raised.stderr).toBe(0);
    expect(raised.stdout.trim().split('\n')).toHaveLength(3);
    const refused = await run(['props', 'list', '-o', 'ndjson', '--retries', '0'], {
      env: env({ APPRAISAL_MAX_RESPONSE_SIZE: '1MiB' }),
    });
    expectCleanFailure(refused, 9);
  });
});

describe('item 4: pagination that cannot loop forever', () => {
  it('pages: 1e9 with empty pages is refused on the first page (exit 9, one request)', async () => {
    limits.server.on(
      'GET',
      '/api/properties',
      pagesBy(() => ({ limit: 25, total: 0, pages: 1e9 })),
    );
    const result = await run(['props', 'list', '-o', 'json', '--retries', '0'], { env: env() });
    expectCleanFailure(result, 9);
    expect(result.stderr).toContain(
      'page 1 of /api/properties: the pagination makes no sense: 1000000000 pages for 0 records of 25 per page (expected 0)',
    );
    expect(collectionRequests(limits.server)).toHaveLength(1);
  });

  it('limit: 0 is refused at once, --max-items or not (exit 9, one request)', async () => {
    limits.server.on(
      'GET',
      '/api/properties',
      pagesBy(() => ({ limit: 0, total: 1e9, pages: 1e9 })),
    );
    const result = await run(['props', 'list', '--max-items', '3', '-o', 'json', '--retries', '0'], { env: env() });
    expectCleanFailure(result, 9);
    expect(result.stderr).toContain('the pagination makes no sense: limit 0 (a page holds at least one record)');
    expect(collectionRequests(limits.server)).toHaveLength(1);
  });

  it('an empty page before the last is refused (exit 9); no page beyond it is requested', async () => {
    const items = (n: number): Array<Record<string, unknown>> => (n === 1 ? [{ id: 'a' }, { id: 'b' }] : []);
    limits.server.on(
      'GET',
      '/api/properties',
      pagesBy(() => ({ limit: 2, total: 6, pages: 3 }), items),
    );
    const result = await run(['props', 'list', '-o', 'json', '--concurrency', '1', '--retries', '0'], { env: env() });
    expectCleanFailure(result, 9);
    expect(result.stderr).toContain('page 2 of /api/properties: the pagination makes no sense: page 2 of 3 is empty');
    expect(collectionRequests(limits.server).length).toBeLessThanOrEqual(3);
  });

  it('requests stay bounded by what the first page announced, whatever later pages claim', async () => {
    const items = (n: number): Array<Record<string, unknown>> => [{ id: `p${n}-1` }, { id: `p${n}-2` }];
    limits.server.on(
      'GET',
      '/api/properties',
      pagesBy((n) => (n === 1 ? { limit: 2, total: 6, pages: 3 } : { limit: 2, total: 2e9, pages: 1e9 }), items),
    );
    const result = await run(['props', 'list', '-o', 'json', '--retries', '0'], { env: env() });
    expectCleanFailure(result, 9);
    expect(result.stderr).toContain('changed while it was read');
    expect(collectionRequests(limits.server)).toHaveLength(3);
  });

  it('--max-items stops a collection that never runs out (3 records, one request)', async () => {
    const items = (n: number): Array<Record<string, unknown>> => Array.from({ length: 25 }, (_, i) => ({ id: `p${n}-${i}` }));
    limits.server.on(
      'GET',
      '/api/properties',
      pagesBy(() => ({ limit: 25, total: 25e9, pages: 1e9 }), items),
    );
    const result = await run(['props', 'list', '--max-items', '3', '-o', 'ndjson', '--retries', '0'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(3);
    expect(collectionRequests(limits.server)).toHaveLength(1);
  });
});

describe('item 8: paths cannot climb out of the base URL', () => {
  it.each(['/api/%2E%2e/%2e%2e/x', '/api/../../x', '/api/..%2f..%2fx'])(
    'api GET %s under /s/ok is refused (exit 2), nothing is sent',
    async (path) => {
      limits.server.on('*', /./, json(200, { success: true, data: { id: 'x' } }));
      const result = await run(['api', 'GET', path, '--retries', '0'], { env: env({ APPRAISAL_BASE_URL: `${limits.server.url}/s/ok` }) });
      expectCleanFailure(result, 2);
      expect(result.stderr).toContain(`the request path "${path}" climbs out of the base URL's path /s/ok`);
      // `api` may first fetch the service description under the base path; the climbing path itself is never sent.
      const sent = limits.server.requests.map((request) => request.path);
      expect(sent.filter((target) => !/^\/s\/ok\/(api\/)?openapi\.json/.test(target))).toEqual([]);
      expect(sent.length).toBeLessThanOrEqual(1);
    },
  );
});
