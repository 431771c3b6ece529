// Split output (issue 16 §4): `--split-rows` / `--split-size` parts concatenate to the unsplit
// export, the manifest's sha256s match the parts, bad values are exit 2 with one line, and an export
// that fails mid-way leaves no part, temp file or manifest behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

const RECORDS = 300;
const PAGE = ['--page-size', '50', '--concurrency', '1'];
let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
let scratch: string;

const cli = (args: string[]) => run(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '1' } });
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const freshDir = () => mkdtempSync(join(scratch, 'out-'));

interface Manifest {
  records: number;
  parts: Array<{ file: string; records: number; bytes: number; sha256: string }>;
}

/** The parts the manifest lists, checked against the files on disk, and the files themselves. */
function partsOf(dir: string, name: string): Buffer[] {
  const manifest = JSON.parse(readFileSync(join(dir, `${name}.manifest.json`), 'utf8')) as Manifest;
  expect(manifest.records).toBe(RECORDS);
  const [stem, ext] = name.split('.');
  expect(
    readdirSync(dir)
      .filter((file) => file.startsWith(`${stem}-`) && file.endsWith(`.${ext}`))
      .sort(),
  ).toEqual(manifest.parts.map((part) => part.file));
  return manifest.parts.map((part) => {
    const data = readFileSync(join(dir, part.file));
    expect([data.length, sha256(data)]).toEqual([part.bytes, part.sha256]);
    return data;
  });
}

beforeAll(async () => {
  mock = await startMock({ records: RECORDS, seed: 7 });
  admin = mockAdmin(mock);
  env = { ...isolatedEnv(), ...mock.env };
  scratch = tempDir('export-split-');
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('split exports', () => {
  it('ndjson parts (--split-rows) and csv parts (--split-size) concatenate to the unsplit export', async () => {
    await admin.reset();
    const dir = freshDir();
    for (const name of ['whole.ndjson', 'whole.csv'])
      expect((await cli(['props', 'list', '--out', join(dir, name), ...PAGE])).code).toBe(0);

    const ndjson = await cli(['props', 'list', '--out', join(dir, 'props.ndjson'), '--split-rows', '70', ...PAGE]);
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(ndjson.stderr).toContain('props-0001.ndjson … props-0005.ndjson (5 parts, manifest');
    const lines = partsOf(dir, 'props.ndjson').map((part) => part.toString('utf8').split('\n').length - 1);
    expect(lines).toEqual([70, 70, 70, 70, 20]);
    expect(sha256(Buffer.concat(partsOf(dir, 'props.ndjson')))).toBe(sha256(readFileSync(join(dir, 'whole.ndjson'))));

    const csv = await cli(['props', 'list', '--out', join(dir, 'props.csv'), '--split-size', '16KiB', ...PAGE]);
    expect(csv.code, csv.stderr).toBe(0);
    const whole = readFileSync(join(dir, 'whole.csv'), 'utf8');
    const header = whole.slice(0, whole.indexOf('\r\n') + 2);
    const parts = partsOf(dir, 'props.csv');
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(16 * 1024);
      expect(part.toString('utf8').startsWith(header)).toBe(true);
    }
    expect(header + parts.map((part) => part.toString('utf8').slice(header.length)).join('')).toBe(whole);
    // Nothing else: no temp file, partial or checkpoint beside them.
    expect(readdirSync(dir).filter((file) => file.startsWith('.'))).toEqual([]);
  });

  it('bad values, no --out and --resume are exit 2 with one line, before any request', async () => {
    await admin.clearRequests();
    const out = join(freshDir(), 'props.ndjson');
    const cases: Array<[string[], RegExp]> = [
      [
        ['--out', out, '--split-size', '12XB'],
        /^error: --split-size must be a size such as 500MiB, 2GB, 64K or a number of bytes; got "12XB"\n$/,
      ],
      [['--out', out, '--split-rows', '0'], /^error: --split-rows must be a whole number of records, at least 1; got "0"\n$/],
      [['--split-rows', '10'], /^error: --split-rows needs --out PATH: /],
      [
        ['--out', out, '--split-rows', '10', '--resume'],
        /^error: --split-rows cannot be combined with --resume: a split export is not resumable\n/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await cli(['props', 'list', ...args]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    }
    expect((await admin.requests()).filter((request) => request.path.startsWith('/api/properties'))).toEqual([]);
  });

  it('an export that fails mid-way leaves no part, temp file or manifest', async () => {
    await admin.reset();
    const dir = freshDir();
    // Page 5 keeps failing: parts 1-2 (records 1-160) are complete by then, and must not appear.
    await admin.queueFaults([{ path: '/api/properties', query: { page: '5' }, fault: 'status=503', count: 10 }]);
    const failed = await cli(['props', 'list', '--out', join(dir, 'props.json'), '--split-rows', '80', '--retries', '1', ...PAGE]);
    await admin.clearFaults();
    expect(failed.code, failed.stderr).toBe(8);
    expect(readdirSync(dir)).toEqual([]);
  });
});
