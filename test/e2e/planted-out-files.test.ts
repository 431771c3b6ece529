// Issue 26 §1, §11, §14: someone who can write beside `--out` plants files at the names a resumable
// export uses (its partial, checkpoint and lock): a symbolic or hard link to another file, a FIFO, a
// link to /dev/zero, a file of another user, a forged checkpoint. Each attack is performed against
// a real interrupted export, and each ends in a one-line refusal with its documented exit code,
// nothing written outside the target, and no hang.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
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

const RECORDS = 300;
const PAGE = ['--page-size', '30', '--concurrency', '1'];
const isRoot = process.getuid?.() === 0;
let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
let scratch: string;

const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  run(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '1', ...extra } });
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

beforeAll(async () => {
  mock = await startMock({ records: RECORDS, seed: 7 });
  admin = mockAdmin(mock);
  env = { ...isolatedEnv(), ...mock.env };
  scratch = tempDir('planted-out-');
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

interface Interrupted {
  dir: string;
  out: string;
  partial: string;
  checkpoint: string;
  lock: string;
  args: string[];
}

/** A real export to `--out` that failed at page 5, keeping 4 pages (120 records) for --resume. */
async function interrupted(format: 'ndjson' | 'csv' | 'json' = 'ndjson'): Promise<Interrupted> {
  const dir = mkdtempSync(join(scratch, 'out-'));
  const out = join(dir, `props.${format}`);
  const args = ['props', 'list', '--out', out, ...PAGE];
  await admin.queueFaults([{ path: '/api/properties', query: { page: '5' }, fault: 'status=503', count: 10 }]);
  const failed = await cli(args);
  await admin.clearFaults();
  expect(failed.code, failed.stderr).toBe(8);
  return {
    dir,
    out,
    args,
    partial: join(dir, `.props.${format}.partial`),
    checkpoint: join(dir, `.props.${format}.checkpoint`),
    lock: join(dir, `.props.${format}.lock`),
  };
}

/** A private file of someone else's, outside the export directory: what the attacks aim at. */
function victim(): { path: string; before: string } {
  const path = join(mkdtempSync(join(scratch, 'victim-')), 'secrets.txt');
  writeFileSync(path, 'precious content that must stay as it is\n'.repeat(2000), { mode: 0o600 });
  return { path, before: sha256(path) };
}

function expectOneErrorLine(stderr: string, pattern: RegExp): void {
  const errors = stderr.split('\n').filter((line) => line.startsWith('error: '));
  expect(errors, stderr).toHaveLength(1);
  expect(errors[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
}

describe('--out --resume refuses planted files (exit 2, naming the file)', () => {
  it('a partial replaced by a symbolic link to another file: refused, the other file untouched', async () => {
    const run = await interrupted();
    const target = victim();
    rmSync(run.partial);
    symlinkSync(target.path, run.partial);
    const resumed = await cli([...run.args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(2);
    expectOneErrorLine(resumed.stderr, new RegExp(`${run.partial.replaceAll('.', '\\.')} is a symbolic link; refusing to use it`));
    expect(sha256(target.path)).toBe(target.before);
    expect(existsSync(run.out)).toBe(false);
  });

  it('a partial hard-linked to another file: refused, the other file untouched', async () => {
    const run = await interrupted();
    const target = join(run.dir, '..', `hard-${Date.now()}.txt`);
    writeFileSync(target, readFileSync(run.partial), { mode: 0o600 });
    const before = sha256(target);
    rmSync(run.partial);
    linkSync(target, run.partial);
    const resumed = await cli([...run.args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(2);
    expectOneErrorLine(resumed.stderr, /\.partial has 2 hard links/);
    expect(sha256(target)).toBe(before);
  });

  it('a checkpoint that is a symbolic link to a forged one elsewhere: refused', async () => {
    const run = await interrupted();
    const forged = join(mkdtempSync(join(scratch, 'forged-')), 'checkpoint');
    writeFileSync(forged, readFileSync(run.checkpoint));
    rmSync(run.checkpoint);
    symlinkSync(forged, run.checkpoint);
    const resumed = await cli([...run.args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(2);
    expectOneErrorLine(resumed.stderr, /\.checkpoint is a symbolic link; refusing to use it/);
  });

  it.skipIf(!isRoot)('a partial owned by another user: refused (needs root to chown; CI and this machine run as root)', async () => {
    const run = await interrupted();
    chownSync(run.partial, 4242, 4242);
    const before = sha256(run.partial);
    const resumed = await cli([...run.args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(2);
    expectOneErrorLine(resumed.stderr, /\.partial is owned by another user \(uid 4242\)/);
    expect(sha256(run.partial)).toBe(before);
  });

  it('a partial others can write (mode 666): refused', async () => {
    const run = await interrupted();
    execFileSync('chmod', ['666', run.partial]);
    const resumed = await cli([...run.args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(2);
    expectOneErrorLine(resumed.stderr, /\.partial can be written by other users \(mode 666\)/);
  });
});

describe('a planted lock never hangs an export nor fills its memory (exit 2)', () => {
  it('a FIFO at the lock: --out and --out --resume refuse at once', async () => {
    const run = await interrupted();
    execFileSync('mkfifo', [run.lock]);
    for (const extra of [[], ['--resume']]) {
      const result = await cli([...run.args, ...extra]);
      expect(result.code, result.stderr).toBe(2);
      expectOneErrorLine(result.stderr, /\.lock is a FIFO \(named pipe\), not a regular file; refusing to use it/);
    }
    // The kept export is still there for a resume once the FIFO is gone.
    rmSync(run.lock);
    const resumed = await cli([...run.args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(run.out, 'utf8').trim().split('\n')).toHaveLength(RECORDS);
  });

  it('a lock that is a symbolic link to /dev/zero: refused, never read', async () => {
    const run = await interrupted();
    symlinkSync('/dev/zero', run.lock);
    const result = await cli(run.args);
    expect(result.code, result.stderr).toBe(2);
    expectOneErrorLine(result.stderr, /\.lock is a symbolic link; refusing to use it/);
  });
});

describe('a resumed export checks its checkpoint against the kept file (exit 9, file kept)', () => {
  /** Append a forged entry after the real ones, as someone who can write the checkpoint would. */
  function forge(run: Interrupted, change: (entry: Record<string, unknown>) => void): { partial: string; checkpoint: string } {
    const lines = readFileSync(run.checkpoint, 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    change(last);
    appendFileSync(run.checkpoint, `${JSON.stringify({ ...last, ids: [] })}\n`);
    return { partial: sha256(run.partial), checkpoint: sha256(run.checkpoint) };
  }

  it.each([
    ['page 10^12 of 10', (entry: Record<string, unknown>) => (entry.page = 1e12), /page 1000000000000 of 10/],
    [
      'a byte count in the middle of a record',
      (entry: Record<string, unknown>) => (entry.bytes = (entry.bytes as number) - 7),
      /is not the end of a record/,
    ],
    [
      '250 records written with 120 in the file',
      (entry: Record<string, unknown>) => {
        entry.written = 250;
        entry.records = 250;
      },
      /it says 250 records, the file holds 120/,
    ],
  ])('%s: refused with exit 9, partial and checkpoint kept as they are', async (_name, change, reason) => {
    const run = await interrupted();
    const before = forge(run, change);
    const resumed = await cli([...run.args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(9);
    expectOneErrorLine(resumed.stderr, reason);
    expect(resumed.stderr).toContain('--restart');
    expect(sha256(run.partial)).toBe(before.partial);
    expect(sha256(run.checkpoint)).toBe(before.checkpoint);
    expect(readdirSync(run.dir).sort()).toEqual(['.props.ndjson.checkpoint', '.props.ndjson.partial']);
  });

  it.each(['csv', 'json'] as const)('a %s partial whose checkpoint is true is resumed to the same file', async (format) => {
    const run = await interrupted(format);
    const resumed = await cli([...run.args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const whole = join(mkdtempSync(join(scratch, 'whole-')), `props.${format}`);
    expect((await cli(['props', 'list', '--out', whole, ...PAGE])).code).toBe(0);
    expect(sha256(run.out)).toBe(sha256(whole));
  });
});
