// `props import` against input an attacker, or Excel, wrote (issue 37 §4), in process against one
// mock: a Windows-1252 CSV is refused naming the row and column until --encoding says what it is,
// then imported with its accents (its rows to fix written back in UTF-8, marked); a NUL byte and a row over the bounds are refused before any write;
// a trailing blank line is no row; blank lines and rows of empty cells before a row are counted in
// the row it is named by (CSV and NDJSON, the dry run and the results), not in the journal's, which
// resumes as before; and a journal edited to say rows were done is not trusted: ids
// that are not record ids are refused, and rows whose records the service does not hold are
// reported failed (in --failed), never counted as created.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { adminOf, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import {
  PROPERTY_HEADER,
  csvText,
  parcelCounts,
  propertyCells,
  propertyRecord,
  readCsv,
  summaryCounts,
  writePropertiesCsv,
} from './import-support.js';

let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
let dir: string;
const cli = (args: string[]) => run(args, { env, cwd: dir, tty: { stderr: false } });
const writes = async () => (await admin.apiRequests()).filter((entry) => entry.method !== 'GET');

beforeAll(async () => {
  mock = await startMock({ records: 5 });
  admin = adminOf(mock);
  env = { ...isolatedEnv(), ...mock.env, APPRAISAL_RETRY_BASE_MS: '1' };
  dir = tempDir('appraisal-import-input-');
});
afterAll(() => mock?.stop());

/** Properties as Excel's plain "CSV" saves them on Windows: windows-1252 bytes, CRLF. */
function excelCsv(name: string, tag: string): string {
  const rows = [propertyCells(tag, 1), propertyCells(tag, 2)];
  rows[1]![5] = 'Montréal';
  rows[1]![0] = `${tag} “Le Château”`;
  writeFileSync(join(dir, name), Buffer.from(csvText(PROPERTY_HEADER, rows).replace('“', '\x93').replace('”', '\x94'), 'latin1'));
  return name;
}

describe('props import: text in its encoding', () => {
  it('refuses a Windows-1252 CSV naming the row and column, before any write; imports it with --encoding windows-1252', async () => {
    const file = excelCsv('excel.csv', 'W1252');
    await admin.clearRequests();
    const refused = await cli(['props', 'import', file, '--match', 'parcelNumber']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'error: excel.csv: row 2, column name: not UTF-8 text\n' +
        'hint: a file Excel saved as plain "CSV" on Windows is --encoding windows-1252 (or save it as "CSV UTF-8")\n',
    );
    // Row 1 is valid UTF-8 too, and still not created: the file is read through before anything is sent.
    expect(await writes()).toEqual([]);
    expect(existsSync(join(dir, 'excel.results.csv'))).toBe(false);

    const imported = await cli(['props', 'import', file, '--match', 'parcelNumber', '--encoding', 'windows-1252']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(summaryCounts(imported.stdout)).toMatchObject({ created: 2, invalid: 0 });
    const id = readCsv(readFileSync(join(dir, 'excel.results.csv'), 'utf8'))[1]!._id!;
    const body = (await admin.call('GET', `/api/properties/${id}`)).body as { data?: unknown };
    expect(body.data ?? body).toMatchObject({ name: 'W1252 “Le Château”', address: { city: 'Montréal' } });
  });

  it('writes the rows to fix of a windows-1252 input in UTF-8 with a BOM: read back as UTF-8, refused with --encoding', async () => {
    const rows = [propertyCells('W1252F', 1)];
    rows[0]![0] = 'Château';
    rows[0]![1] = 'castle';
    writeFileSync(join(dir, 'excel-bad.csv'), Buffer.from(csvText(PROPERTY_HEADER, rows), 'latin1'));
    const result = await cli(['props', 'import', 'excel-bad.csv', '--encoding', 'windows-1252']);
    expect(result.code, result.stderr).toBe(22);
    const failed = readFileSync(join(dir, 'excel-bad.failed.csv'), 'utf8');
    expect(failed.startsWith('\uFEFFname,')).toBe(true);
    expect(failed).toContain('Château,castle');
    const again = await cli(['props', 'import', 'excel-bad.failed.csv', '--encoding', 'windows-1252']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^error: excel-bad\.failed\.csv: starts with a UTF-8 byte-order mark, so it is UTF-8, not windows-1252\n/);
  });

  it('writes the results and the rows to fix of a CSV with a BOM (Excel\'s "CSV UTF-8") with a BOM, so the same spreadsheet reads them', async () => {
    const name = 'Café Müller – 東京';
    // Semicolons, CRLF, a BOM: as Excel saves "CSV UTF-8" where the comma is the decimal mark. One
    // file with a quote (the CSV parser) and one without (the byte scan's split).
    for (const [file, quoted] of [
      ['excel-bom.csv', true],
      ['excel-bom-plain.csv', false],
    ] as const) {
      const tag = quoted ? 'BOMQ' : 'BOMP';
      const rows = [propertyCells(tag, 1), propertyCells(tag, 2)];
      rows[0]![0] = quoted ? `${name} "A"` : name;
      rows[1]![1] = 'castle';
      const text = [PROPERTY_HEADER, ...rows]
        .map((row) => row.map((cell) => (cell.includes('"') ? `"${cell.replaceAll('"', '""')}"` : cell)).join(';'))
        .join('\r\n');
      writeFileSync(join(dir, file), `\uFEFF${text}\r\n`);
      const result = await cli(['props', 'import', file, '--match', 'parcelNumber']);
      expect(result.code, result.stderr).toBe(22);
      const results = readFileSync(join(dir, file.replace('.csv', '.results.csv')), 'utf8');
      expect(results.startsWith('\uFEFFname;propertyType;'), results.slice(0, 40)).toBe(true);
      expect(readCsv(results.replaceAll(';', ','))).toHaveLength(2);
      expect(results).toContain(quoted ? `"${name} ""A""";` : `${name};`);
      const failed = readFileSync(join(dir, file.replace('.csv', '.failed.csv')), 'utf8');
      expect(failed.startsWith('\uFEFFname;propertyType;'), failed.slice(0, 40)).toBe(true);
      expect(failed).toContain(';castle;');
    }
    // A UTF-8 input without a BOM gets none: the files are as the input was.
    writePropertiesCsv(dir, 'plain-utf8.csv', 'NOBOM', 1);
    const plain = await cli(['props', 'import', 'plain-utf8.csv', '--match', 'parcelNumber']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(readFileSync(join(dir, 'plain-utf8.results.csv'), 'utf8').startsWith('name,')).toBe(true);
  });

  it('refuses a NUL byte and a row over the bounds with one line, before any write', async () => {
    const rows = [propertyCells('NUL', 1), propertyCells('NUL', 2)];
    rows[1]![4] = '1 Pier\0Rd';
    writeFileSync(join(dir, 'nul.csv'), csvText(PROPERTY_HEADER, rows));
    await admin.clearRequests();
    const nul = await cli(['props', 'import', 'nul.csv']);
    expect(nul.code).toBe(2);
    expect(nul.stderr).toMatch(/^error: nul\.csv: row 2, column address\.line1: holds a NUL byte, which is never text\nhint: /);

    const big = [propertyCells('BIG', 1)];
    big[0]![0] = 'x'.repeat(2 * 1024 * 1024);
    writeFileSync(join(dir, 'big-row.csv'), csvText(PROPERTY_HEADER, [propertyCells('BIG', 0), ...big]));
    const over = await cli(['props', 'import', 'big-row.csv']);
    expect(over.code).toBe(2);
    expect(over.stderr).toBe('error: big-row.csv: row 2 is over 1 MiB (the most one row may hold)\n');
    expect(await writes()).toEqual([]);
  });

  it('skips a trailing blank line (and a row of empty cells) instead of calling it an invalid row', async () => {
    const path = writePropertiesCsv(dir, 'blank.csv', 'BLANK', 2);
    writeFileSync(path, `${readFileSync(path, 'utf8')}${','.repeat(PROPERTY_HEADER.length - 1)}\r\n\n`);
    const result = await cli(['props', 'import', 'blank.csv', '--match', 'parcelNumber']);
    expect(result.code, result.stderr).toBe(0);
    expect(summaryCounts(result.stdout)).toMatchObject({ created: 2, invalid: 0 });
  });
});

describe('props import: rows named as the file shows them', () => {
  // Header, a blank line, a spreadsheet's row of empty cells, then the data: an invalid row at the
  // file's line 4 (the 3rd row below the header), a blank line, a row and its duplicate at 6 and 7.
  const gappy = (tag: string) =>
    [
      PROPERTY_HEADER.join(','),
      '',
      ','.repeat(PROPERTY_HEADER.length - 1),
      [`${tag} 1`, 'office', `${tag}-1`, 'old', '1 Pier Rd', 'Boston', 'MA', '02110', 'US'].join(','),
      '',
      propertyCells(tag, 2).join(','),
      propertyCells(tag, 2).join(','),
    ].join('\r\n') + '\r\n';

  it('counts blank lines and rows of empty cells below the CSV header in the dry run, the results and "duplicate of row"', async () => {
    writeFileSync(join(dir, 'gappy.csv'), gappy('GAP'));
    const dry = await cli(['props', 'import', 'gappy.csv', '--match', 'parcelNumber', '--dry-run', '--results', 'gappy.plan.csv']);
    expect(dry.code, dry.stderr).toBe(22);
    expect(dry.stdout).toContain('  invalid row 3: yearBuilt: must be integer');
    expect(dry.stdout).toContain('  invalid row 6: parcelNumber: GAP-2 is a duplicate of row 5 (sent once, from the first row)');
    // The real run reads a file without quotes by its own split (unquoted-csv.ts), the dry run by csv-parse: the same numbers.
    const real = await cli(['props', 'import', 'gappy.csv', '--match', 'parcelNumber']);
    expect(real.code, real.stderr).toBe(22);
    for (const results of ['gappy.plan.csv', 'gappy.results.csv'])
      expect(readCsv(readFileSync(join(dir, results), 'utf8')).map((row) => [row._row, row._status])).toEqual([
        ['3', 'invalid'],
        ['5', 'created'],
        ['6', 'invalid'],
      ]);
  });

  it('counts a record with a multi-line cell as one row, as a spreadsheet does', async () => {
    const text = [
      PROPERTY_HEADER.join(','),
      ['"MULTI 1\nsecond line"', ...propertyCells('MULTI', 1).slice(1)].join(','),
      '',
      ['MULTI 2', 'office', 'MULTI-2', 'old', '2 Pier Rd', 'Boston', 'MA', '02110', 'US'].join(','),
    ].join('\n');
    writeFileSync(join(dir, 'multi.csv'), text);
    const result = await cli(['props', 'import', 'multi.csv', '--match', 'parcelNumber', '--dry-run']);
    expect(result.code, result.stderr).toBe(22);
    expect(result.stdout).toContain('  invalid row 3: yearBuilt: must be integer');
  });

  it('names an NDJSON row by its line, blank lines counted, in the dry run and the results', async () => {
    const lines = [
      '',
      '  ',
      JSON.stringify({ ...propertyRecord('NDGAP', 1), yearBuilt: 'old' }),
      '',
      JSON.stringify(propertyRecord('NDGAP', 2)),
    ];
    writeFileSync(join(dir, 'gappy.ndjson'), `${lines.join('\n')}\n`);
    const dry = await cli(['props', 'import', 'gappy.ndjson', '--match', 'parcelNumber', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(22);
    expect(dry.stdout).toContain('  invalid row 3: yearBuilt: must be integer');
    const result = await cli(['props', 'import', 'gappy.ndjson', '--match', 'parcelNumber', '--results', 'gappy-ndjson.results.csv']);
    expect(result.code, result.stderr).toBe(22);
    expect(readCsv(readFileSync(join(dir, 'gappy-ndjson.results.csv'), 'utf8')).map((row) => [row._row, row._status])).toEqual([
      ['3', 'invalid'],
      ['5', 'created'],
    ]);
  });

  it('keeps the journal keyed by the rows read, as earlier versions wrote it, so an interrupted import resumes the same rows', async () => {
    writeFileSync(join(dir, 'resume-gap.csv'), gappy('RGAP').replace(',old,', ',1990,'));
    // The second create is refused with a 401, which ends the run and leaves the journal of the first.
    await admin.queueFault({ path: '/api/properties', method: 'POST', fault: 'status=401', count: 1, skip: 1 });
    const first = await cli(['props', 'import', 'resume-gap.csv', '--match', 'parcelNumber', '--concurrency', '1']);
    expect(first.code).toBe(4);
    await admin.clearFaults();
    const entries = readFileSync(join(dir, '.resume-gap.results.csv.journal'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as { row: number; status: string });
    // The file's row 3 is the first row read: the number a journal written before rows counted blank lines holds.
    expect(entries.map(({ row, status }) => [row, status])).toEqual([[1, 'created']]);

    const resumed = await cli(['props', 'import', 'resume-gap.csv', '--match', 'parcelNumber', '--concurrency', '1']);
    expect(resumed.code, resumed.stderr).toBe(22);
    expect(resumed.stderr).toMatch(/resuming the import journaled beside resume-gap\.results\.csv: 1 rows already done/);
    expect(readCsv(readFileSync(join(dir, 'resume-gap.results.csv'), 'utf8')).map((row) => [row._row, row._status, row._error])).toEqual([
      ['3', 'created', ''],
      ['5', 'created', ''],
      ['6', 'invalid', 'parcelNumber: RGAP-2 is a duplicate of row 5 (sent once, from the first row)'],
    ]);
    expect(Object.fromEntries(await parcelCounts(admin, 'RGAP'))).toEqual({ 'RGAP-1': 1, 'RGAP-2': 1 });
  });
});

describe('props import: the temp files a killed run left', () => {
  it("removes its own leftovers whose process is gone, never a live run's or another file's", async () => {
    writePropertiesCsv(dir, 'left.csv', 'LEFT', 1);
    // A pid no process has any more: a child that ran and was reaped.
    const dead = spawnSync('true').pid!;
    const live = process.pid; // this process: an in-process run that is still writing
    const planted = {
      deadResults: `.left.results.csv.${dead}.0123456789ab.tmp`,
      deadFailed: `.left.failed.csv.${dead}.ba9876543210.tmp`,
      liveResults: `.left.results.csv.${live}.0123456789ab.tmp`,
      otherInput: `.other.results.csv.${dead}.0123456789ab.tmp`,
      notOurName: `.left.results.csv.${dead}.tmp`,
    };
    for (const name of Object.values(planted)) writeFileSync(join(dir, name), '', { mode: 0o600 });
    const result = await cli(['props', 'import', 'left.csv', '--match', 'parcelNumber']);
    expect(result.code, result.stderr).toBe(0);
    const left = new Set(readdirSync(dir));
    expect(left.has(planted.deadResults)).toBe(false);
    expect(left.has(planted.deadFailed)).toBe(false);
    expect(left.has(planted.liveResults)).toBe(true);
    expect(left.has(planted.otherInput)).toBe(true);
    expect(left.has(planted.notOurName)).toBe(true);
    expect([...left].filter((name) => name.startsWith('.left.') && name.endsWith('.tmp')).sort()).toEqual(
      [planted.liveResults, planted.notOurName].sort(),
    );
  });
});

describe('props import: a journal edited to say rows were done', () => {
  it('refuses ids that are not record ids, and reports rows whose records the service does not hold, never as created', async () => {
    writePropertiesCsv(dir, 'edited.csv', 'EDIT', 6);
    // The run ends after two creates (a 401 ends any import, and no row after it is sent), leaving its journal.
    await admin.queueFault({ path: '/api/properties', method: 'POST', fault: 'status=401', count: 1, skip: 2 });
    const first = await cli(['props', 'import', 'edited.csv', '--concurrency', '1']);
    expect(first.code).toBe(4);
    await admin.clearFaults();
    const journal = join(dir, '.edited.results.csv.journal');
    const kept = readFileSync(journal, 'utf8');
    expect(
      kept
        .trim()
        .split('\n')
        .filter((line) => line.includes('"created"')),
    ).toHaveLength(2);

    const line = (row: number, id: string) => `${JSON.stringify({ row, status: 'created', id })}\n`;
    writeFileSync(journal, kept + line(3, '../../keys') + line(4, '../../keys'));
    const traversal = await cli(['props', 'import', 'edited.csv', '--concurrency', '1']);
    expect(traversal.code).toBe(2);
    expect(traversal.stderr).toMatch(/^error: .*\.edited\.results\.csv\.journal, line \d+: "\.\.\/\.\.\/keys" is not a record id/);

    writeFileSync(journal, kept + line(3, '00000000-0000-4000-8000-00000000000a') + line(4, '00000000-0000-4000-8000-00000000000b'));
    const resumed = await cli(['props', 'import', 'edited.csv', '--concurrency', '1']);
    expect(resumed.code, resumed.stderr).toBe(22);
    expect(resumed.stderr).toMatch(/2 rows already done \(2 more the service no longer holds: reported failed\)/);
    expect(summaryCounts(resumed.stdout)).toMatchObject({ created: 4, failed: 2 });
    const results = readCsv(readFileSync(join(dir, 'edited.results.csv'), 'utf8'));
    expect(results.filter((row) => row._status === 'failed').map((row) => row._row)).toEqual(['3', '4']);
    expect(results[2]!._error).toMatch(
      /the journal says an earlier run created this row as 00000000-.*, but the service holds no such record/,
    );
    expect([...(await parcelCounts(admin, 'EDIT')).keys()].sort()).toEqual(['EDIT-1', 'EDIT-2', 'EDIT-5', 'EDIT-6']);

    // The rows to check are in the failed file, which imports as it is.
    const again = await cli(['props', 'import', 'edited.failed.csv', '--match', 'parcelNumber']);
    expect(again.code, again.stderr).toBe(0);
    expect((await parcelCounts(admin, 'EDIT')).size).toBe(6);
  });
});
