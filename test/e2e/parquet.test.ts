// `-o parquet` (issue 35, last bullet): `list -o parquet --out FILE` and `export --dir DIR -o parquet`
// write typed Parquet from the published record schema, read back by two readers that are not ours:
// hyparquet (JavaScript) and DuckDB itself. Types: date-time → timestamp, integer → int64 (exact
// beyond 2^53), nested objects → structs, arrays → lists; an empty collection is a file with the
// columns and no rows; stdout, parts and --resume are refused with one line (exit 2).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parquetReadObjects, parquetSchema, parquetMetadata } from 'hyparquet';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import { json, text } from '../hostile/answers.js';
import { startHostile, type HostileServer } from '../hostile/server.js';
import { createWithUnpublished } from '../helpers/unpublished-fields.js';

let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
let scratch: string;
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;
let instance: DuckDBInstance;
let hostile: HostileServer;

/** 2^53 + 2: beyond 2^53, held and printed exactly, so the CLI passes it on and Parquet must keep it. */
const BIG = 9007199254740994n;

const cli = (args: string[]) => run(args, { env, cwd: scratch });
const bytesOf = (path: string) => {
  const buffer = readFileSync(path);
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
};
const hyparquet = (path: string) => parquetReadObjects({ file: bytesOf(path) });
const duckdb = async (sql: string) => (await duck.runAndReadAll(sql)).getRowObjectsJson();

async function ok(args: string[]): Promise<void> {
  const result = await cli(args);
  expect(exitProblems(result), result.stderr).toEqual([]);
  expect(result.code, result.stderr).toBe(0);
}

beforeAll(async () => {
  mock = await startMock({ records: 6, seed: 3, http: true });
  admin = mockAdmin(mock);
  env = { ...isolatedEnv(), ...mock.env, APPRAISAL_RETRY_BASE_MS: '1' };
  scratch = tempDir('parquet-');
  hostile = await startHostile();
  // No description of its own: the CLI types the records with its bundled model.
  hostile.on('GET', '/api/openapi.json', json(404, { error: { code: 'NOT_FOUND', message: 'none' } }));
  instance = await DuckDBInstance.create(':memory:');
  duck = await instance.connect();
});

afterAll(async () => {
  duck?.closeSync();
  instance?.closeSync();
  await admin?.close();
  await mock?.stop();
  await hostile?.close();
});

describe('list -o parquet --out FILE', () => {
  it('props: typed columns from the published schema, the same rows for hyparquet and DuckDB', async () => {
    await ok(['props', 'list', '-o', 'parquet', '--out', 'props.parquet']);
    const path = join(scratch, 'props.parquet');
    const ids = await admin.ids('/api/properties');
    const rows = await hyparquet(path);
    expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    for (const row of rows) {
      expect(row.createdAt).toBeInstanceOf(Date);
      expect(typeof (row.address as { city: unknown }).city).toBe('string');
    }
    // DuckDB reads the types the schema publishes.
    const types = Object.fromEntries(
      (await duckdb(`DESCRIBE SELECT * FROM '${path}'`)).map((row) => [row.column_name, row.column_type]),
    ) as Record<string, string>;
    expect(types).toMatchObject({ id: 'VARCHAR', yearBuilt: 'BIGINT', grossBuildingArea: 'DOUBLE', createdAt: 'TIMESTAMP WITH TIME ZONE' });
    expect(types.address).toMatch(/^STRUCT\(line1 VARCHAR, line2 VARCHAR, city VARCHAR/);
    // Private while written, the usual mode once in place; no temp file left.
    expect(readdirSync(scratch).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(statSync(path).mode & 0o777).toBe(0o644 & ~process.umask());
  });

  it('-o parquet into a file named .csv: written as -o says, with one warning that the name says csv', async () => {
    const result = await cli(['props', 'list', '-o', 'parquet', '--out', 'named.csv']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      'warning: -o parquet writes parquet into named.csv, whose name says csv',
    ]);
    expect(await hyparquet(join(scratch, 'named.csv'))).toHaveLength(6);
  });

  it('an integer beyond 2^53 stays exact in the file (a service sending 2^53 + 2 as yearBuilt)', async () => {
    const page = `{"items":[{"id":"p1","name":"Big Tower","yearBuilt":${BIG},"address":{"city":"Hull"}}],"pagination":{"page":1,"limit":1,"total":1,"pages":1}}`;
    hostile.on('GET', '/api/properties', text(200, page, { 'content-type': 'application/json' }));
    const result = await run(['props', 'list', '--out', 'big.parquet', '--retries', '0'], {
      env: isolatedEnv({ APPRAISAL_BASE_URL: hostile.url, APPRAISAL_API_KEY: 'apk_Parquet1_ParquetS3cretParquetS3cretParqu42' }),
      cwd: scratch,
    });
    expect(result.code, result.stderr).toBe(0);
    const path = join(scratch, 'big.parquet');
    expect((await hyparquet(path))[0]).toMatchObject({ id: 'p1', yearBuilt: BIG, address: { city: 'Hull' } });
    expect(await duckdb(`SELECT yearBuilt::VARCHAR AS y FROM '${path}'`)).toEqual([{ y: String(BIG) }]);
  });

  it('keeps the fields the description does not publish, at any depth, in a JSON column _unpublished', async () => {
    const id = await createWithUnpublished(admin);
    await ok(['props', 'list', '--out', 'extra.parquet']);
    const path = join(scratch, 'extra.parquet');
    const rows = await hyparquet(path);
    expect(rows.find((row) => row.id === id)).toMatchObject({
      address: { postalCode: '0123' },
      _unpublished: { address: { postal_code: 'other' }, wingCount: 3 },
    });
    expect(rows.filter((row) => row._unpublished === null)).toHaveLength(rows.length - 1);
    expect(await duckdb(`SELECT _unpublished::VARCHAR AS u FROM '${path}' WHERE id = '${id}'`)).toEqual([
      { u: '{"address":{"postal_code":"other"},"wingCount":3}' },
    ]);
    // --fields keeps only what it names; a file of records with none has no such column.
    await ok(['props', 'list', '--out', 'extra-fields.parquet', '--fields', 'id,name']);
    expect(Object.keys((await hyparquet(join(scratch, 'extra-fields.parquet')))[0]!)).toEqual(['id', 'name']);
    expect((await admin.call('DELETE', `/api/properties/${id}`)).status).toBeLessThan(300);
  });

  it('assignments: the list of property ids is a LIST column, the fee a struct, the due date a DATE', async () => {
    await ok(['assignments', 'list', '-o', 'parquet', '--out', 'assignments.parquet']);
    const path = join(scratch, 'assignments.parquet');
    const schema = parquetSchema(parquetMetadata(bytesOf(path)));
    const names = schema.children.map((child) => child.element.name);
    expect(names).toEqual(expect.arrayContaining(['propertyIds', 'fee', 'dueDate']));
    const rows = await hyparquet(path);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(Array.isArray(row.propertyIds)).toBe(true);
      expect(typeof (row.fee as { amount: unknown }).amount).toBe('number');
    }
    const types = Object.fromEntries(
      (await duckdb(`DESCRIBE SELECT * FROM '${path}'`)).map((row) => [row.column_name, row.column_type]),
    ) as Record<string, string>;
    expect(types).toMatchObject({ propertyIds: 'VARCHAR[]', dueDate: 'DATE', fee: 'STRUCT(amount DOUBLE, currency VARCHAR)' });
  });

  it('an empty collection is a file with the typed columns and no rows; --fields keeps only those', async () => {
    await ok(['props', 'list', '--updated-since', '2999-01-01T00:00:00Z', '-o', 'parquet', '--out', 'none.parquet']);
    const none = join(scratch, 'none.parquet');
    expect(await hyparquet(none)).toEqual([]);
    expect(await duckdb(`SELECT count(*)::INTEGER AS n FROM '${none}'`)).toEqual([{ n: 0 }]);
    expect(parquetSchema(parquetMetadata(bytesOf(none))).children.map((child) => child.element.name)).toContain('yearBuilt');

    await ok(['props', 'list', '--fields', 'id,address.city', '--out', 'some.parquet']);
    const some = await duckdb(`DESCRIBE SELECT * FROM '${join(scratch, 'some.parquet')}'`);
    expect(some.map((row) => [row.column_name, row.column_type])).toEqual([
      ['id', 'VARCHAR'],
      ['address', 'STRUCT(city VARCHAR)'],
    ]);

    // A path into a list's items keeps nothing in a record (--fields does not go through arrays, and
    // warns), so the file has no column for it either, rather than one that is always null.
    const into = await cli(['assignments', 'list', '--fields', 'id,propertyIds.x', '--out', 'into.parquet']);
    expect(into.code, into.stderr).toBe(0);
    expect(into.stderr).toMatch(/--fields: no assignment has propertyIds\.x/);
    const columns = await duckdb(`DESCRIBE SELECT * FROM '${join(scratch, 'into.parquet')}'`);
    expect(columns.map((row) => row.column_name)).toEqual(['id']);
  });

  it.each([
    [['props', 'list', '-o', 'parquet'], /^error: -o parquet needs --out FILE/],
    [
      ['props', 'list', '-o', 'parquet', '--out', 'x.parquet', '--split-rows', '2'],
      /^error: --split-rows and --split-size do not apply to -o parquet/,
    ],
    [['props', 'list', '--out', 'x.parquet', '--resume'], /^error: --resume and --restart do not apply to -o parquet/],
    [
      ['export', '--dir', 'split', '-o', 'parquet', '--split-rows', '2'],
      /^error: --split-rows and --split-size do not apply to -o parquet/,
    ],
  ])('%j is refused with one line, exit 2, nothing written', async (args, message) => {
    const before = readdirSync(scratch).sort();
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(
      result.stderr
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('error:')),
    ).toHaveLength(1);
    expect(readdirSync(scratch).sort()).toEqual(before);
  });
});

describe('export --dir DIR -o parquet', () => {
  it('one typed Parquet file per family, listed in the manifest with its sha256, readable by both readers', async () => {
    await ok(['export', '--dir', 'snap', '--families', 'props,clients,contacts', '-o', 'parquet']);
    const manifest = JSON.parse(readFileSync(join(scratch, 'snap', 'manifest.json'), 'utf8')) as {
      format: string;
      families: Array<{ family: string; file: string; records: number; sha256: string }>;
    };
    expect(manifest.format).toBe('parquet');
    for (const entry of manifest.families) {
      const path = join(scratch, 'snap', entry.file);
      expect(entry.file).toBe(`${entry.family}.parquet`);
      expect(await hyparquet(path)).toHaveLength(entry.records);
      expect(await duckdb(`SELECT count(*)::INTEGER AS n FROM '${path}'`)).toEqual([{ n: entry.records }]);
    }
    expect(manifest.families.find((entry) => entry.family === 'props')!.records).toBe((await admin.ids('/api/properties')).length);
  });

  it('a failed run keeps its finished families; --resume writes the unfinished family file again, whole', async () => {
    await admin.queueFaults([{ path: '/api/clients', fault: 'status=503', count: 10 }]);
    const failed = await cli(['export', '--dir', 'again', '--families', 'props,clients', '-o', 'parquet', '--retries', '0']);
    await admin.clearFaults();
    expect(failed.code).not.toBe(0);
    const kept = readdirSync(join(scratch, '.again.export-partial'));
    expect(kept).toContain('props.parquet');
    // Nothing half-written of the family that failed: no clients file, no temp file.
    expect(kept.filter((name) => name.includes('clients'))).toEqual([]);
    await ok(['export', '--dir', 'again', '--families', 'props,clients', '-o', 'parquet', '--resume']);
    const clients = join(scratch, 'again', 'clients.parquet');
    expect((await hyparquet(clients)).length).toBe((await admin.ids('/api/clients')).length);
  });
});
