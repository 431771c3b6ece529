// CSV carries every field (issue 25 §1): for every family's list, `-o csv` read back with a real CSV
// reader (csv-parse) holds, cell for cell, what `-o ndjson` holds for the same records; every field
// of every record has a column (nested objects as dotted paths, arrays as one cell of JSON text,
// null/absent as an empty cell). The same for `--out x.csv` and for `export --dir -o csv`, whose
// contacts, assignments, files and clients keep clientId, propertyIds, attachments and timestamps.
// For spreadsheets, `--delimiter ;|tab` and `--bom` write the same cells, and `import` reads them back.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let env: Record<string, string | undefined>;
let dir: string;
let clientId: string;

// In process (test/helpers/run.ts): nothing here needs a real process.
const cli = (args: string[]) => run(args, { env, cwd: dir });

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every field of a record as a dotted path: nested objects flattened, arrays one field. */
function leafPaths(record: Json, prefix = ''): string[] {
  return Object.entries(record).flatMap(([key, value]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    return isObject(value) && Object.keys(value).length > 0 ? leafPaths(value, path) : [path];
  });
}

function valueAt(record: Json, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) value = isObject(value) ? value[key] : undefined;
  return value;
}

/** What a cell must hold for a value: empty for null/absent, JSON text for arrays and objects. */
function cellOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function ndjson(text: string): Json[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Json);
}

/** The csv, read back with csv-parse, equals the ndjson records cell for cell, and drops no field. */
function expectSameRecords(csvText: string, records: readonly Json[], changing: readonly string[] = [], delimiter = ','): string[] {
  const rows = parse(csvText, { bom: false, relax_column_count: false, delimiter }) as string[][];
  const [header, ...body] = rows;
  expect(header).toBeDefined();
  expect(body).toHaveLength(records.length);
  for (const record of records) for (const path of leafPaths(record)) expect(header, `column ${path}`).toContain(path);
  body.forEach((row, i) => {
    header!.forEach((column, c) => {
      if (!changing.includes(column)) expect(row[c], `record ${i}, ${column}`).toBe(cellOf(valueAt(records[i]!, column)));
    });
  });
  return header!;
}

beforeAll(async () => {
  mock = await startMock({ records: 9 });
  env = { ...isolatedEnv(), ...mock.env, APPRAISAL_API_KEY: mock.adminKey };
  dir = tempDir('appraisal-csv-');
  const clients = ndjson((await cli(['clients', 'list', '-o', 'ndjson'])).stdout);
  clientId = String(clients[0]!.id);
  for (const name of ['Dana', 'Sam'])
    expect((await cli(['contacts', 'create', '--client', clientId, '-f', `firstName=${name}`, '-f', 'lastName=Reyes'])).code).toBe(0);
});
afterAll(() => mock?.stop());

const LISTS: Array<[string, () => string[]]> = [
  ['props', () => ['props', 'list']],
  ['assignments', () => ['assignments', 'list']],
  ['clients', () => ['clients', 'list']],
  ['contacts', () => ['contacts', 'list', '--client', clientId]],
  ['files', () => ['files', 'list']],
  ['designations', () => ['ref', 'designations']],
  ['keys', () => ['keys', 'list']],
];

describe('csv holds every field', () => {
  it.each(LISTS)('%s list: -o csv reads back as the -o ndjson records', async (name, command) => {
    const [asNdjson, asCsv] = [await cli([...command(), '-o', 'ndjson']), await cli([...command(), '-o', 'csv'])];
    expect(asNdjson.code, asNdjson.stderr).toBe(0);
    expect(asCsv.code, asCsv.stderr).toBe(0);
    expect(asCsv.stderr).toBe('');
    const records = ndjson(asNdjson.stdout);
    expect(records.length).toBeGreaterThan(0);
    // A key's lastUsedAt moves with every request the two runs made.
    expectSameRecords(asCsv.stdout, records, name === 'keys' ? ['lastUsedAt'] : []);
  });

  it('props list --out x.csv: the header is the published schema, in its order; every field is there', async () => {
    const result = await cli(['props', 'list', '--out', 'props.csv']);
    expect(result.code, result.stderr).toBe(0);
    const records = ndjson((await cli(['props', 'list', '-o', 'ndjson'])).stdout);
    const header = expectSameRecords(readFileSync(join(dir, 'props.csv'), 'utf8'), records);
    expect(header).toEqual([
      'id',
      'name',
      'address.line1',
      'address.line2',
      'address.city',
      'address.region',
      'address.postalCode',
      'address.country',
      'propertyType',
      'parcelNumber',
      'yearBuilt',
      'grossBuildingArea',
      'landArea',
      'latitude',
      'longitude',
      'createdAt',
      'updatedAt',
    ]);
    // --fields still picks the columns.
    const picked = await cli(['props', 'list', '-o', 'csv', '--fields', 'id,address.city']);
    expect(picked.stdout.split('\r\n')[0]).toBe('id,address.city');
  });

  it('export --dir -o csv: each family file reads back as the ndjson snapshot', async () => {
    const [csv, nd] = [await cli(['export', '--dir', 'snap-csv', '-o', 'csv']), await cli(['export', '--dir', 'snap-nd'])];
    expect(csv.code, csv.stderr).toBe(0);
    expect(nd.code, nd.stderr).toBe(0);
    // Counts say what they count, with the resource table's singulars and plurals (issue 25 §5).
    expect(nd.stderr).toMatch(/Wrote a snapshot of \d+ propert(?:y|ies), \d+ assignments?, \d+ clients?, \d+ contacts?, \d+ files? \(/);
    const files = readdirSync(join(dir, 'snap-csv')).filter((name) => name.endsWith('.csv'));
    expect(files.sort()).toEqual(['assignments.csv', 'clients.csv', 'contacts.csv', 'files.csv', 'props.csv']);
    for (const file of files) {
      const records = ndjson(readFileSync(join(dir, 'snap-nd', file.replace(/\.csv$/, '.ndjson')), 'utf8'));
      const header = expectSameRecords(readFileSync(join(dir, 'snap-csv', file), 'utf8'), records);
      const joins: Record<string, string[]> = {
        'contacts.csv': ['clientId', 'createdAt'],
        'assignments.csv': ['propertyIds', 'clientId'],
        'files.csv': ['attachments'],
        'clients.csv': ['createdAt', 'updatedAt', 'address.line1', 'address.country'],
      };
      for (const column of joins[file] ?? []) expect(header, `${file} keeps ${column}`).toContain(column);
    }
  });

  it('--delimiter ";" and --bom: the same cells, the mark once at the top, read back by import; export names them in its manifests', async () => {
    const records = ndjson((await cli(['props', 'list', '-o', 'ndjson'])).stdout);
    const written = await cli(['props', 'list', '--out', 'excel.csv', '--delimiter', ';', '--bom']);
    expect(written.code, written.stderr).toBe(0);
    const bytes = readFileSync(join(dir, 'excel.csv'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text).not.toContain('\ufeff');
    expect(text.split('\r\n')[0]).toMatch(/^id;name;address\.line1;/);
    expectSameRecords(text, records, [], ';');
    const imported = await cli(['props', 'import', 'excel.csv', '--dry-run']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`plan: create 0, update 0, unchanged ${records.length}, invalid 0`);

    // Tab-separated, to stdout; one record the same way.
    const tabbed = await cli(['props', 'list', '-o', 'csv', '--delimiter', 'tab']);
    expectSameRecords(tabbed.stdout, records, [], '\t');
    const one = await cli(['props', 'get', String(records[0]!.id), '-o', 'csv', '--delimiter', ';', '--fields', 'id,propertyType']);
    expect(one.stdout).toBe(`id;propertyType\r\n${String(records[0]!.id)};${String(records[0]!.propertyType)}\r\n`);

    // A snapshot: every csv file written so, and its manifests say how.
    const snapshot = await cli([
      'export',
      '--dir',
      'snap-semi',
      '-o',
      'csv',
      '--delimiter',
      ';',
      '--families',
      'props',
      '--split-rows',
      '4',
    ]);
    expect(snapshot.code, snapshot.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'snap-semi', 'manifest.json'), 'utf8'))).toMatchObject({
      format: 'csv',
      csv: { delimiter: ';', bom: false },
    });
    expect(JSON.parse(readFileSync(join(dir, 'snap-semi', 'props.csv.manifest.json'), 'utf8'))).toMatchObject({ csv: { delimiter: ';' } });
    const parts = readdirSync(join(dir, 'snap-semi'))
      .filter((name) => /^props-\d{4}\.csv$/.test(name))
      .sort();
    expect(parts.length).toBeGreaterThan(1);
    const rows = parts.flatMap(
      (part) => parse(readFileSync(join(dir, 'snap-semi', part), 'utf8'), { delimiter: ';' }).slice(1) as string[][],
    );
    expect(rows.map((row) => row[0])).toEqual(records.map((record) => record.id));

    // One line and exit 2 for a separator csv cannot have, or either flag without csv; nothing written.
    for (const [args, message] of [
      [['props', 'list', '-o', 'csv', '--delimiter', '|'], /^error: --delimiter "\|": a csv's cells are separated by ",", ";" or tab$/m],
      [['props', 'list', '-o', 'ndjson', '--delimiter', ';'], /^error: --delimiter is for csv output\nhint: add -o csv/m],
      [['props', 'list', '--out', 'x.json', '--bom'], /^error: --bom is for csv output$/m],
      [['export', '--dir', 'snap-nd-semi', '--delimiter', ';'], /^error: --delimiter is for csv output$/m],
      [['props', 'get', String(records[0]!.id), '-o', 'json', '--delimiter', ';'], /^error: --delimiter is for csv output$/m],
      [['doctor', '--bom'], /^error: --bom does not apply to `appraisal doctor`$/m],
      [
        ['props', 'import', 'excel.csv', '--delimiter', ';'],
        /^error: --delimiter does not apply to `appraisal props import`\nhint: .*import reads the separator from its file's header line$/m,
      ],
    ] as Array<[string[], RegExp]>) {
      const refused = await cli(args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(message);
    }
    expect(readdirSync(dir)).not.toContain('x.json');
    expect(readdirSync(dir)).not.toContain('snap-nd-semi');
  });
});
