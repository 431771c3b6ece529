// Hostile answers against the built CLI as its own process, for what only a process shows: its peak
// RSS as the kernel measured it (/usr/bin/time -f %M) under an endless or a huge answer (issue 14
// item 3), and a catastrophic pattern in a crafted description (issue 26 item 9) that must not hang —
// a hang must be a timeout of the child, not of the test runner. Everything else about these
// servers runs in process: hostile-limits.test.ts, hostile-description.test.ts.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, type CliResult } from '../helpers/spawn.js';
import { ROOT, isolatedEnv, cleanEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { adminOf } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';
import { endlessJson, page } from '../hostile/answers.js';
import { crafted, propertyBody } from '../hostile/crafted-description.js';
import { collectionRequests, expectCleanFailure, useLimitsServer } from '../hostile/limits.js';

/** Issue 14: peak RSS stays under ~300 MiB whatever the server does. */
const PEAK_RSS_LIMIT_KIB = 300 * 1024;

const limits = useLimitsServer();
const env = limits.env;

/** `appraisal ARGS` under /usr/bin/time: the result plus the child's peak resident set in KiB. */
function measuredCli(args: string[], environment: Record<string, string | undefined>): Promise<CliResult & { peakKiB: number }> {
  const rssFile = join(tempDir('appraisal-rss-'), 'peak');
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%M', '-o', rssFile, process.execPath, BIN, ...args, '--retries', '0'], {
      cwd: ROOT,
      env: cleanEnv(environment),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const peakKiB = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), peakKiB });
    });
  });
}

describe('issue 14 item 3: bounded memory for any answer, as the kernel measures it', () => {
  it('an endless 200 body ends at the 64 MiB default with exit 9 naming the size; peak RSS stays small', async () => {
    limits.server.on('GET', '/api/properties', endlessJson('{"items":[', '{"id":"x","name":"endless"},'));
    const result = await measuredCli(['props', 'list', '-o', 'json'], env());
    expectCleanFailure(result, 9);
    expect(result.stderr).toContain(
      'GET /api/properties?page=1: the answer is more than 64 MiB, larger than the 64 MiB limit for one JSON answer; stopped reading',
    );
    expect(result.stderr).toContain('APPRAISAL_MAX_RESPONSE_SIZE');
    expect(result.stdout).toBe('');
    expect(collectionRequests(limits.server)).toHaveLength(1);
    expect(result.peakKiB).toBeGreaterThan(64 * 1024); // it did read the 64 MiB it was allowed
    expect(result.peakKiB).toBeLessThan(PEAK_RSS_LIMIT_KIB);
  });

  it('an announced 600 MiB answer is refused before reading it (the limit under APPRAISAL_MAX_RESPONSE_SIZE: hostile-limits.test.ts)', async () => {
    limits.server.on('GET', '/api/properties', endlessJson('{"items":[', '{"id":"x"},', 600 * 1024 * 1024));
    const announced = await measuredCli(['props', 'list', '-o', 'json'], env());
    expectCleanFailure(announced, 9);
    expect(announced.stderr).toContain('the answer is announced as 600 MiB, larger than the 64 MiB limit');
    expect(announced.peakKiB).toBeLessThan(PEAK_RSS_LIMIT_KIB);
  });
});

const EVIL = '^(a+)+$';
/** 40 a's and a mismatch: about 2^40 steps for a backtracking engine. */
const ATTACK = `${'a'.repeat(40)}!`;
/** Well inside the suite's timeouts, far below what a backtracking engine would need. */
const NO_HANG_MS = 30_000;

describe('issue 26 item 9: a catastrophic pattern in a crafted description does not hang', () => {
  // A published `pattern` like `^(a+)+$` (catastrophic backtracking in JavaScript's engine) must not
  // hang `props create`, `--validate` or `smoke`: patterns are compiled with RE2 (linear time).
  const evilNames = crafted((schemas) => {
    schemas.Property!.properties!.name!.pattern = EVIL;
    schemas.PropertyCreate!.properties!.name!.pattern = EVIL;
  });

  it('props list --validate: the record is checked in linear time (a violation, exit 9)', async () => {
    limits.server.on('GET', '/api/properties', page([{ id: '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10', name: ATTACK }]));
    const result = await runCli(['props', 'list', '--validate', '-o', 'ndjson', '--spec', evilNames], {
      env: env(),
      timeoutMs: NO_HANG_MS,
    });
    expect(result.signal, 'killed: it hung').toBe(null);
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toMatch(/\$\.name must match pattern/);
  });

  it('props create: the body is checked in linear time (refused, exit 2, nothing sent)', async () => {
    const result = await runCli(['props', 'create', '--data', propertyBody(ATTACK), '--spec', evilNames], {
      env: env(),
      timeoutMs: NO_HANG_MS,
    });
    expect(result.signal, 'killed: it hung').toBe(null);
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/\$\.name must match pattern/);
    expect(limits.server.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  describe('smoke', () => {
    let mock: MockServer;
    beforeAll(async () => {
      mock = await startMock({ records: 0, seed: 5 });
    });
    afterAll(async () => {
      await mock?.stop();
    });

    it('validates a record with the attack in it against the crafted description, and ends', async () => {
      const created = await adminOf(mock).call('POST', '/api/properties', JSON.parse(propertyBody(ATTACK)));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const smokeEnv = isolatedEnv({ ...mock.env });
      const dir = smokeEnv.APPRAISAL_CONFIG_DIR!;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({ activeProfile: 'ci', profiles: { ci: { baseUrl: mock.baseUrl, environment: 'staging' } } }),
        { mode: 0o600 },
      );
      const result = await runCli(['smoke', '-o', 'json', '--spec', evilNames], { env: smokeEnv, timeoutMs: NO_HANG_MS });
      expect(result.signal, 'killed: it hung').toBe(null);
      const report = JSON.parse(result.stdout) as { checks: Array<{ name: string; status: string; detail: string }> };
      const list = report.checks.find((check) => check.name === 'list properties');
      expect(list?.status, JSON.stringify(report.checks)).toBe('fail');
      expect(list?.detail).toMatch(/\$\.name must match pattern/);
    });
  });
});
