// `<family> import` against the mock: every input format and stdin, a 3,000-row create, the same file
// again (no write at all), 100 edited rows (exactly 100 PATCHes), invalid rows and the failed file,
// dry run = real run row for row, 503s and a lost answer (no duplicate), the production guard, the
// run lock, and the spreadsheet round trip (export → import --match id --dry-run) for every family.
// In process (test/helpers/run.ts); `kill -9` in the middle of a run is in import-crash.test.ts (spawned).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { adminOf, type MockAdmin } from '../helpers/mock-admin.js';
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
// In process (test/helpers/run.ts): the sources as they are, no Node start-up per run.
const cli = (args: string[], extra: { input?: string; env?: Record<string, string>; tty?: boolean } = {}) =>
  run(args, {
    env: { ...env, ...extra.env },
    cwd: dir,
    tty: { stderr: extra.tty ?? false },
    ...(extra.input === undefined ? {} : { stdin: extra.input }),
  });

const writes = async () => (await admin.apiRequests()).filter((entry) => entry.method !== 'GET');

beforeAll(async () => {
  mock = await startMock({ records: 20 });
  admin = adminOf(mock);
  // Backoff of a millisecond: retries are tested, not waited for.
  env = { ...isolatedEnv(), ...mock.env, APPRAISAL_RETRY_BASE_MS: '1' };
  dir = tempDir('appraisal-import-');
});
afterAll(() => mock?.stop());

describe('import: the spreadsheet round trip', () => {
  it('export → import --match id --dry-run reports every record unchanged, for every family, from CSV and NDJSON', async () => {
    for (const format of ['csv', 'ndjson'] as const) {
      const snapshot = join(dir, `snapshot-${format}`);
      const exported = await cli(['export', '--dir', snapshot, '-o', format, '--families', 'props,clients,contacts,assignments']);
      expect(exported.code, exported.stderr).toBe(0);
      for (const family of ['props', 'clients', 'contacts', 'assignments']) {
        const file = join(snapshot, `${family}.${format}`);
        const records =
          format === 'csv' ? readCsv(readFileSync(file, 'utf8')).length : readFileSync(file, 'utf8').trim().split('\n').length;
        await admin.clearRequests();
        const result = await cli([family, 'import', file, '--match', 'id', '--dry-run']);
        expect(result.code, `${family} ${format}: ${result.stderr}`).toBe(0);
        expect(result.stdout).toContain(`plan: create 0, update 0, unchanged ${records.toLocaleString('en-US')}, invalid 0`);
        // Every exported column is a published field (or one the request does not take): no warning.
        expect(result.stderr).not.toContain('warning');
        expect(await writes()).toEqual([]);
      }
    }
  });
});

describe('props import: a large create, the same file again, edited rows', () => {
  it('creates 3,000 rows, then sends no write for the same file, then exactly 100 PATCHes for 100 edited rows', async () => {
    writePropertiesCsv(dir, 'big.csv', 'BIG', 3000);
    const first = await cli(['props', 'import', 'big.csv', '--match', 'parcelNumber', '--concurrency', '8']);
    expect(first.code, first.stderr).toBe(0);
    expect(summaryCounts(first.stdout)).toMatchObject({ created: 3000, updated: 0, unchanged: 0, invalid: 0, failed: 0 });
    const counts = await parcelCounts(admin, 'BIG');
    expect(counts.size).toBe(3000);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    const results = readCsv(readFileSync(join(dir, 'big.results.csv'), 'utf8'));
    expect(results).toHaveLength(3000);
    expect(results.map((row) => Number(row._row))).toEqual(Array.from({ length: 3000 }, (_, index) => index + 1));
    expect(results.every((row) => row._status === 'created' && /^[0-9a-f-]{36}$/.test(row._id!))).toBe(true);
    // Types from the request schema: the ZIP keeps its leading zero, yearBuilt is a number.
    const one = (await admin.call('GET', `/api/properties/${results[0]!._id}`)).body as { data?: Record<string, unknown> } & Record<
      string,
      unknown
    >;
    const created = (one.data ?? one) as { address: { postalCode: unknown }; yearBuilt: unknown; parcelNumber: unknown };
    expect(created).toMatchObject({ address: { postalCode: '02110' }, yearBuilt: 1951, parcelNumber: 'BIG-1' });
    expect(existsSync(join(dir, '.big.results.csv.journal'))).toBe(false);
    expect(existsSync(join(dir, 'big.failed.csv'))).toBe(false);

    await admin.clearRequests();
    const again = await cli(['props', 'import', 'big.csv', '--match', 'parcelNumber', '--concurrency', '8']);
    expect(again.code, again.stderr).toBe(0);
    expect(summaryCounts(again.stdout)).toMatchObject({ created: 0, updated: 0, unchanged: 3000 });
    expect(await writes()).toEqual([]);

    const rows = Array.from({ length: 3000 }, (_, index) => propertyCells('BIG', index + 1, index < 100 ? 2024 : undefined));
    writeFileSync(join(dir, 'big.csv'), csvText(PROPERTY_HEADER, rows));
    await admin.clearRequests();
    const edited = await cli(['props', 'import', 'big.csv', '--match', 'parcelNumber', '--concurrency', '8']);
    expect(edited.code, edited.stderr).toBe(0);
    expect(summaryCounts(edited.stdout)).toMatchObject({ created: 0, updated: 100, unchanged: 2900 });
    const sent = await writes();
    expect(sent).toHaveLength(100);
    expect(sent.every((entry) => entry.method === 'PATCH' && entry.status === 200)).toBe(true);
    expect((await parcelCounts(admin, 'BIG')).size).toBe(3000);
  });
});

describe('props import: input formats', () => {
  it('reads CSV, NDJSON, a JSON array and stdin alike, numbering rows the same way', async () => {
    writePropertiesCsv(dir, 'fmt.csv', 'FMT-CSV', 2);
    writeFileSync(join(dir, 'fmt.ndjson'), [1, 2].map((n) => JSON.stringify(propertyRecord('FMT-ND', n))).join('\n') + '\n');
    writeFileSync(join(dir, 'fmt.json'), JSON.stringify([1, 2].map((n) => propertyRecord('FMT-JS', n))));
    for (const [file, tag] of [
      ['fmt.csv', 'FMT-CSV'],
      ['fmt.ndjson', 'FMT-ND'],
      ['fmt.json', 'FMT-JS'],
    ] as const) {
      const result = await cli(['props', 'import', file, '--match', 'parcelNumber']);
      expect(result.code, `${file}: ${result.stderr}`).toBe(0);
      expect(summaryCounts(result.stdout)).toMatchObject({ created: 2 });
      const results = readCsv(readFileSync(join(dir, file.replace(/\.\w+$/, '.results.csv')), 'utf8'));
      expect(results.map((row) => [row._row, row._status, row.parcelNumber])).toEqual([
        ['1', 'created', `${tag}-1`],
        ['2', 'created', `${tag}-2`],
      ]);
      expect((await parcelCounts(admin, tag)).size).toBe(2);
    }
    const input = [1, 2, 3].map((n) => JSON.stringify(propertyRecord('FMT-IN', n))).join('\n');
    const piped = await cli(['props', 'import', '-', '--format', 'ndjson', '--match', 'parcelNumber', '--results', 'stdin.results.csv'], {
      input,
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(summaryCounts(piped.stdout)).toMatchObject({ created: 3 });
    expect(readCsv(readFileSync(join(dir, 'stdin.results.csv'), 'utf8')).map((row) => row._status)).toEqual([
      'created',
      'created',
      'created',
    ]);
    const unnamed = await cli(['props', 'import', '-'], { input });
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('--format');
  });
});

describe('props import: invalid rows and the failed file', () => {
  it('reports row, column and reason, sends none of them, and the fixed failed file imports as it is', async () => {
    const rows = [
      propertyCells('BAD', 1),
      ['BAD 2', 'office', 'BAD-2', 'nineteen-ninety', '2 Pier Rd', 'Boston', 'MA', '02110', 'US'],
      ['BAD 3', 'castle', 'BAD-3', '1990', '3 Pier Rd', 'Boston', 'MA', '02110', 'US'],
      propertyCells('BAD', 1, 1999),
      ['', 'office', 'BAD-5', '1990', '5 Pier Rd', 'Boston', 'MA', '02110', 'US'],
    ];
    writeFileSync(join(dir, 'bad.csv'), csvText(PROPERTY_HEADER, rows));
    await admin.clearRequests();
    const result = await cli(['props', 'import', 'bad.csv', '--match', 'parcelNumber', '--failed', 'fix.csv']);
    expect(result.code, result.stderr).toBe(22);
    expect(summaryCounts(result.stdout)).toMatchObject({ created: 1, invalid: 4, failed: 0 });
    expect(result.stderr).toMatch(/4 of 5 rows were not imported/);
    expect((await writes()).map((entry) => entry.method)).toEqual(['POST']);
    const results = readCsv(readFileSync(join(dir, 'bad.results.csv'), 'utf8'));
    expect(results.map((row) => [row._row, row._status])).toEqual([
      ['1', 'created'],
      ['2', 'invalid'],
      ['3', 'invalid'],
      ['4', 'invalid'],
      ['5', 'invalid'],
    ]);
    expect(results[1]!._error).toMatch(/^yearBuilt: must be integer/);
    expect(results[2]!._error).toMatch(/^propertyType: must be one of/);
    expect(results[3]!._error).toBe('parcelNumber: BAD-1 is a duplicate of row 1 (sent once, from the first row)');
    expect(results[4]!._error).toBe('name: is required');
    const failedText = readFileSync(join(dir, 'fix.csv'), 'utf8');
    expect(failedText.split('\r\n')[0]).toBe(PROPERTY_HEADER.join(','));
    const failedRows = readCsv(failedText);
    expect(failedRows.map((row) => row.parcelNumber)).toEqual(['BAD-2', 'BAD-3', 'BAD-1', 'BAD-5']);

    const fixed = failedText
      .replace('nineteen-ninety', '1990')
      .replace('castle', 'retail')
      .replace('BAD 1,office,BAD-1', 'BAD 4,office,BAD-4')
      .replace('\r\n,office,BAD-5', '\r\nBAD 5,office,BAD-5');
    writeFileSync(join(dir, 'fix.csv'), fixed);
    const again = await cli(['props', 'import', 'fix.csv', '--match', 'parcelNumber']);
    expect(again.code, again.stderr).toBe(0);
    expect(summaryCounts(again.stdout)).toMatchObject({ created: 4, invalid: 0 });
    expect([...(await parcelCounts(admin, 'BAD')).entries()].sort()).toEqual([
      ['BAD-1', 1],
      ['BAD-2', 1],
      ['BAD-3', 1],
      ['BAD-4', 1],
      ['BAD-5', 1],
    ]);
  });
});

describe('props import: a CSV with semicolons or tabs between its fields (Excel where the comma is the decimal mark)', () => {
  /** Rows with `sep` between cells; cells holding the separator, a comma or a quote are quoted as Excel quotes them. */
  const separated = (sep: string, header: readonly string[], rows: ReadonlyArray<readonly string[]>) =>
    [header, ...rows]
      .map((row) => row.map((cell) => (cell.includes(sep) || /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(sep))
      .join('\r\n') + '\r\n';
  const rowsOf = (tag: string) => [
    propertyCells(tag, 1),
    [`${tag} 2; the annex, "east"`, 'office', `${tag}-2`, '1990', '2 Pier Rd', 'Boston', 'MA', '02110', 'US'],
    [`${tag} 3`, 'castle', `${tag}-3`, '1990', '3 Pier Rd', 'Boston', 'MA', '02110', 'US'],
  ];

  it("reads the fields at the header line's delimiter, from a file with quotes, one without, and stdin; results and failed rows keep it", async () => {
    const cases = [
      { tag: 'SEMI', sep: ';', rows: rowsOf('SEMI'), stdin: false },
      // No quote anywhere: the byte scan's split (unquoted-csv.ts), not the CSV parser.
      {
        tag: 'SEMIPLAIN',
        sep: ';',
        rows: rowsOf('SEMIPLAIN').map((row, index) => (index === 1 ? row.map((cell) => cell.replace(/[;,"]/g, '')) : row)),
        stdin: false,
      },
      { tag: 'TAB', sep: '\t', rows: rowsOf('TAB'), stdin: true },
    ];
    for (const { tag, sep, rows, stdin } of cases) {
      const text = separated(sep, PROPERTY_HEADER, rows);
      const name = `${tag.toLowerCase()}.csv`;
      writeFileSync(join(dir, name), text);
      const result = stdin
        ? await cli(
            [
              'props',
              'import',
              '-',
              '--format',
              'csv',
              '--match',
              'parcelNumber',
              '--results',
              `${tag}.results.csv`,
              '--failed',
              `${tag}.failed.csv`,
            ],
            { input: text },
          )
        : await cli(['props', 'import', name, '--match', 'parcelNumber', '--failed', `${tag}.failed.csv`]);
      expect(result.code, result.stderr).toBe(22);
      expect(result.stderr).not.toMatch(/not a field the service publishes/);
      expect(summaryCounts(result.stdout)).toMatchObject({ created: 2, invalid: 1 });
      // The name filter finds the new rows among the thousands other tests made (names are `${tag} n`).
      const created = await admin.call('GET', `/api/properties?limit=100&q=${encodeURIComponent(`${tag} `)}`);
      const byParcel = new Map((created.body as { items: Array<Record<string, unknown>> }).items.map((item) => [item.parcelNumber, item]));
      expect(byParcel.get(`${tag}-2`)).toMatchObject({
        name: rows[1]![0],
        yearBuilt: 1990,
        address: { city: 'Boston', postalCode: '02110' },
      });
      const resultsText = readFileSync(join(dir, stdin ? `${tag}.results.csv` : `${tag.toLowerCase()}.results.csv`), 'utf8');
      expect(resultsText.split('\r\n')[0]).toBe([...PROPERTY_HEADER, '_row', '_status', '_id', '_error'].join(sep));
      const results = parse(resultsText, { columns: true, delimiter: sep }) as Array<Record<string, string>>;
      expect(results.map((row) => [row.parcelNumber, row._status])).toEqual([
        [`${tag}-1`, 'created'],
        [`${tag}-2`, 'created'],
        [`${tag}-3`, 'invalid'],
      ]);
      expect(results[1]!.name).toBe(rows[1]![0]);
      // The row to fix, in the input's own form: its header and delimiter, so it imports again as it is.
      const failedText = readFileSync(join(dir, `${tag}.failed.csv`), 'utf8');
      expect(failedText).toBe(separated(sep, PROPERTY_HEADER, [rows[2]!]));
    }
  });
});

describe('props import: columns the service does not publish', () => {
  it('warns once per column, naming the field it likely means, and sends it as it is', async () => {
    const header = PROPERTY_HEADER.map((name) =>
      name === 'yearBuilt' ? 'year_built' : name === 'address.postalCode' ? 'Address.PostalCode' : name,
    );
    writeFileSync(
      join(dir, 'misspelt.csv'),
      csvText(
        [...header, 'colour'],
        [
          [...propertyCells('MIS', 1), 'red'],
          [...propertyCells('MIS', 2), 'blue'],
        ],
      ),
    );
    await admin.clearRequests();
    const result = await cli(['props', 'import', 'misspelt.csv', '--match', 'parcelNumber', '--dry-run']);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      'warning: misspelt.csv: column year_built is not a field the service publishes for properties: it is sent as it is (did you mean yearBuilt? --map can rename it)',
      'warning: misspelt.csv: column Address.PostalCode is not a field the service publishes for properties: it is sent as it is (did you mean address.postalCode? --map can rename it)',
      'warning: misspelt.csv: column colour is not a field the service publishes for properties: it is sent as it is',
    ]);
    expect(await writes()).toEqual([]);
  });
});

describe('props import: dry run', () => {
  it('sends no write and plans exactly what the real run then does, row for row', async () => {
    writePropertiesCsv(dir, 'seed.csv', 'DRY', 3);
    expect((await cli(['props', 'import', 'seed.csv', '--match', 'parcelNumber'])).code).toBe(0);
    const rows = [
      propertyCells('DRY', 1),
      propertyCells('DRY', 2, 2001),
      propertyCells('DRY', 4),
      ['DRY 5', 'office', 'DRY-5', 'old', '5 Pier Rd', 'Boston', 'MA', '02110', 'US'],
      propertyCells('DRY', 3),
      propertyCells('DRY', 6),
    ];
    writeFileSync(join(dir, 'dry.csv'), csvText(PROPERTY_HEADER, rows));
    await admin.clearRequests();
    const dry = await cli(['props', 'import', 'dry.csv', '--match', 'parcelNumber', '--dry-run', '--results', 'plan.csv']);
    expect(dry.code, dry.stderr).toBe(22);
    expect(dry.stdout).toContain('plan: create 2, update 1, unchanged 2, invalid 1 (dry run: nothing was sent)');
    expect(dry.stdout).toMatch(/update row 2 \([0-9a-f-]{36}\): yearBuilt/);
    expect(dry.stdout).toMatch(/invalid row 4: yearBuilt: must be integer/);
    expect(await writes()).toEqual([]);
    expect(existsSync(join(dir, 'dry.failed.csv'))).toBe(false);

    const real = await cli(['props', 'import', 'dry.csv', '--match', 'parcelNumber', '--results', 'real.csv']);
    expect(real.code, real.stderr).toBe(22);
    expect(summaryCounts(real.stdout)).toMatchObject({ created: 2, updated: 1, unchanged: 2, invalid: 1, failed: 0 });
    const planned = readCsv(readFileSync(join(dir, 'plan.csv'), 'utf8'));
    const done = readCsv(readFileSync(join(dir, 'real.csv'), 'utf8'));
    expect(planned.map((row) => [row._row, row._status, row._error])).toEqual(done.map((row) => [row._row, row._status, row._error]));
    expect((await writes()).map((entry) => entry.method).sort()).toEqual(['PATCH', 'POST', 'POST']);
  });
});

describe('props import: faults', () => {
  it('503s and an answer lost after the create do not make a duplicate (with --match)', async () => {
    writePropertiesCsv(dir, 'flaky.csv', 'FLAKY', 8);
    await admin.queueFaults([
      { path: '/api/properties', method: 'POST', fault: 'status=503', count: 2 },
      { path: '/api/properties', method: 'POST', fault: 'lost-answer', count: 2, skip: 1 },
    ]);
    const result = await cli(['props', 'import', 'flaky.csv', '--match', 'parcelNumber', '--concurrency', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(summaryCounts(result.stdout)).toMatchObject({ created: 8, failed: 0 });
    const counts = await parcelCounts(admin, 'FLAKY');
    expect(counts.size).toBe(8);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    await admin.clearFaults();
  });

  it('without --match a lost answer is an unconfirmed create: reported, not sent again, not in the failed file', async () => {
    const rows = [1, 2, 3].map((n) => JSON.stringify(propertyRecord('LOST', n))).join('\n') + '\n';
    writeFileSync(join(dir, 'lost.ndjson'), rows);
    await admin.queueFault({ path: '/api/properties', method: 'POST', fault: 'lost-answer', count: 1, skip: 1 });
    const result = await cli(['props', 'import', 'lost.ndjson', '--concurrency', '1']);
    expect(result.code, result.stderr).toBe(22);
    expect(summaryCounts(result.stdout)).toMatchObject({ created: 2, failed: 1 });
    expect(result.stderr).toContain('1 creates are unconfirmed');
    const results = readCsv(readFileSync(join(dir, 'lost.results.csv'), 'utf8'));
    expect(results[1]).toMatchObject({ _row: '2', _status: 'failed' });
    expect(results[1]!._error).toMatch(/^create unconfirmed .*appraisal props list --updated-since /);
    expect(existsSync(join(dir, 'lost.failed.ndjson'))).toBe(false);
    // It landed once: never sent twice.
    expect([...(await parcelCounts(admin, 'LOST')).values()]).toEqual([1, 1, 1]);
    await admin.clearFaults();
  });
});

/** The command a hint prints between backticks after `run`, split into its words by a real shell. */
function hintCommand(stderr: string): string[] {
  const command = /and run `([^`]+)`$/m.exec(stderr)?.[1];
  expect(command, stderr).toBeDefined();
  const words = execFileSync('sh', ['-c', `printf '%s\\0' ${command!}`], { encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);
  expect(words[0]).toBe('appraisal');
  return words.slice(1);
}

describe('import: the command that imports the rows to fix', () => {
  it('repeats every flag that shapes the rows, each a shell word, and runs as printed once the rows are fixed', async () => {
    const clients = (await admin.call('GET', '/api/clients?limit=1')).body as { items: Array<{ id: string }> };
    const clientId = clients.items[0]!.id;
    mkdirSync(join(dir, 'hint dir'));
    writeFileSync(join(dir, 'hint map.json'), JSON.stringify({ 'E-mail': 'email' }));
    writeFileSync(
      join(dir, 'hint dir', "o'brien contacts.csv"),
      'firstName,lastName,E-mail\r\nAnn,Hint,ann.hint@import.example\r\nBo,Hint,\r\n',
    );
    const args = [
      'contacts',
      'import',
      "hint dir/o'brien contacts.csv",
      '--match',
      'email',
      '--client',
      clientId,
      '--map',
      'hint map.json',
    ];
    const first = await cli(args);
    expect(first.code, first.stderr).toBe(22);
    const again = hintCommand(first.stderr);
    expect(again).toEqual([
      'contacts',
      'import',
      "hint dir/o'brien contacts.failed.csv",
      '--match',
      'email',
      '--map',
      'hint map.json',
      '--client',
      clientId,
    ]);

    // The row fixed in the failed file, which is in the input's own columns (E-mail, no clientId).
    const failed = join(dir, 'hint dir', "o'brien contacts.failed.csv");
    writeFileSync(failed, readFileSync(failed, 'utf8').replace('Bo,Hint,', 'Bo,Hint,bo.hint@import.example'));
    const fixed = await cli(again);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(summaryCounts(fixed.stdout)).toMatchObject({ created: 1, invalid: 0 });
    const listed = (await admin.call('GET', `/api/clients/${clientId}/contacts?limit=100`)).body as { items: Array<{ email: string }> };
    expect(listed.items.map((contact) => contact.email)).toEqual(
      expect.arrayContaining(['ann.hint@import.example', 'bo.hint@import.example']),
    );
  });

  it('repeats --format when it was given, and --property-match', async () => {
    writeFileSync(join(dir, 'hint-assign.txt'), '{"number":"A-HINT-1","propertyIds":["HINT-404"]}\n');
    const result = await cli(['assignments', 'import', 'hint-assign.txt', '--format', 'ndjson', '--property-match', 'parcelNumber']);
    expect(result.code, result.stderr).toBe(22);
    expect(hintCommand(result.stderr)).toEqual([
      'assignments',
      'import',
      'hint-assign.txt.failed.ndjson',
      '--format',
      'ndjson',
      '--property-match',
      'parcelNumber',
    ]);
  });
});

describe('import: relations and --stop-after-errors', () => {
  it('contacts take --client; assignments take propertyIds by parcel number; --stop-after-errors skips the rest', async () => {
    const clients = (await admin.call('GET', '/api/clients?limit=1')).body as { items: Array<{ id: string }> };
    const clientId = clients.items[0]!.id;
    writeFileSync(
      join(dir, 'contacts.csv'),
      'firstName,lastName,email\r\nDana,Reyes,dana.reyes@import.example\r\nLee,Park,lee.park@import.example\r\n',
    );
    const contacts = await cli(['contacts', 'import', 'contacts.csv', '--client', clientId, '--match', 'email']);
    expect(contacts.code, contacts.stderr).toBe(0);
    expect(summaryCounts(contacts.stdout)).toMatchObject({ created: 2 });
    const listed = (await admin.call('GET', `/api/clients/${clientId}/contacts?limit=100`)).body as { items: Array<{ email: string }> };
    expect(listed.items.map((contact) => contact.email)).toEqual(
      expect.arrayContaining(['dana.reyes@import.example', 'lee.park@import.example']),
    );

    writePropertiesCsv(dir, 'rel.csv', 'REL', 2);
    expect((await cli(['props', 'import', 'rel.csv', '--match', 'parcelNumber'])).code).toBe(0);
    const header = ['number', 'clientId', 'dueDate', 'fee.amount', 'fee.currency', 'reportType', 'propertyIds'];
    const rows = [
      ['A-REL-1', clientId, '2026-03-31', '3500', 'USD', 'appraisal_report', '["REL-1","REL-2"]'],
      ['A-REL-2', clientId, '2026-03-31', '3500', 'USD', 'appraisal_report', '["REL-404"]'],
      ['A-REL-3', clientId, '2026-03-31', '3500', 'USD', 'appraisal_report', '["REL-2"]'],
    ];
    writeFileSync(join(dir, 'assignments.csv'), csvText(header, rows));
    const assignments = await cli([
      'assignments',
      'import',
      'assignments.csv',
      '--match',
      'number',
      '--property-match',
      'parcelNumber',
      '--stop-after-errors',
      '1',
    ]);
    expect(assignments.code, assignments.stderr).toBe(22);
    expect(summaryCounts(assignments.stdout)).toMatchObject({ created: 1, invalid: 1, skipped: 1 });
    const results = readCsv(readFileSync(join(dir, 'assignments.results.csv'), 'utf8'));
    expect(results.map((row) => row._status)).toEqual(['created', 'invalid', 'skipped']);
    expect(results[1]!._error).toBe('propertyIds: no property with parcelNumber REL-404');
    const created = (await admin.call('GET', `/api/assignments/${results[0]!._id}`)).body as {
      data?: { propertyIds: string[] };
      propertyIds?: string[];
    };
    expect((created.data ?? created).propertyIds).toHaveLength(2);
    // The skipped row is among the rows to fix, in the input's own columns.
    expect(readCsv(readFileSync(join(dir, 'assignments.failed.csv'), 'utf8')).map((row) => row.number)).toEqual(['A-REL-2', 'A-REL-3']);
  });
});

describe('props import: guards', () => {
  it('an input that is a directory is one error line, exit 2, before any request, in every format', async () => {
    await admin.clearRequests();
    for (const name of ['folder.csv', 'folder.ndjson', 'folder.json']) {
      mkdirSync(join(dir, name));
      const result = await cli(['props', 'import', name, '--match', 'parcelNumber']);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim()).toBe(`error: cannot read ${name}: is a directory`);
    }
    expect(await admin.apiRequests()).toEqual([]);
  });

  it('a missing input is named missing, before its name is asked what format it is', async () => {
    await admin.clearRequests();
    const missing = await cli(['props', 'import', 'nowhere.txt']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('error: cannot read nowhere.txt: no such file or directory\n');
    // A file that is there and tells no format is still refused for its format.
    writeFileSync(join(dir, 'there.txt'), 'name\nA\n');
    const unknown = await cli(['props', 'import', 'there.txt']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: cannot tell the format of there.txt from its name\nhint: pass --format/);
    expect(await admin.apiRequests()).toEqual([]);
  });

  it('-o parquet is refused (an import writes no Parquet), and its help says what -o and --concurrency do for an import', async () => {
    writePropertiesCsv(dir, 'parquet.csv', 'PARQ', 1);
    await admin.clearRequests();
    const refused = await cli(['props', 'import', 'parquet.csv', '--match', 'parcelNumber', '-o', 'parquet']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'error: import writes no parquet: its rows go to --results and --failed; -o takes table, json, ndjson, csv for its summary\n',
    );
    expect(refused.stdout).toBe('');
    expect(await admin.apiRequests()).toEqual([]);
    expect(existsSync(join(dir, 'parquet.results.csv'))).toBe(false);

    const help = (await cli(['props', 'import', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).not.toContain('parquet');
    expect(help).not.toContain('auto-paging');
    expect(help).toContain('--concurrency <n> rows sent at once');
    // The import's own --concurrency is still the global one the run reads: its bounds are checked.
    const zero = await cli(['props', 'import', 'parquet.csv', '--concurrency', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toBe('error: --concurrency must be between 1 and 64, got 0\n');
  });

  it('a production target without --yes on a pipe is refused naming --yes, before any request', async () => {
    writePropertiesCsv(dir, 'prod.csv', 'PROD', 2);
    await admin.clearRequests();
    const refused = await cli(['props', 'import', 'prod.csv', '--match', 'parcelNumber'], { env: { APPRAISAL_ENVIRONMENT: 'production' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: import prod.csv into properties: confirmation needed; pass --yes/m);
    expect(await admin.apiRequests()).toEqual([]);
    // The file is read while the target is looked at: a bad one's own error is the one reported.
    writeFileSync(join(dir, 'prod-nul.csv'), 'name,parcelNumber\nA\0,P-1\n');
    const bad = await cli(['props', 'import', 'prod-nul.csv', '--match', 'parcelNumber'], { env: { APPRAISAL_ENVIRONMENT: 'production' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: prod-nul\.csv: row 1, column name: holds a NUL byte/m);
    expect(bad.stderr).not.toContain('confirmation needed');
    expect(await admin.apiRequests()).toEqual([]);
    const dry = await cli(['props', 'import', 'prod.csv', '--match', 'parcelNumber', '--dry-run'], {
      env: { APPRAISAL_ENVIRONMENT: 'production' },
    });
    expect(dry.code, dry.stderr).toBe(0);
    const confirmed = await cli(['props', 'import', 'prod.csv', '--match', 'parcelNumber', '--yes'], {
      env: { APPRAISAL_ENVIRONMENT: 'production' },
    });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stderr).toContain('PRODUCTION');
    expect(summaryCounts(confirmed.stdout)).toMatchObject({ created: 2 });
  });

  it('shows progress (rows, rate) on a terminal, none in a pipe or with -q', async () => {
    writePropertiesCsv(dir, 'progress.csv', 'PROGRESS', 30);
    const shown = await cli(['props', 'import', 'progress.csv', '--match', 'parcelNumber', '--results', 'progress-1.csv'], { tty: true });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/Imported 30 \/ 30 properties/);
    const quiet = await cli(['props', 'import', 'progress.csv', '--match', 'parcelNumber', '-q', '--results', 'progress-2.csv'], {
      tty: true,
    });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('Imported');
    const piped = await cli(['props', 'import', 'progress.csv', '--match', 'parcelNumber', '--results', 'progress-3.csv']);
    expect(piped.stderr).not.toContain('Imported');
  });

  it('a second import into a journal in use is refused naming the lock', async () => {
    writePropertiesCsv(dir, 'locked.csv', 'LOCK', 1);
    // A live process (this test's) holds the results path's lock.
    writeFileSync(join(dir, '.locked.results.csv.lock'), `${process.pid}\n`);
    const result = await cli(['props', 'import', 'locked.csv']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`another import is using the journal of locked.results.csv (pid ${process.pid})`);
    expect(result.stderr).toContain('.locked.results.csv.lock');
  });
});

describe('import: a long input', () => {
  it('asks for a small heap once, at its 50,000th row, as a long export does; a short one keeps V8 as it is', async () => {
    // A dry run: every row read, typed and planned, nothing sent.
    writePropertiesCsv(dir, 'long.csv', 'LONG', 50_000);
    const favourSmallHeap = vi.fn();
    const long = await run(['props', 'import', 'long.csv', '--dry-run'], { env, cwd: dir, favourSmallHeap });
    expect(long.code, long.stderr).toBe(0);
    expect(long.stdout).toContain('plan: create 50,000,');
    expect(favourSmallHeap).toHaveBeenCalledTimes(1);

    writePropertiesCsv(dir, 'short.csv', 'SHORT', 10);
    const notLong = vi.fn();
    const short = await run(['props', 'import', 'short.csv', '--dry-run'], { env, cwd: dir, favourSmallHeap: notLong });
    expect(short.code, short.stderr).toBe(0);
    expect(notLong).not.toHaveBeenCalled();
  });

  it('asks once, from the file size before its first row, for a file of 3 MiB or more (at the 50,000th row V8 had already grown its heap)', async () => {
    // 60 rows of ~60 KB (a `_` column is not a field): a large file of far fewer than 50,000 rows.
    const cells = Array.from({ length: 60 }, (_, index) => [...propertyCells('WIDE', index + 1), 'x'.repeat(60_000)]);
    writeFileSync(join(dir, 'wide.csv'), csvText([...PROPERTY_HEADER, '_note'], cells));
    const favourSmallHeap = vi.fn();
    const wide = await run(['props', 'import', 'wide.csv', '--dry-run'], { env, cwd: dir, favourSmallHeap });
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stdout).toContain('plan: create 60,');
    expect(favourSmallHeap).toHaveBeenCalledTimes(1);
  });
});
