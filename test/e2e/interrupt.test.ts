// Ctrl-C (SIGINT) in the middle of an export, an upload and a download: exit 130, `error:
// interrupted`, and nothing half-written left behind — no file at --out (an existing one keeps its
// old content), no temp file beside it, nothing in the process's TMPDIR. And Ctrl-C typed on a
// terminal while `watch --exec` runs its command: the command, in a process group of its own, is
// interrupted by the watch and cleans up (the rest of watch: watch.test.ts, in process).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT } from '../helpers/env.js';
import { entriesBesidePartial, entriesOf, tempDir } from '../helpers/temp.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { startCli, type RunningCli } from '../helpers/spawn.js';
import { mockAdmin, waitFor, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { processGone } from '../helpers/processes.js';
import { run } from '../helpers/run.js';
import { shellQuote, startOnPty } from '../hostile/terminal.js';
import { parseEvents, useWatchMock } from './watch-support.js';

const KEY = 'apk_Interrup_t0123456789abcdefghijklmnopqrstu';
const FILE_ID = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';

let mock: MockServer;
let admin: MockAdmin;
let tmp: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  // Every answer 200 ms late: an export of 60 pages, one at a time, takes long enough to interrupt.
  mock = await startMock({ records: 300, latencyMs: 200, seed: 5 });
  admin = mockAdmin(mock);
  tmp = tempDir('appraisal-interrupt-tmp-');
  env = { ...isolatedEnv(mock.env), TMPDIR: tmp };
});

afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

async function interrupt(running: RunningCli, when: () => Promise<boolean>, what: string) {
  await waitFor(when, what);
  running.child.kill('SIGINT');
  const result = await running.result;
  expect(exitProblems(result, { interrupted: true }), result.stderr).toEqual([]);
  expect(result.code, result.stderr).toBe(130);
  expect(result.stderr).toMatch(/^error: interrupted$/m);
  expect(entriesOf(tmp), 'nothing left in TMPDIR').toEqual([]);
  return result;
}

const pageRequested = (page: number) => async () =>
  (await admin.requests(100)).some((r) => r.path === '/api/properties' && Number(r.query.page) >= page);

describe('Ctrl-C during an export', () => {
  it.each(['ndjson', 'json', 'csv', 'table'])('-o %s --out FILE: exit 130, no FILE, no temp file', async (format) => {
    await admin.clearRequests();
    const dir = tempDir('appraisal-interrupt-out-');
    const running = startCli(['props', 'list', '-o', format, '--page-size', '5', '--concurrency', '1', '--out', join(dir, 'props.out')], {
      env,
    });
    // The temp file exists and a few pages are in it (or on their way).
    await interrupt(running, async () => entriesOf(dir).length > 0 && (await pageRequested(3)()), 'the export to be under way');
    // Streaming formats keep their complete pages beside FILE for --resume (export-resume.test.ts).
    expect(entriesBesidePartial(dir)).toEqual([]);
    if (format !== 'table') expect(entriesOf(dir)).toEqual(['.props.out.checkpoint', '.props.out.partial']);
  });

  it('an existing FILE keeps its old content', async () => {
    await admin.clearRequests();
    const dir = tempDir('appraisal-interrupt-out-');
    const target = join(dir, 'props.ndjson');
    writeFileSync(target, 'the previous export\n');
    const running = startCli(['props', 'list', '--page-size', '5', '--concurrency', '1', '--out', target], { env });
    await interrupt(running, async () => entriesOf(dir).length > 1 && (await pageRequested(3)()), 'the export to be under way');
    expect(entriesBesidePartial(dir)).toEqual(['props.ndjson']);
    expect(readFileSync(target, 'utf8')).toBe('the previous export\n');
  });

  it('to stdout: exit 130 and what was printed is whole records only', async () => {
    await admin.clearRequests();
    const running = startCli(['props', 'list', '-o', 'ndjson', '--page-size', '5', '--concurrency', '1'], { env });
    const result = await interrupt(running, pageRequested(3), 'the export to be under way');
    for (const line of result.stdout.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });
});

// ---- uploads and downloads against a local service that stalls on purpose ----------------------

interface StallServer {
  url: string;
  /** Requests seen so far, by path. */
  seen: string[];
  close(): Promise<void>;
}

async function stallServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<StallServer> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// These servers stall every request, so the CLI is given the bundled description instead of asking them for theirs.
const BUNDLED_SPEC = join(ROOT, 'openapi.json');

describe('Ctrl-C during a transfer', () => {
  it('files upload of a large file: exit 130, no --out file, nothing in TMPDIR', async () => {
    // Accept the request and never read its body: the upload stalls once the socket buffers fill.
    const server = await stallServer((req) => req.pause());
    try {
      const dir = tempDir('appraisal-interrupt-upload-');
      const big = join(dir, 'survey.tif');
      writeFileSync(big, '');
      truncateSync(big, 256 * 1024 * 1024);
      const running = startCli(['files', 'upload', big, '-o', 'json', '--out', join(dir, 'record.json')], {
        env: { ...isolatedEnv(), TMPDIR: tmp, APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY, APPRAISAL_SPEC: BUNDLED_SPEC },
      });
      const result = await interrupt(running, async () => server.seen.some((r) => r.startsWith('POST /api/files')), 'the upload to start');
      expect(result.stdout).toBe('');
      expect(entriesOf(dir)).toEqual(['survey.tif']);
    } finally {
      await server.close();
    }
  });

  it('files download mid-body: exit 130, no file, no .part file', async () => {
    const size = 4 * 1024 * 1024;
    const server = await stallServer((req, res) => {
      if (req.url === `/api/files/${FILE_ID}`) {
        const body = JSON.stringify({ id: FILE_ID, name: 'survey.tif', contentType: 'image/tiff', size, sha256: 'a'.repeat(64) });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      // Half the bytes, then silence.
      res.writeHead(200, { 'content-type': 'image/tiff', 'content-length': size });
      res.write(Buffer.alloc(size / 2));
    });
    try {
      const dir = tempDir('appraisal-interrupt-download-');
      const running = startCli(['files', 'download', FILE_ID, '--out', join(dir, 'survey.tif')], {
        env: { ...isolatedEnv(), TMPDIR: tmp, APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY, APPRAISAL_SPEC: BUNDLED_SPEC },
      });
      await interrupt(running, async () => entriesOf(dir).some((name) => name.endsWith('.part')), 'the download to start');
      expect(entriesOf(dir)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('Ctrl-C on a terminal during watch --exec', () => {
  const { env: watchEnv, createProperty } = useWatchMock();

  it('Ctrl-C on a terminal while --exec runs: the command is interrupted and cleans up, the watch exits 130 before that event', async () => {
    const cwd = tempDir('appraisal-interrupt-watch-');
    const state = join(cwd, 'props.state');
    const pidFile = join(cwd, 'hook.pid');
    await run(['watch', 'props', '--once', '--state-file', state], { env: watchEnv() });
    const created = await createProperty();
    // The hook runs in a process group of its own, so the terminal's Ctrl-C reaches only the watch;
    // the watch passes it on.
    const hook = `echo $$ > ${shellQuote(pidFile)}; trap 'echo "hook cleaned up" >&2; exit 130' INT; echo "hook started $APPRAISAL_EVENT_ID" >&2; while :; do sleep 1; done`;
    const session = startOnPty(['watch', 'props', '--interval', '1s', '--state-file', state, '--exec', hook], watchEnv());
    await session.waitFor(new RegExp(`hook started ${created}`));
    session.type('\x03');
    const result = await session.result;
    expect(result.code, result.screen).toBe(130);
    expect(result.screen).toContain('hook cleaned up');
    expect(result.screen).toMatch(/^error: interrupted$/m);
    expect(result.screen).not.toMatch(/\n\s+at /);
    expect(result.screen).not.toContain(`"id":"${created}"`);
    expect(processGone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    // The event was not handled, so the state stays before it: the next run delivers it.
    const next = await run(['watch', 'props', '--once', '--state-file', state], { env: watchEnv() });
    expect(parseEvents(next.stdout).map((e) => `${e.type} ${e.id}`)).toEqual([`created ${created}`]);
  });
});
