// Resumable exports (issue 16 §1), in process: each refusal to resume, --restart, a csv resumed after
// a failure without its header twice, and the hint a plain run gives. An export killed with SIGKILL
// part-way and resumed (a killed process is what is tested) is signals.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

const RECORDS = 1500;
const PAGE = ['--page-size', '30', '--concurrency', '1'];
let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
let scratch: string;

const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  run(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '10', ...extra } });
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const freshDir = () => mkdtempSync(join(scratch, 'out-'));

beforeAll(async () => {
  mock = await startMock({ records: RECORDS, seed: 5, latencyMs: 5 });
  admin = mockAdmin(mock);
  env = { ...isolatedEnv(), ...mock.env };
  scratch = tempDir('export-resume-');
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('resumable exports', () => {
  it('refuses to resume when a record removed before the checkpoint shifted the pages, though the total is the same (exit 9)', async () => {
    await admin.reset();
    const dir = freshDir();
    const out = join(dir, 'props.ndjson');
    const args = ['props', 'list', '--out', out, ...PAGE];
    await admin.queueFaults([{ path: '/api/properties', query: { page: '5' }, fault: 'status=503', count: 10 }]);
    expect((await cli(args, { APPRAISAL_RETRY_BASE_MS: '1' })).code).toBe(8);
    await admin.clearFaults();
    // One record of page 1 gone and one added at the end: the same total, every later page one record left.
    const ids = await admin.ids('/api/properties');
    expect((await admin.call('DELETE', `/api/properties/${ids[3]}`)).status).toBe(204);
    const created = await admin.call('POST', '/api/properties', {
      name: 'Added meanwhile',
      propertyType: 'office',
      address: { line1: '1 Main St', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' },
    });
    expect(created.status).toBe(201);
    const shifted = await cli([...args, '--resume']);
    expect(shifted.code, shifted.stderr).toBe(9);
    expect(shifted.stderr).toMatch(
      /^error: cannot resume the export of \/api\/properties: page 4, the last one the partial export holds, now holds a record it does not \([0-9a-f-]{36}\)/m,
    );
    // The record that moved onto page 4 is the one a resume from page 5 would never have read.
    expect(shifted.stderr).toContain(ids[120]!);
    expect(shifted.stderr).toContain('--restart');
    expect(existsSync(out)).toBe(false);
    const restarted = await cli([...args, '--restart']);
    expect(restarted.code, restarted.stderr).toBe(0);
    const exported = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(exported.sort()).toEqual((await admin.ids('/api/properties')).sort());
  });

  it('a partial read while the collection changed is not kept for --resume, which could never finish it; a second run exports it whole', async () => {
    await admin.reset();
    const dir = freshDir();
    const out = join(dir, 'props.ndjson');
    const args = ['props', 'list', '--out', out, ...PAGE];
    const wholeIds = (await admin.ids('/api/properties')).sort();
    const exportedIds = () =>
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id)
        .sort();
    const cases: Array<[string, Array<{ page: string; fault: string; count: number }>, number, RegExp, string]> = [
      // Page 3 repeats page 2's last record: the read ends 1 short, the skipped record before any checkpoint.
      [
        'duplicate',
        [{ page: '3', fault: 'duplicate', count: 1 }],
        9,
        /got 1499 of 1500 records .*\(1 duplicate\(s\) dropped\)/,
        '1 duplicate record(s) dropped by page 3',
      ],
      [
        'total-change',
        [{ page: '3', fault: 'total-change', count: 1 }],
        9,
        /total 1500 at first, 1501 on page 3, 1500 at the end/,
        'total 1500 at first, 1501 on page 3',
      ],
      // The failure is a 503 a resume could ride out, but the pages before it already lack a record.
      [
        'duplicate, then 503',
        [
          { page: '3', fault: 'duplicate', count: 1 },
          { page: '7', fault: 'status=503', count: 10 },
        ],
        8,
        /503/,
        '1 duplicate record(s) dropped by page 3',
      ],
    ];
    for (const [name, faults, code, error, change] of cases) {
      await admin.queueFaults(
        faults.map((fault) => ({ path: '/api/properties', query: { page: fault.page }, fault: fault.fault, count: fault.count })),
      );
      const failed = await cli(args, { APPRAISAL_RETRY_BASE_MS: '1' });
      await admin.clearFaults();
      expect(failed.code, `${name}: ${failed.stderr}`).toBe(code);
      expect(failed.stderr).toMatch(error);
      expect(failed.stderr).toContain(
        `The records exported before the failure were not kept: the collection changed while they were read (${change}), so --resume could not finish them; run the same command again to export it from the beginning`,
      );
      expect(failed.stderr).not.toContain('with --resume to continue');
      expect(readdirSync(dir), name).toEqual([]);
      // The cron line's --resume: nothing to continue, so it exports the collection whole.
      const again = await cli([...args, '--resume']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`Nothing to resume for ${out}`);
      expect(exportedIds()).toEqual(wholeIds);
      rmSync(out);
    }
  });

  it('refuses to resume another export (exit 2) or a changed collection (exit 9); --restart starts over; a plain run mentions --resume', async () => {
    await admin.reset();
    const dir = freshDir();
    const out = join(dir, 'props.csv');
    const args = ['props', 'list', '--out', out, ...PAGE];
    const interrupt = async () => {
      await admin.queueFaults([{ path: '/api/properties', query: { page: '5' }, fault: 'status=503', count: 10 }]);
      const failed = await cli(args, { APPRAISAL_RETRY_BASE_MS: '1' });
      await admin.clearFaults();
      expect(failed.code).toBe(8);
      expect(failed.stderr).toContain(
        `Kept the 120 records exported before the failure beside ${out}; run the same command with --resume to continue`,
      );
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(dir).sort()).toEqual(['.props.csv.checkpoint', '.props.csv.partial']);
    };
    await interrupt();

    const otherOrigin = mock.baseUrl.replace('127.0.0.1', 'localhost');
    const refusals: Array<[string[], Record<string, string>, RegExp]> = [
      [['--type', 'office'], {}, /filters was \{\}, this run has \{"propertyType":"office"\}/],
      [['-o', 'ndjson'], {}, /format was "csv", this run has "ndjson"/],
      [['--delimiter', ';', '--bom'], {}, /format was "csv", this run has "csv separated by semicolons, with a BOM"/],
      [['--fields', 'id'], {}, /--fields was none, this run has \["id"\]/],
      [['-p', 'staging'], {}, /profile was "default", this run has "staging"/],
      [[], { APPRAISAL_BASE_URL: otherOrigin }, /origin was/],
    ];
    for (const [extra, extraEnv, reason] of refusals) {
      const refused = await cli([...args, '--resume', ...extra], extraEnv);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/^error: --resume: the partial export beside .* is another export \(/m);
      expect(refused.stderr).toMatch(reason);
      expect(refused.stderr).toContain('--restart');
    }
    const otherCommand = await cli(['clients', 'list', '--out', out, ...PAGE, '--resume']);
    expect(otherCommand.code).toBe(2);
    expect(otherCommand.stderr).toContain('collection was "/api/properties", this run has "/api/clients"');

    // The collection grew since the checkpoint: the pages no longer line up.
    const created = await admin.call('POST', '/api/properties', {
      name: 'Added meanwhile',
      propertyType: 'office',
      address: { line1: '1 Main St', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' },
    });
    expect(created.status).toBe(201);
    const changed = await cli([...args, '--resume']);
    expect(changed.code).toBe(9);
    expect(changed.stderr).toContain(`it has ${RECORDS + 1} records now, ${RECORDS} when the partial export was written`);
    expect(changed.stderr).toContain('--restart');
    expect(readdirSync(dir).sort()).toEqual(['.props.csv.checkpoint', '.props.csv.partial']);

    const restarted = await cli([...args, '--restart']);
    expect(restarted.code).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\r\n')).toHaveLength(RECORDS + 2);
    expect(readdirSync(dir)).toEqual(['props.csv']);
    const reference = sha256(out);

    // A csv export resumed after a failure: the header is not repeated, the file is the same.
    rmSync(out);
    await interrupt();
    const resumed = await cli([...args, '--resume']);
    expect(resumed.code).toBe(0);
    expect(sha256(out)).toBe(reference);

    // The same for a spreadsheet's csv (--delimiter ";" --bom): the mark is not written again either.
    const excel = ['--delimiter', ';', '--bom'];
    const clean = await cli([...args, ...excel]);
    expect(clean.code, clean.stderr).toBe(0);
    const excelReference = sha256(out);
    expect(readFileSync(out).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    rmSync(out);
    await admin.queueFaults([{ path: '/api/properties', query: { page: '5' }, fault: 'status=503', count: 10 }]);
    expect((await cli([...args, ...excel], { APPRAISAL_RETRY_BASE_MS: '1' })).code).toBe(8);
    await admin.clearFaults();
    const plainResume = await cli([...args, '--resume']);
    expect(plainResume.code).toBe(2);
    expect(plainResume.stderr).toMatch(/format was "csv separated by semicolons, with a BOM", this run has "csv"/);
    const resumedExcel = await cli([...args, ...excel, '--resume']);
    expect(resumedExcel.code, resumedExcel.stderr).toBe(0);
    expect(sha256(out)).toBe(excelReference);

    // Without --resume or --restart a run that finds a partial says --resume exists, and starts over.
    rmSync(out);
    await interrupt();
    const plain = await cli(args);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(/A partial export of 120 records to .* is replaced; run with --resume to continue such an export instead/);
    expect(readdirSync(dir)).toEqual(['props.csv']);

    const misuse = await cli(['props', 'list', '-o', 'ndjson', '--resume']);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toContain('--resume needs --out PATH');
  });
});
