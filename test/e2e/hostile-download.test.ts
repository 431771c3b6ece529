// Issue 26 item 10 (the size half): `files download` stops at the size the file's record promised.
// The hostile server promises 10 bytes and then sends without end (no content-length): the download
// ends with one contract error (exit 9) after at most one chunk past the promise, and leaves no file
// and no temp file behind. In process: a download that never ends is interrupted after 50 s (exit 130)
// instead of holding the test runner.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import { json } from '../hostile/answers.js';
import { startHostile, type HostileServer, type Route } from '../hostile/server.js';

const KEY = 'apk_Download_DownloadS3cretDownloadS3cretDo';
const ID = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';
let server: HostileServer;
let sent = 0;

/** Bytes without end (chunked, no content-length), written with backpressure; counts what it wrote. */
const endless: Route = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const block = Buffer.alloc(64 * 1024, 0x61);
  const pump = (): void => {
    while (!res.destroyed && res.write(block)) sent += block.length;
    if (!res.destroyed) res.once('drain', pump);
  };
  res.on('error', () => {});
  pump();
};

beforeAll(async () => {
  server = await startHostile();
  server.on('GET', '/api/openapi.json', json(404, { error: { code: 'NOT_FOUND', message: 'none' } }));
  server.on('GET', `/api/files/${ID}`, json(200, { id: ID, name: 'ten.txt', size: 10, contentType: 'text/plain' }));
  server.on('GET', `/api/files/${ID}/content`, endless);
});
afterAll(async () => {
  await server.close();
});

it('a 10-byte record and an endless body: exit 9, no file, no temp file', async () => {
  const dir = tempDir('download-endless-');
  const never = AbortSignal.timeout(50_000);
  const result = await run(['files', 'download', ID, '--out', join(dir, 'ten.txt'), '--retries', '0'], {
    env: isolatedEnv({ APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY }),
    signal: never,
  });
  expect(never.aborted, 'interrupted: it never stopped').toBe(false);
  expect(exitProblems(result), result.stderr).toEqual([]);
  expect(result.code, result.stderr).toBe(9);
  expect(result.stderr).toMatch(
    /^error: the service sent more than the 10 bytes the record of file 3f2b8c1e-[0-9a-f-]+ promises; stopped reading$/m,
  );
  expect(readdirSync(dir)).toEqual([]);
  // It stopped at the first chunk past the promise, not after the server's buffers filled many times.
  expect(sent).toBeLessThan(64 * 1024 * 1024);
});
