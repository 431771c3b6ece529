// `appraisal sync --to postgres://…` into a private PostgreSQL cluster the file starts
// (test/helpers/postgres.ts), read back with psql: typed columns, child tables, the state row, one
// organization per --schema, the password from the URL, PGPASSWORD or ~/.pgpass and never printed,
// the advisory lock (a second writer of a schema exits 2), an unreachable server (exit 3 naming the
// host), a wrong password (exit 2); and the writer's own insert (an array parameter per column)
// keeping every value exact: strings with tabs, newlines, backslashes, quotes and array-literal
// punctuation, integers beyond 2^53, times with microseconds and offsets, JSON, NULLs, the upsert.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/commands/sync/database.js';
import { ContractError } from '../../src/core/errors.js';
import { openPostgres } from '../../src/commands/sync/postgres.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import { createWithUnpublished } from '../helpers/unpublished-fields.js';

let mock: MockServer;
let admin: MockAdmin;
let db: PostgresCluster;
let scratch: string;
let env: Record<string, string | undefined>;

const RECORDS = 20;
const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  run(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '1', ...extra }, cwd: scratch });

beforeAll(async () => {
  [mock, db] = await Promise.all([startMock({ records: RECORDS, http: true }), startPostgres()]);
  admin = mockAdmin(mock);
  scratch = tempDir('appraisal-sync-pg-');
  env = { ...mock.env, ...isolatedEnv() };
}, 90_000);
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
  await db?.stop();
});

describe('sync into PostgreSQL', () => {
  it('writes typed tables, child tables and the state row; psql reads them', async () => {
    const result = await cli(['sync', '--to', db.url()]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain(db.password);
    // psql takes a password in the URL, so sync does, once warned that every user can read a command line.
    expect(
      result.stderr.match(/^warning: --to holds a password: .*give it in PGPASSWORD or ~\/\.pgpass \(mode 0600\) instead$/gm),
    ).toHaveLength(1);
    expect(db.psql('SELECT count(*) FROM properties')).toBe(String(RECORDS));
    expect(db.psql(`SELECT data_type FROM information_schema.columns WHERE table_name = 'properties' AND column_name = 'updated_at'`)).toBe(
      'timestamp with time zone',
    );
    expect(
      db.psql(`SELECT data_type FROM information_schema.columns WHERE table_name = 'assignments' AND column_name = 'fee__amount'`),
    ).toBe('double precision');
    expect(db.psql(`SELECT data_type FROM information_schema.columns WHERE table_name = 'assignments' AND column_name = 'due_date'`)).toBe(
      'date',
    );
    const page = (await admin.call('GET', '/api/assignments?limit=1')).body as { items: Array<{ id: string; propertyIds: string[] }> };
    const assignment = page.items[0]!;
    expect(
      db.psql(`SELECT string_agg(value, ',' ORDER BY position) FROM assignments__property_ids WHERE parent_id = '${assignment.id}'`),
    ).toBe(assignment.propertyIds.join(','));
    expect(db.psql(`SELECT family, records FROM _appraisal_sync WHERE family = 'properties'`)).toBe(`properties|${RECORDS}`);
  });

  it('keeps the fields the description does not publish as jsonb in _unpublished', async () => {
    const id = await createWithUnpublished(admin);
    const result = await cli(['sync', 'props', '--to', db.url(), '--schema', 'extra']);
    expect(result.code, result.stderr).toBe(0);
    expect(db.psql(`SELECT address__postal_code, _unpublished FROM extra.properties WHERE id = '${id}'`)).toBe(
      '0123|{"address": {"postal_code": "other"}, "wingCount": 3}',
    );
    // The other tests count the seeded records.
    expect((await admin.call('DELETE', `/api/properties/${id}`)).status).toBeLessThan(300);
  });

  it('cuts a date-time past the microsecond as DuckDB does, never rounding it into the next second (or year)', async () => {
    // A field published as a date-time; the mock keeps a field it does not know, so it serves the one chosen here.
    const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
      components: { schemas: { Property: { properties: Record<string, unknown> } } };
    };
    document.components.schemas.Property.properties.inspectedAt = { type: ['string', 'null'], format: 'date-time' };
    const spec = join(scratch, 'inspected-date-time.json');
    writeFileSync(spec, JSON.stringify(document));
    const created = await admin.call('POST', '/api/properties', {
      name: 'Nanosecond House',
      propertyType: 'office',
      address: { line1: '1 Main', city: 'Hull', region: 'YT', postalCode: '0123', country: 'CA' },
      inspectedAt: '2026-12-31T23:59:59.9999999Z',
    });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    const result = await cli(['sync', 'props', '--spec', spec, '--to', db.url(), '--schema', 'nanos']);
    expect(result.code, result.stderr).toBe(0);
    expect(db.psql(`SELECT inspected_at AT TIME ZONE 'UTC' FROM nanos.properties WHERE id = '${id}'`)).toBe('2026-12-31 23:59:59.999999');
    expect((await admin.call('DELETE', `/api/properties/${id}`)).status).toBeLessThan(300);
  });

  it('takes the password from PGPASSWORD or ~/.pgpass, and one organization per --schema', async () => {
    const viaEnv = await cli(['sync', 'props', '--to', db.urlWithoutPassword(), '--schema', 'acme'], { PGPASSWORD: db.password });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(viaEnv.stderr).not.toContain('warning');
    expect(db.psql('SELECT count(*) FROM acme.properties')).toBe(String(RECORDS));
    const home = tempDir('appraisal-pgpass-');
    writeFileSync(join(home, '.pgpass'), `127.0.0.1:${db.port}:*:${db.user}:${db.password}\n`, { mode: 0o600 });
    const viaFile = await cli(['sync', 'props', '--to', db.urlWithoutPassword(), '--schema', 'acme'], { HOME: home });
    expect(viaFile.code, viaFile.stderr).toBe(0);
    expect(viaFile.stderr).toMatch(/^properties: 0 new, 0 changed, \d+ unchanged, 0 gone \(incremental since /m);
  });

  it('a second writer of the same schema exits 2 at once, naming the session that holds it; another schema is free', async () => {
    // The holder as a sync's connection names itself (and as a pooler's would, after its sync ended).
    const holder = new pg.Client({ connectionString: db.url(), application_name: 'appraisal sync' });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [0x61707379, 'public']);
      const { pid } = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number };
      const refused = await cli(['sync', 'props', '--to', db.url()]);
      expect(refused.code, refused.stderr).toBe(2);
      expect(exitProblems(refused)).toEqual([]);
      expect(refused.stderr).toMatch(
        new RegExp(
          `^error: another sync holds schema public of postgres at 127\\.0\\.0\\.1:\\d+ \\(pid ${pid}, appraisal sync from 127\\.0\\.0\\.1, idle for [\\dhms.]+\\)$`,
          'm',
        ),
      );
      expect(refused.stderr).toContain('a pooler in transaction mode keeps the lock of a sync that has ended');
      const other = await cli(['sync', 'props', '--to', db.url(), '--schema', 'other_org']);
      expect(other.code, other.stderr).toBe(0);
    } finally {
      await holder.end();
    }
  });

  it('an unreachable server exits 3 naming the host, a wrong password exits 2; neither prints a password', async () => {
    const unreachable = await cli(['sync', 'props', '--to', `postgres://${db.user}:sekrit-pw@127.0.0.1:1/x`]);
    expect(unreachable.code, unreachable.stderr).toBe(3);
    expect(exitProblems(unreachable)).toEqual([]);
    expect(unreachable.stderr).toContain('postgres at 127.0.0.1:1');
    expect(unreachable.stderr).not.toContain('sekrit-pw');
    const wrong = await cli(['sync', 'props', '--to', `postgres://${db.user}:wrong-pw-123@127.0.0.1:${db.port}/postgres`]);
    expect(wrong.code, wrong.stderr).toBe(2);
    expect(exitProblems(wrong)).toEqual([]);
    expect(wrong.stderr).toMatch(/password authentication failed/);
    expect(wrong.stderr).not.toContain('wrong-pw-123');
  });

  it('refuses a URL parameter libpq does not know (a typo of sslmode) and a port that is none: exit 2, one line, no password', async () => {
    const typo = await cli(['sync', 'props', '--to', `${db.url()}?sslmod=require`]);
    expect(typo.code, typo.stderr).toBe(2);
    expect(exitProblems(typo)).toEqual([]);
    expect(typo.stderr).toMatch(/^error: --to: the URL's parameter "sslmod" is not one libpq knows$/m);
    expect(typo.stderr).toMatch(/^hint: a postgres:\/\/ URL here takes host, port, dbname, user, password, sslmode, sslrootcert/m);
    expect(typo.stderr).not.toContain(db.password);
    const port = await cli(['sync', 'props', '--to', `postgres://${db.user}:${db.password}@127.0.0.1:notaport/postgres`]);
    expect(port.code, port.stderr).toBe(2);
    expect(exitProblems(port)).toEqual([]);
    expect(port.stderr).toMatch(/^error: --to: the URL's port is not a number from 1 to 65535$/m);
    expect(port.stderr).not.toMatch(/localhost|5432/);
    expect(port.stderr).not.toContain(db.password);
  });

  it('a published field whose column name PostgreSQL would cut (over 63 bytes) is exit 9 before any table is made', async () => {
    // PostgreSQL cut the name with a notice: the first run made the table, and every later run, not
    // finding the name it asked for in the catalog, tried to add the column again ("already exists").
    const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
      components: { schemas: { Property: { properties: Record<string, unknown> } } };
    };
    document.components.schemas.Property.properties[`note${'X'.repeat(70)}`] = { type: 'string' };
    const spec = join(scratch, 'long-name.json');
    writeFileSync(spec, JSON.stringify(document));
    for (let run = 0; run < 2; run++) {
      const result = await cli(['sync', 'props', '--to', db.url(), '--schema', 'long_names', '--spec', spec]);
      expect(result.code, result.stderr).toBe(9);
      expect(exitProblems(result)).toEqual([]);
      expect(result.stderr).toMatch(/^error: the published schema makes the name note_x+… \(table properties\), longer than the 63 bytes/m);
    }
    expect(db.psql(`SELECT count(*) FROM pg_tables WHERE schemaname = 'long_names' AND tablename = 'properties'`)).toBe('0');
  });
});

describe('roles that may not create everywhere', () => {
  const ROLE = 'ops_app';
  const ROLE_PASSWORD = 'pw-ops-app-7';
  const asRole = (schema: string, extra: string[] = [], database = 'postgres') =>
    cli(
      ['sync', 'props', '--to', `postgres://${ROLE}@127.0.0.1:${db.port}/${database}`, ...(schema ? ['--schema', schema] : []), ...extra],
      { PGPASSWORD: ROLE_PASSWORD },
    );
  /** openapi.json with a field more on Property: a new column, which only a table's owner may add. */
  function grownDescription(): string {
    const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
      components: { schemas: { Property: { properties: Record<string, unknown> } } };
    };
    document.components.schemas.Property.properties.floors = { type: ['integer', 'null'] };
    const path = join(scratch, 'grown.json');
    writeFileSync(path, JSON.stringify(document));
    return path;
  }

  it('syncs into a schema made for it, or into tables it was granted, without CREATE on the database; else a hint naming the grant', async () => {
    // No CREATE on the database: PostgreSQL asks for it before it looks whether a schema exists.
    db.psql(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${ROLE_PASSWORD}'; CREATE SCHEMA given AUTHORIZATION ${ROLE}`);
    const own = await asRole('given');
    expect(own.code, own.stderr).toBe(0);
    expect(db.psql('SELECT count(*) FROM given.properties')).toBe(String(RECORDS));

    // Nowhere to create: public is not open to every role since PostgreSQL 15 (a database of its own: no tables there yet).
    db.createDatabase('roles_fresh');
    const nowhere = await asRole('', [], 'roles_fresh');
    expect(nowhere.code).toBe(2);
    expect(exitProblems(nowhere)).toEqual([]);
    expect(nowhere.stderr).toMatch(/^error: postgres at 127\.0\.0\.1:\d+: permission denied for schema public$/m);
    expect(nowhere.stderr).toMatch(
      /^hint: .*have its owner GRANT USAGE, CREATE ON SCHEMA public TO ops_app, or give sync a schema of its own .*CREATE SCHEMA NAME AUTHORIZATION ops_app\)$/m,
    );

    // No CREATE on the database for a schema sync must make: the database's grant, or the schema made for it (names quoted as SQL needs them).
    db.createDatabase('Roles Ops');
    const noSchema = await asRole('acme', [], 'Roles%20Ops');
    expect(noSchema.code).toBe(2);
    expect(exitProblems(noSchema)).toEqual([]);
    expect(noSchema.stderr).toMatch(/^error: postgres at 127\.0\.0\.1:\d+: permission denied for database Roles Ops$/m);
    expect(noSchema.stderr).toMatch(
      /^hint: .*GRANT CREATE ON DATABASE "Roles Ops" TO ops_app, or make the schema for it: CREATE SCHEMA acme AUTHORIZATION ops_app$/m,
    );

    // A schema another role made, with no USAGE on it: the grant on that schema, quoted.
    db.psql('CREATE SCHEMA "Locked-In"');
    const locked = await asRole('Locked-In');
    expect(locked.code).toBe(2);
    expect(exitProblems(locked)).toEqual([]);
    expect(locked.stderr).toMatch(/^error: postgres at 127\.0\.0\.1:\d+: permission denied for schema Locked-In$/m);
    expect(locked.stderr).toMatch(/^hint: .*GRANT USAGE, CREATE ON SCHEMA "Locked-In" TO ops_app, /m);

    // Tables an administrator's sync made: without rights on them, the hint names the grant; with it, the role syncs.
    expect((await cli(['sync', 'props', '--to', db.url(), '--schema', 'dba'])).code).toBe(0);
    db.psql(`GRANT USAGE ON SCHEMA dba TO ${ROLE}`);
    const denied = await asRole('dba');
    expect(denied.code).toBe(2);
    expect(denied.stderr).toMatch(/^error: postgres at .*: permission denied for table _appraisal_sync$/m);
    expect(denied.stderr).toMatch(
      /^hint: the tables belong to another role: .*GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA dba TO ops_app$/m,
    );
    db.psql(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA dba TO ${ROLE}`);
    const granted = await asRole('dba', ['--full']);
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stderr).toMatch(/^properties: 0 new, 0 changed, \d+ unchanged, 0 gone \(full\)/m);

    // A new column needs the table's owner: nothing written, the hint says whose.
    const grown = await asRole('dba', ['--spec', grownDescription()]);
    expect(grown.code).toBe(2);
    expect(grown.stderr).toMatch(/^error: postgres at .*: must be owner of table properties$/m);
    expect(grown.stderr).toMatch(/^hint: a new column needs the table's owner: .*ALTER TABLE dba\.properties OWNER TO ops_app$/m);
    expect(db.psql(`SELECT count(*) FROM information_schema.columns WHERE table_schema = 'dba' AND column_name = 'floors'`)).toBe('0');
  });

  it('a role that may only read the tables an earlier sync made: --dry-run works, a real run is refused at its first write', async () => {
    // information_schema hides a table's constraints from a role with SELECT alone: its primary key is read from pg_catalog.
    const READER = 'ops_reader';
    expect((await cli(['sync', 'props', '--to', db.url(), '--schema', 'readable'])).code).toBe(0);
    db.psql(
      `CREATE ROLE ${READER} LOGIN PASSWORD '${ROLE_PASSWORD}'; GRANT USAGE ON SCHEMA readable TO ${READER}; ` +
        `GRANT SELECT ON ALL TABLES IN SCHEMA readable TO ${READER}`,
    );
    const asReader = (extra: string[]) =>
      cli(['sync', 'props', '--to', `postgres://${READER}@127.0.0.1:${db.port}/postgres`, '--schema', 'readable', ...extra], {
        PGPASSWORD: ROLE_PASSWORD,
      });
    const dry = await asReader(['--dry-run', '--full']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(new RegExp(`^properties: would write 0 new, 0 changed, ${RECORDS} unchanged, 0 gone \\(full\\)$`, 'm'));
    const before = db.psql('SELECT synced_at FROM readable._appraisal_sync');
    const write = await asReader(['--full']);
    expect(write.code).toBe(2);
    expect(exitProblems(write)).toEqual([]);
    expect(write.stderr).toMatch(/^error: postgres at 127\.0\.0\.1:\d+: permission denied for table \w+$/m);
    expect(write.stderr).toMatch(
      /^hint: the tables belong to another role: .*GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA readable TO ops_reader$/m,
    );
    expect(db.psql('SELECT synced_at FROM readable._appraisal_sync')).toBe(before);
  });
});

describe('the PostgreSQL writer', () => {
  const COLUMNS = [
    { name: 'id', type: 'text' as const },
    { name: 's', type: 'text' as const },
    { name: 'n', type: 'bigint' as const },
    { name: 'x', type: 'double' as const },
    { name: 'at', type: 'timestamptz' as const },
    { name: 'day', type: 'date' as const },
    { name: 'ok', type: 'boolean' as const },
    { name: 'doc', type: 'json' as const },
  ];
  const HOSTILE = 'tab\there, new\nline\r\n, back\\slash \\N \\t, "double" \'single\', {braces}, commas,; NULL é 漢字 🏠 \u200f';
  const doc = JSON.stringify({ k: [1, 'a"b\\c\n', null], big: 1, s: HOSTILE });
  /** Every row of writer.t read by psql: exact values as text, the jsonb parsed (jsonb orders keys its own way). */
  const readBack = () =>
    (
      JSON.parse(
        db.psql(
          `SELECT json_agg(json_build_array(id, s, n::text, x::text, (at AT TIME ZONE 'UTC')::text, day::text, ok, doc::text, old) ORDER BY id) FROM writer.t`,
        ),
      ) as unknown[][]
    ).map((row) => row.map((value, index) => (index === 7 && typeof value === 'string' ? JSON.parse(value) : value)));
  let writer: Database;
  beforeAll(async () => {
    db.psql('CREATE SCHEMA writer');
    // `old` stands for a column the description no longer has: the upsert leaves it as it was.
    db.psql(
      'CREATE TABLE writer.t (id text PRIMARY KEY, old text, s text, n bigint, x double precision, at timestamptz, day date, ok boolean, doc jsonb)',
    );
    writer = await openPostgres(db.url(), {});
  });
  afterAll(() => writer?.close());

  it('writes strings, integers beyond 2^53, times, JSON and NULLs exactly, and upserts on id', async () => {
    await writer.transaction(() =>
      writer.append('writer', 't', COLUMNS, [
        ['a', HOSTILE, '9007199254740993', '0.1', '2024-05-06T07:08:09.123456Z', '2024-02-29', 'true', doc],
        ['b', '', '-9223372036854775808', '1e-7', '2024-05-06T07:08:09.5+02:00', null, 'false', '"NULL"'],
        ['c', null, null, null, null, null, null, null],
        ['d', 'NULL', '9223372036854775807', '1.7976931348623157e+308', null, '1999-12-31', null, '[null,"x\\ty"]'],
      ]),
    );
    expect(readBack()).toEqual([
      ['a', HOSTILE, '9007199254740993', '0.1', '2024-05-06 07:08:09.123456', '2024-02-29', true, JSON.parse(doc), null],
      ['b', '', '-9223372036854775808', '1e-07', '2024-05-06 05:08:09.5', null, false, 'NULL', null],
      ['c', null, null, null, null, null, null, null, null],
      ['d', 'NULL', '9223372036854775807', '1.7976931348623157e+308', null, '1999-12-31', null, [null, 'x\ty'], null],
    ]);
    db.psql(`UPDATE writer.t SET old = 'kept' WHERE id IN ('a', 'c')`);
    const names = COLUMNS.filter((column) => column.name !== 'id').map((column) => `"${column.name}" = EXCLUDED."${column.name}"`);
    await writer.transaction(() =>
      writer.insert(
        '"writer"."t"',
        COLUMNS,
        [['c', HOSTILE, '18446744073709551', '2.5', null, null, 'true', '[]']],
        ` ON CONFLICT (id) DO UPDATE SET ${names.join(', ')}`,
      ),
    );
    expect(readBack()[2]).toEqual(['c', HOSTILE, '18446744073709551', '2.5', null, null, true, [], 'kept']);
  });

  it('keeps nothing of a batch whose transaction fails', async () => {
    await expect(
      writer.transaction(async () => {
        await writer.append('writer', 't', COLUMNS, [['e', 'x', '1', null, null, null, null, null]]);
        throw new Error('the batch failed');
      }),
    ).rejects.toThrow('the batch failed');
    expect(db.psql(`SELECT count(*) FROM writer.t WHERE id = 'e'`)).toBe('0');
  });

  it('a NUL character (which PostgreSQL cannot store) is refused by record and column, exit 9, nothing of the batch written', async () => {
    const batch = writer.transaction(() =>
      writer.append('writer', 't', COLUMNS, [
        ['f', 'fine', null, null, null, null, null, null],
        ['g', 'a\u0000b', null, null, null, null, null, null],
      ]),
    );
    await expect(batch).rejects.toThrow(ContractError);
    await expect(batch).rejects.toThrow(
      'writer.t.s of record g holds a NUL character (U+0000), which PostgreSQL cannot store: nothing of this batch was written',
    );
    expect(db.psql(`SELECT count(*) FROM writer.t WHERE id IN ('f', 'g')`)).toBe('0');
    // In a JSON cell, as its escape (jsonb refuses it too); an escaped backslash before `u0000` is text.
    const json = writer.transaction(() =>
      writer.append('writer', 't', COLUMNS, [['h', null, null, null, null, null, null, JSON.stringify({ note: 'a\u0000' })]]),
    );
    await expect(json).rejects.toThrow('writer.t.doc of record h holds a NUL character (U+0000)');
    await writer.transaction(() =>
      writer.append('writer', 't', COLUMNS, [['i', null, null, null, null, null, null, JSON.stringify({ note: 'a\\u0000' })]]),
    );
    expect(db.psql(`SELECT doc->>'note' FROM writer.t WHERE id = 'i'`)).toBe('a\\u0000');
  });
});
