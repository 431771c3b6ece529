// Issue 26 §2, §11: `export --dir DIR --resume` in a directory others can write. The hidden sibling
// `.DIR.export-partial` planted as a symbolic link to someone else's directory, as a real directory
// holding a forged family and done-marker, or as a directory of another user, is refused (exit 2,
// naming it) with nothing written anywhere; a finished family whose file changed after its
// done-marker was written is exported again, never trusted; a FIFO at the run lock never hangs.
// Runs in process (test/helpers/run.ts) against the mock.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

const isRoot = process.getuid?.() === 0;
let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
let scratch: string;

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const ARGS = ['--page-size', '10', '--concurrency', '1', '--families', 'props,clients'];

beforeAll(async () => {
  mock = await startMock({ records: 40, seed: 11 });
  admin = mockAdmin(mock);
  env = { ...isolatedEnv(), ...mock.env, APPRAISAL_RETRY_BASE_MS: '1' };
  scratch = tempDir('planted-export-');
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

/** A fresh parent directory (shared by "others" in the story) and the export's names in it. */
function parentDir(): { parent: string; dir: string; sibling: string; lock: string } {
  const parent = mkdtempSync(join(scratch, 'shared-'));
  return { parent, dir: join(parent, 'snap'), sibling: join(parent, '.snap.export-partial'), lock: join(parent, '.snap.export-lock') };
}

/** What someone else plants: a directory that looks like an interrupted run with a finished, forged family. */
function plantForgedRun(where: string): void {
  mkdirSync(where, { recursive: true });
  writeFileSync(
    join(where, '.export-run.json'),
    JSON.stringify({ kind: 'appraisal-export-run', version: 1, startedAt: '2026-01-01T00:00:00.000Z' }),
  );
  const forged = '{"id":"forged","name":"planted by someone else"}\n';
  writeFileSync(join(where, 'props.ndjson'), forged);
  const digest = createHash('sha256').update(forged).digest('hex');
  writeFileSync(
    join(where, '.props.done.json'),
    JSON.stringify({
      family: 'props',
      file: 'props.ndjson',
      records: 1,
      total: 1,
      bytes: forged.length,
      sha256: digest,
      filters: {},
      since: null,
    }),
  );
}

function oneErrorLine(stderr: string): string {
  const errors = stderr.split('\n').filter((line) => line.startsWith('error: '));
  expect(errors, stderr).toHaveLength(1);
  return errors[0]!;
}

describe('export --dir --resume refuses a hidden sibling it did not make (exit 2)', () => {
  it('a planted real directory (mode 755) with a forged family: refused, DIR never created', async () => {
    const { dir, sibling } = parentDir();
    plantForgedRun(sibling);
    execFileSync('chmod', ['755', sibling]);
    const result = await run(['export', '--dir', dir, ...ARGS, '--resume'], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe(`error: ${sibling} has mode 755, not 700; refusing to use it`);
    expect(existsSync(dir)).toBe(false);
  });

  it("a symbolic link to another user's directory: refused, nothing written there", async () => {
    const { dir, sibling } = parentDir();
    const theirs = mkdtempSync(join(scratch, 'theirs-'));
    plantForgedRun(theirs);
    const before = readdirSync(theirs).sort();
    symlinkSync(theirs, sibling);
    const result = await run(['export', '--dir', dir, ...ARGS, '--resume'], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe(`error: ${sibling} is a symbolic link; refusing to use it`);
    expect(readdirSync(theirs).sort()).toEqual(before);
    expect(existsSync(dir)).toBe(false);
  });

  it.skipIf(!isRoot)('a 0700 directory of another user: refused (needs root to chown; CI and this machine run as root)', async () => {
    const { dir, sibling } = parentDir();
    plantForgedRun(sibling);
    execFileSync('chmod', ['700', sibling]);
    chownSync(sibling, 4242, 4242);
    const result = await run(['export', '--dir', dir, ...ARGS, '--resume'], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe(`error: ${sibling} is owned by another user (uid 4242); refusing to use it`);
    expect(existsSync(dir)).toBe(false);
  });

  it('a FIFO at the run lock: refused at once', async () => {
    const { dir, lock } = parentDir();
    execFileSync('mkfifo', [lock]);
    const result = await run(['export', '--dir', dir, ...ARGS], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe(`error: ${lock} is a FIFO (named pipe), not a regular file; refusing to use it`);
  });
});

describe('a finished family is trusted only while its files match its done-marker', () => {
  it('the sibling is 0700 while the run works; a family file changed after it finished is exported again', async () => {
    await admin.reset();
    const { dir, sibling } = parentDir();
    // clients fails on page 2, after props finished.
    await admin.queueFaults([{ path: '/api/clients', query: { page: '2' }, fault: 'status=503', count: 10 }]);
    const failed = await run(['export', '--dir', dir, ...ARGS], { env });
    await admin.clearFaults();
    expect(failed.code, failed.stderr).toBe(8);
    expect(statSync(sibling).mode & 0o777).toBe(0o700);
    const marker = JSON.parse(readFileSync(join(sibling, '.props.done.json'), 'utf8')) as { bytes: number; sha256: string };
    expect(marker.sha256).toBe(sha256(join(sibling, 'props.ndjson')));
    expect(marker.bytes).toBe(statSync(join(sibling, 'props.ndjson')).size);

    // Changed after its marker was written (damaged, or forged by whoever could): not trusted.
    appendFileSync(join(sibling, 'props.ndjson'), '{"id":"forged"}\n');
    const resumed = await run(['export', '--dir', dir, ...ARGS, '--resume'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(
      'props.ndjson is not what the interrupted run finished (size or sha256 differ): props is exported again',
    );
    const props = readFileSync(join(dir, 'props.ndjson'), 'utf8');
    expect(props).not.toContain('forged');
    expect(props.trim().split('\n')).toHaveLength(40);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
      families: Array<{ family: string; sha256: string }>;
    };
    expect(manifest.families.find((entry) => entry.family === 'props')!.sha256).toBe(sha256(join(dir, 'props.ndjson')));
    expect(statSync(dir).mode & 0o777).toBe(0o755 & ~process.umask());
  });
});
