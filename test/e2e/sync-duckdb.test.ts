// `appraisal sync` into DuckDB (the embedded default), in process against the mock, read back by
// DuckDB itself: the first run full and typed, later runs incremental (also from a fresh config
// directory: the state is in the database), --full marking gone rows and un-marking returners,
// --dry-run writing nothing, -o json, bad targets, a record that breaks the schema (exit 9, nothing
// of its batch), a service fault mid-run (committed batches kept, the next run completes).
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, lchownSync, linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openDuckDB } from '../../src/commands/sync/duckdb.js';
import { duckdbCatalogName } from '../../src/commands/sync/target.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isolatedEnv, ROOT } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { run, start } from '../helpers/run.js';
import { holdDuckDBFile } from '../helpers/duckdb-holder.js';
import { tempDir } from '../helpers/temp.js';
import { createWithUnpublished } from '../helpers/unpublished-fields.js';

let mock: MockServer;
let admin: MockAdmin;
let scratch: string;
let env: Record<string, string | undefined>;

const RECORDS = 12;
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

/** A file written by DuckDB itself, as another program would (its own connection, closed after); made when missing. */
async function duckWrite(file: string, sql?: string): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    if (sql !== undefined) await connection.run(sql);
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
    expect(first.stderr).toMatch(/^properties: 12 new, 0 changed, 0 unchanged, 0 gone \(full\)/m);
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

  it('--full marks rows gone from the service and un-marks one that comes back; --dry-run writes nothing', async () => {
    const file = join(scratch, 'full.duckdb');
    const to = ['--to', `duckdb:${file}`];
    expect((await cli(['sync', 'props', ...to])).code).toBe(0);
    const ids = await admin.ids('/api/properties');
    expect((await admin.call('DELETE', `/api/properties/${ids[0]}`)).status).toBeLessThan(300);
    // A row marked gone by an earlier pass whose record is still listed: it came back.
    await duckWrite(file, `UPDATE properties SET _deleted_at = now() WHERE id = '${ids[1]}'`);
    const dry = await cli(['sync', 'props', ...to, '--full', '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).families.properties).toMatchObject({ new: 0, changed: 1, gone: 1, mode: 'full' });
    expect(await duck(file, `SELECT id FROM properties WHERE _deleted_at IS NOT NULL`)).toEqual([{ id: ids[1] }]);

    const full = await cli(['sync', 'props', ...to, '--full']);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stderr).toMatch(/^properties: 0 new, 1 changed, \d+ unchanged, 1 gone \(full\)/m);
    expect(await duck(file, `SELECT id FROM properties WHERE _deleted_at IS NOT NULL`)).toEqual([{ id: ids[0] }]);
    expect(await duck(file, `SELECT count(*)::INT AS n FROM properties`)).toEqual([{ n: ids.length }]);

    const missing = join(scratch, 'never.duckdb');
    const dryMissing = await cli(['sync', 'props', '--to', `duckdb:${missing}`, '--dry-run']);
    expect(dryMissing.code, dryMissing.stderr).toBe(0);
    expect(dryMissing.stderr).toMatch(/^properties: would write \d+ new, .*would create properties/m);
    expect(existsSync(missing)).toBe(false);
  });

  it('keeps the fields the description does not publish, at any depth, as JSON in _unpublished', async () => {
    const file = join(scratch, 'unpublished.duckdb');
    const id = await createWithUnpublished(admin, { tags: { heritage: null } });
    const result = await cli(['sync', 'props', '--to', `duckdb:${file}`]);
    expect(result.code, result.stderr).toBe(0);
    const [row] = await duck(file, `SELECT address__postal_code, _unpublished FROM properties WHERE id = '${id}'`);
    expect(row!.address__postal_code).toBe('0123');
    expect(JSON.parse(row!._unpublished as string)).toEqual({ address: { postal_code: 'other' }, wingCount: 3, tags: { heritage: null } });
    // A record holding only published fields has none.
    const plain = await duck(file, `SELECT count(*)::INT AS n FROM properties WHERE _unpublished IS NULL`);
    expect(plain).toEqual([{ n: (await admin.ids('/api/properties')).length - 1 }]);
    // The other tests count the seeded records.
    expect((await admin.call('DELETE', `/api/properties/${id}`)).status).toBeLessThan(300);
  });

  it('continues incrementally from the database alone, with an empty config directory', async () => {
    const file = join(scratch, 'fresh.duckdb');
    expect((await cli(['sync', 'clients', '--to', `duckdb:${file}`])).code).toBe(0);
    const again = await cli(['sync', 'clients', '--to', `duckdb:${file}`], isolatedEnv());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^clients: 0 new, 0 changed, \d+ unchanged, 0 gone \(incremental since \d{4}-/m);
  });

  it("writes a new file in DuckDB 1.3's storage format, and a file made in DuckDB's default one keeps it", async () => {
    const formatOf = async (file: string) =>
      (await duck(file, `SELECT tags['storage_version'] AS version FROM duckdb_databases() WHERE database_name = current_database()`))[0]!
        .version;
    const made = join(scratch, 'format-new.duckdb');
    expect((await cli(['sync', 'clients', '--to', `duckdb:${made}`])).code).toBe(0);
    expect(await formatOf(made)).toBe('v1.3.0+');

    // A file another program (or an earlier CLI) made with DuckDB's default format: synced into as it is.
    const older = join(scratch, 'format-old.duckdb');
    await duckWrite(older);
    const before = await formatOf(older);
    expect(before).not.toBe('v1.3.0+');
    for (let run = 0; run < 2; run++) {
      const synced = await cli(['sync', 'clients', '--to', `duckdb:${older}`]);
      expect(synced.code, synced.stderr).toBe(0);
    }
    expect(await formatOf(older)).toBe(before);
    expect(await duck(older, `SELECT count(*)::INT AS n FROM clients`)).toEqual([{ n: (await admin.ids('/api/clients')).length }]);
  });

  it('a schema or table named in another case is the same one, as DuckDB reads names', async () => {
    const file = join(scratch, 'cases.duckdb');
    const to = ['--to', `duckdb:${file}`];
    expect((await cli(['sync', 'props', ...to, '--schema', 'acme'])).code).toBe(0);
    const ids = await admin.ids('/api/properties');
    await admin.call('PATCH', `/api/properties/${ids[2]}`, { name: 'Renamed for the cases' });
    for (const schema of ['Acme', 'ACME']) {
      const dry = await cli(['sync', 'props', ...to, '--schema', schema, '--dry-run', '-o', 'json']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(JSON.parse(dry.stdout).families.properties).toMatchObject({ mode: 'incremental', new: 0 });
    }
    const again = await cli(['sync', 'props', ...to, '--schema', 'ACME', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).families.properties).toMatchObject({ mode: 'incremental', new: 0, changed: 1 });
    expect(await duck(file, `SELECT name FROM acme.properties WHERE id = '${ids[2]}'`)).toEqual([{ name: 'Renamed for the cases' }]);
    expect(await duck(file, `SELECT schema_name AS s FROM duckdb_schemas() WHERE lower(schema_name) = 'acme'`)).toEqual([{ s: 'acme' }]);

    // Someone's table "Properties" is the table properties to DuckDB: refused for its columns, kept.
    const theirs = join(scratch, 'theirs-cased.duckdb');
    await duckWrite(theirs, `CREATE TABLE "Properties" (id INTEGER, note VARCHAR); INSERT INTO "Properties" VALUES (1, 'theirs')`);
    const refused = await cli(['sync', 'props', '--to', `duckdb:${theirs}`]);
    expect(refused.code).toBe(2);
    expect(exitProblems(refused)).toEqual([]);
    expect(refused.stderr).toMatch(/column main\.properties\.id is INTEGER/);
    expect(await duck(theirs, `SELECT id, note FROM "Properties"`)).toEqual([{ id: 1, note: 'theirs' }]);
  });

  it('on a terminal, shows how many records it has read, cleared before the summary; nothing when stderr is not one', async () => {
    const file = join(scratch, 'progress.duckdb');
    const args = ['sync', 'props', '--to', `duckdb:${file}`, '--page-size', '5', '--concurrency', '1'];
    // Page 2 waits until the count of page 1 is on the terminal.
    await admin.queueFault({ path: '/api/properties', method: 'GET', query: { page: '2' }, fault: 'hold', count: 1 });
    const running = start(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '1' }, cwd: scratch, tty: { stderr: true } });
    try {
      await vi.waitFor(() => expect(running.stderr()).toMatch(/Fetched 5 \/ \d+ properties/), { timeout: 30_000, interval: 20 });
    } finally {
      await admin.release();
    }
    const shown = await running.result;
    expect(shown.code, shown.stderr).toBe(0);
    // The summary comes after the spinner's line was cleared, on a line of its own.
    const summary = shown.stderr.lastIndexOf('properties: ');
    expect(shown.stderr.slice(summary)).toMatch(/^properties: \d+ new, 0 changed, 0 unchanged, 0 gone \(full\)/);
    expect(shown.stderr.lastIndexOf('Fetched')).toBeLessThan(summary);
    const piped = await cli(args);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).not.toContain('Fetched');
  });

  it('a family the service does not publish stops a run that asks for it, and only that one (exit 12, nothing written)', async () => {
    const description = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    delete description.paths['/api/files']!.get;
    const spec = join(scratch, 'no-files.json');
    writeFileSync(spec, JSON.stringify(description));
    const props = await cli(['sync', 'props', '--to', 'duckdb:unpublished-props.duckdb', '--spec', spec]);
    expect(props.code, props.stderr).toBe(0);
    expect(props.stderr).toMatch(/^properties: \d+ new, 0 changed, 0 unchanged, 0 gone \(full\)/m);
    const every = await cli(['sync', '--to', 'duckdb:unpublished-all.duckdb', '--spec', spec]);
    expect(every.code).toBe(12);
    expect(exitProblems(every)).toEqual([]);
    expect(every.stderr).toContain('needs GET /api/files (listFiles), which the service does not publish');
    expect(every.stderr).toContain(
      'leave that family out by naming the ones to sync (this run asked for props assignments clients contacts files)',
    );
    expect(existsSync(join(scratch, 'unpublished-all.duckdb'))).toBe(false);
  });

  it('refuses targets it cannot use: another scheme, a file it cannot open (exit 2, naming it)', async () => {
    const scheme = await cli(['sync', '--to', 'mysql://root:hunter2@db/x']);
    expect(scheme.code).toBe(2);
    expect(exitProblems(scheme)).toEqual([]);
    expect(scheme.stderr).toMatch(/the scheme "mysql:" is not supported/);
    expect(scheme.stderr).toMatch(/duckdb:PATH, postgres:\/\/… or postgresql:\/\/…/);
    expect(scheme.stderr).not.toContain('hunter2');
    const unopenable = await cli(['sync', 'props', '--to', 'duckdb:/proc/appraisal-sync/x.duckdb']);
    expect(unopenable.code).toBe(2);
    expect(exitProblems(unopenable)).toEqual([]);
    expect(unopenable.stderr).toContain('/proc/appraisal-sync/x.duckdb');
    // The names DuckDB keeps for itself: one line each, before anything is opened.
    for (const schema of ['temp', 'System', 'pg_catalog', 'information_schema']) {
      const reserved = await cli(['sync', 'props', '--to', 'duckdb:reserved.duckdb', '--schema', schema]);
      expect(reserved.code).toBe(2);
      expect(exitProblems(reserved)).toEqual([]);
      expect(reserved.stderr).toMatch(
        new RegExp(`^error: --schema ${schema}: DuckDB keeps that name for itself\\nhint: choose a name of your own`),
      );
    }
    expect(existsSync(join(scratch, 'reserved.duckdb'))).toBe(false);
    // A schema named as DuckDB names the file's own database (acme.duckdb is acme): ambiguous to DuckDB.
    for (const [file, schema, catalog] of [
      ['acme.duckdb', 'acme', 'acme'],
      ['.Hidden.v2.db', 'hidden', 'Hidden'],
      ['main.duckdb', 'main_db', 'main_db'],
    ] as const) {
      const clash = await cli(['sync', 'props', '--to', `duckdb:${file}`, '--schema', schema]);
      expect(clash.code, file).toBe(2);
      expect(exitProblems(clash)).toEqual([]);
      expect(clash.stderr).toContain(
        `error: --schema ${schema}: DuckDB calls the database in ${file} "${catalog}" too, and cannot tell the two apart\nhint: choose another --schema`,
      );
      expect(existsSync(join(scratch, file))).toBe(false);
    }
    // The name is DuckDB's own: what current_database() says for each file.
    for (const file of ['a.b.duckdb', 'Ops.DuckDB', 'noext', '.hidden.duckdb', 'my-file.db', 'main.duckdb', 'temp.db', 'memory.db']) {
      const path = join(scratch, 'names', file);
      mkdirSync(dirname(path), { recursive: true });
      const instance = await DuckDBInstance.create(path);
      const connection = await instance.connect();
      const [row] = (await connection.runAndReadAll('SELECT current_database() AS name')).getRowObjectsJson();
      connection.closeSync();
      instance.closeSync();
      expect(duckdbCatalogName(path), file).toBe(row!.name);
    }
    // PostgreSQL's (pg_… and information_schema), refused before connecting: exit 2, not 3 for the closed port.
    const pgReserved = await cli(['sync', 'props', '--to', 'postgres://ops@127.0.0.1:1/ops', '--schema', 'pg_acme']);
    expect(pgReserved.code).toBe(2);
    expect(pgReserved.stderr).toMatch(/^error: --schema pg_acme: PostgreSQL keeps that name for itself$/m);
  });

  it('never writes over a file of another kind, and never fetches a DuckDB extension to read one', async () => {
    const files = {
      'export.duckdb': 'id,name\r\n1,a\r\n',
      'legacy.duckdb': 'SQLite format 3\0' + 'x'.repeat(84),
      'touched.duckdb': '',
    };
    for (const [file, content] of Object.entries(files)) {
      writeFileSync(join(scratch, file), content);
      const refused = await cli(['sync', 'props', '--to', `duckdb:${file}`]);
      expect(refused.code, file).toBe(2);
      expect(exitProblems(refused)).toEqual([]);
      expect(refused.stderr).toMatch(
        file === 'legacy.duckdb'
          ? /^error: legacy\.duckdb is a SQLite database, not a DuckDB one$/m
          : new RegExp(`^error: ${file.replace('.', '\\.')} is not a DuckDB database: .*not a valid DuckDB database file`, 'm'),
      );
      expect(refused.stderr).toMatch(/^hint: sync writes a DuckDB file of its own and never over another kind/m);
      // DuckDB fetches the SQLite extension from extensions.duckdb.org unless told not to.
      expect(refused.stderr).not.toMatch(/download|extensions\.duckdb\.org/i);
      expect(readFileSync(join(scratch, file), 'utf8')).toBe(content);
    }
    // A path with "sqlite" in it is no SQLite database: a directory there is what DuckDB says it is.
    mkdirSync(join(scratch, 'sqlite-exports', 'x.duckdb'), { recursive: true });
    const directory = await cli(['sync', 'props', '--to', 'duckdb:sqlite-exports/x.duckdb']);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toMatch(/^error: cannot open sqlite-exports\/x\.duckdb for writing: .*Is a directory/m);
    // The database sync writes is opened with extension installing and loading off, and no temp
    // directory (DuckDB would spill into whatever is at offline.duckdb.tmp: sql.test.ts).
    const db = await openDuckDB(join(scratch, 'offline.duckdb'), 'offline.duckdb', { readOnly: false });
    try {
      expect(
        await db.query(
          "SELECT current_setting('autoinstall_known_extensions') AS install, current_setting('autoload_known_extensions') AS load, " +
            "current_setting('temp_directory') AS spill",
        ),
      ).toEqual([{ install: false, load: false, spill: '' }]);
    } finally {
      await db.close();
    }
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a link another user planted at the file or its .wal is refused, and nothing is written through it (needs root to lchown; CI and this machine run as root)',
    async () => {
      const file = join(scratch, 'planted.duckdb');
      expect((await cli(['sync', 'clients', '--to', `duckdb:${file}`])).code).toBe(0);
      const victim = join(scratch, 'victim.txt');
      writeFileSync(victim, 'precious\n');
      // DuckDB replays and rewrites its log through whatever is at PATH.wal: the victim would become a WAL.
      symlinkSync(victim, `${file}.wal`);
      lchownSync(`${file}.wal`, 4242, 4242);
      const wal = await cli(['sync', 'props', '--to', `duckdb:${file}`]);
      expect(wal.code).toBe(2);
      expect(exitProblems(wal)).toEqual([]);
      expect(wal.stderr).toMatch(
        /^error: .*planted\.duckdb\.wal is a symbolic link another user made \(uid 4242\): writing through it would write into the file it points at; refusing to use it$/m,
      );
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
      rmSync(`${file}.wal`);
      // The database's own name, linked to where the other user wants a file made.
      const elsewhere = join(scratch, 'made-elsewhere.duckdb');
      symlinkSync(elsewhere, join(scratch, 'linked.duckdb'));
      lchownSync(join(scratch, 'linked.duckdb'), 4242, 4242);
      const linked = await cli(['sync', 'props', '--to', `duckdb:${join(scratch, 'linked.duckdb')}`]);
      expect(linked.code).toBe(2);
      expect(linked.stderr).toMatch(/linked\.duckdb is a symbolic link another user made \(uid 4242\)/);
      expect(existsSync(elsewhere)).toBe(false);
      // A link of one's own is one's own choice (the full-disk test below links the .wal to /dev/full).
      const done = await cli(['sync', 'props', '--to', `duckdb:${file}`]);
      expect(done.code, done.stderr).toBe(0);
    },
  );

  it('a FIFO at the file or its .wal is refused before DuckDB waits on it forever (sync and sql, exit 2)', async () => {
    const file = join(scratch, 'fifo.duckdb');
    for (const fifo of [file, `${file}.wal`]) {
      if (fifo !== file) expect((await cli(['sync', 'clients', '--to', `duckdb:${file}`])).code).toBe(0);
      execFileSync('mkfifo', [fifo]);
      for (const args of [
        ['sync', 'clients'],
        ['sql', 'SELECT 1 AS n'],
      ]) {
        const refused = await cli([...args, '--to', `duckdb:${file}`]);
        expect(refused.code, `${args.join(' ')}: ${refused.stderr}`).toBe(2);
        expect(exitProblems(refused)).toEqual([]);
        expect(refused.stderr).toContain('is a FIFO (named pipe), not a regular file');
      }
      rmSync(fifo);
    }
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a .wal another user left beside the file is never replayed: sync, a dry run and sql refuse it (needs root to chown)',
    async () => {
      const file = join(scratch, 'replayed.duckdb');
      expect((await cli(['sync', 'clients', '--to', `duckdb:${file}`])).code).toBe(0);
      // The other user's log, made as they would: from a copy of the file (it is readable, 0644),
      // a statement run and no checkpoint, so the statement stays in the copy's .wal.
      const copy = join(scratch, 'their-copy.duckdb');
      writeFileSync(copy, readFileSync(file));
      const instance = await DuckDBInstance.create(copy, { checkpoint_threshold: '1TB' });
      const connection = await instance.connect();
      await connection.run('PRAGMA disable_checkpoint_on_shutdown');
      await connection.run("DROP TABLE clients; CREATE TABLE clients AS SELECT 'forged' AS id");
      connection.closeSync();
      instance.closeSync();
      writeFileSync(`${file}.wal`, readFileSync(`${copy}.wal`));
      chownSync(`${file}.wal`, 4242, 4242);
      for (const args of [
        ['sync', 'clients'],
        ['sync', 'clients', '--dry-run'],
        ['sql', 'SELECT id FROM clients'],
      ]) {
        const refused = await cli([...args, '--to', `duckdb:${file}`]);
        expect(refused.code, `${args.join(' ')}: ${refused.stderr}`).toBe(2);
        expect(exitProblems(refused)).toEqual([]);
        expect(refused.stderr).toMatch(/^error: .*replayed\.duckdb\.wal is owned by another user \(uid 4242\): DuckDB would replay it/m);
        expect(refused.stdout).not.toContain('forged');
      }
      // A hard link at the .wal to a file of the user's: DuckDB would replay it, then cut it.
      rmSync(`${file}.wal`);
      const victim = join(scratch, 'victim-linked.txt');
      writeFileSync(victim, 'precious\n');
      linkSync(victim, `${file}.wal`);
      const linked = await cli(['sync', 'clients', '--to', `duckdb:${file}`]);
      expect(linked.code).toBe(2);
      expect(linked.stderr).toMatch(/replayed\.duckdb\.wal has 2 hard links/);
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
      rmSync(`${file}.wal`);
      expect(await duck(file, `SELECT count(*)::INT AS n FROM clients WHERE id <> 'forged'`)).toEqual([{ n: RECORDS }]);
    },
  );

  it('exits 2 at once with the path and the other program, while a program that is no sync holds the file', async () => {
    const file = join(scratch, 'held.duckdb');
    expect((await cli(['sync', 'clients', '--to', `duckdb:${file}`])).code).toBe(0);
    // Another program with the file open for writing (a DuckDB shell, a notebook): not a sync, so not
    // said to be one (sync-crash.test.ts has another sync hold it).
    const holder = await holdDuckDBFile(file);
    try {
      const second = await cli(['sync', 'clients', '--to', `duckdb:${file}`]);
      expect(second.code, second.stderr).toBe(2);
      expect(exitProblems(second)).toEqual([]);
      expect(second.stderr).toMatch(new RegExp(`^error: ${file} is in use by another program \\(.*node, pid ${holder.pid}\\)$`, 'm'));
      expect(second.stderr).toMatch(/^hint: DuckDB lets one process at a time open a database file: close it in the other program/m);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('a record that breaks the published schema: exit 9, nothing of its batch written', async () => {
    const file = join(scratch, 'invalid.duckdb');
    await admin.queueFault({ path: '/api/clients', fault: 'schema-violation', query: { page: '1', limit: '100' } });
    const bad = await cli(['sync', 'clients', '--to', `duckdb:${file}`, '--page-size', '100']);
    expect(bad.code, bad.stderr).toBe(9);
    expect(exitProblems(bad)).toEqual([]);
    expect(bad.stderr).toMatch(/do not match the published schema .*nothing of that batch was written/);
    expect(await duck(file, `SELECT count(*)::INT AS n FROM clients`)).toEqual([{ n: 0 }]);
    const good = await cli(['sync', 'clients', '--to', `duckdb:${file}`]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).toMatch(/^clients: 12 new, 0 changed, 0 unchanged, 0 gone \(full\)/m);
  });

  it('a service fault mid-run keeps the batches committed before it; the next run completes', async () => {
    // 110 records in pages of 10 and batches of 50 rows (APPRAISAL_SYNC_BATCH_ROWS): page 11 fails after
    // two batches were committed, as page 11 of 100-record pages does after one 1000-row batch.
    const many = await startMock({ records: 110, http: true });
    try {
      const file = join(scratch, 'fault.duckdb');
      const manyEnv = { ...env, ...many.env, APPRAISAL_SYNC_BATCH_ROWS: '50' };
      await mockAdmin(many).queueFault({ path: '/api/properties', query: { page: '11', limit: '10' }, status: 503, count: 4 });
      const failed = await run(['sync', 'props', '--to', `duckdb:${file}`, '--page-size', '10', '--concurrency', '1'], {
        env: { ...manyEnv, APPRAISAL_RETRY_BASE_MS: '1' },
        cwd: scratch,
      });
      expect(failed.code, failed.stderr).toBe(8);
      expect(exitProblems(failed)).toEqual([]);
      expect(await duck(file, `SELECT count(*)::INT AS n FROM properties`)).toEqual([{ n: 100 }]);
      const done = await run(['sync', 'props', '--to', `duckdb:${file}`], { env: manyEnv, cwd: scratch });
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toMatch(/^properties: 10 new, 0 changed, 100 unchanged, 0 gone \(full\)/m);
    } finally {
      await many.stop();
    }
  });
  it('a disk with no room for the write-ahead log: exit 2, one line with what to do; the same command then finishes', async () => {
    const file = join(scratch, 'full-disk.duckdb');
    expect((await cli(['sync', 'clients', '--to', `duckdb:${file}`])).code).toBe(0);
    // Every write to the WAL fails as on a full disk (ENOSPC), without a disk of our own to fill.
    symlinkSync('/dev/full', `${file}.wal`);
    const full = await cli(['sync', 'props', '--to', `duckdb:${file}`]);
    expect(full.code, full.stderr).toBe(2);
    expect(exitProblems(full)).toEqual([]);
    expect(full.stderr).toMatch(/^error: .*full-disk\.duckdb: .*No space left on device/m);
    expect(full.stderr).toMatch(/^hint: the disk is full: free some space .* every batch committed before this is kept/m);
    rmSync(`${file}.wal`);
    const done = await cli(['sync', 'props', '--to', `duckdb:${file}`]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/^properties: \d+ new, 0 changed, 0 unchanged, 0 gone \(full\)/m);
  });
});

describe('schema evolution (the description the run binds, given with --spec)', () => {
  /** openapi.json with Property's schema changed by `edit`, written to a file. */
  function description(name: string, edit: (property: Record<string, Record<string, unknown>>) => void): string {
    const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
      components: { schemas: { Property: { properties: Record<string, Record<string, unknown>> } } };
    };
    edit(document.components.schemas.Property.properties);
    const path = join(scratch, `${name}.json`);
    writeFileSync(path, JSON.stringify(document));
    return path;
  }

  it("reads RFC 3339's lower-case t and z, and cuts a date-time past the microsecond", async () => {
    const spec = description('inspected-date-time', (properties) => {
      properties.inspectedAt = { type: ['string', 'null'], format: 'date-time' };
    });
    const made: string[] = [];
    for (const inspectedAt of ['2026-06-01t10:00:00.5z', '2026-12-31T23:59:59.9999999Z']) {
      const created = await admin.call('POST', '/api/properties', {
        name: 'Date House',
        propertyType: 'office',
        address: { line1: '1 Main', city: 'Hull', region: 'YT', postalCode: '0123', country: 'CA' },
        inspectedAt,
      });
      expect(created.status).toBe(201);
      made.push((created.body as { id: string }).id);
    }
    const file = join(scratch, 'date-times.duckdb');
    const result = await cli(['sync', 'props', '--spec', spec, '--to', `duckdb:${file}`]);
    expect(result.code, result.stderr).toBe(0);
    const times = await duck(
      file,
      `SELECT strftime(inspected_at AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S.%f') AS t FROM properties WHERE id IN ('${made.join("', '")}') ORDER BY t`,
    );
    expect(times).toEqual([{ t: '2026-06-01 10:00:00.500000' }, { t: '2026-12-31 23:59:59.999999' }]);
    for (const id of made) expect((await admin.call('DELETE', `/api/properties/${id}`)).status).toBeLessThan(300);
  });

  it('adds a new field as a nullable column, keeps a dropped one, refuses a changed type with nothing written', async () => {
    const file = join(scratch, 'evolve.duckdb');
    const to = ['--to', `duckdb:${file}`];
    expect((await cli(['sync', 'props', ...to])).code).toBe(0);
    const gained = description('gained', (properties) => {
      properties.floors = { type: ['integer', 'null'] };
      delete properties.parcelNumber;
    });
    const ids = await admin.ids('/api/properties');
    await admin.call('PATCH', `/api/properties/${ids[2]}`, { name: 'Changed after the description grew' });
    const grown = await cli(['sync', 'props', ...to, '--spec', gained]);
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stderr).toMatch(/added columns: properties\.floors/);
    const columns = await duck(file, `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'properties'`);
    expect(columns).toContainEqual({ column_name: 'floors', data_type: 'BIGINT' });
    expect(columns).toContainEqual({ column_name: 'parcel_number', data_type: 'VARCHAR' });
    expect(await duck(file, `SELECT count(*)::INT AS n FROM properties WHERE floors IS NOT NULL`)).toEqual([{ n: 0 }]);

    const changed = description('changed', (properties) => {
      properties.yearBuilt = { type: ['string', 'null'] };
    });
    const before = await duck(file, `SELECT max(_synced_at)::VARCHAR AS at, count(*)::INT AS n FROM properties`);
    await admin.call('PATCH', `/api/properties/${ids[2]}`, { name: 'Changed again' });
    const refused = await cli(['sync', 'props', ...to, '--spec', changed]);
    expect(refused.code).toBe(2);
    expect(exitProblems(refused)).toEqual([]);
    expect(refused.stderr).toMatch(
      /error: column main\.properties\.year_built is BIGINT in .* but the published schema now makes it VARCHAR: nothing was written for properties/,
    );
    expect(refused.stderr).toMatch(/hint: sync never changes or drops a column/);
    expect(await duck(file, `SELECT max(_synced_at)::VARCHAR AS at, count(*)::INT AS n FROM properties`)).toEqual(before);
  });

  it('fields or array fields whose names meet in snake_case are exit 9 naming the column or table, nothing made', async () => {
    const cases: Array<[string, (properties: Record<string, Record<string, unknown>>) => void, RegExp]> = [
      [
        'columns-meet',
        (properties) => void (properties.YearBuilt = { type: 'string' }),
        /the published schema gives yearBuilt and YearBuilt the same column, properties\.year_built: nothing was written for properties/,
      ],
      [
        'tables-meet',
        (properties) => {
          properties.tagList = { type: 'array', items: { type: 'string' } };
          properties.TagList = { type: 'array', items: { type: 'integer' } };
        },
        /the published schema gives tagList and TagList the same table, properties__tag_list/,
      ],
    ];
    for (const [name, edit, message] of cases) {
      const file = join(scratch, `${name}.duckdb`);
      const result = await cli(['sync', 'props', '--to', `duckdb:${file}`, '--spec', description(name, edit)]);
      expect(result.code, result.stderr).toBe(9);
      expect(exitProblems(result)).toEqual([]);
      expect(result.stderr).toMatch(message);
      expect(await duck(file, `SELECT count(*)::INT AS n FROM duckdb_tables() WHERE table_name LIKE 'properties%'`)).toEqual([{ n: 0 }]);
    }
  });

  it('a table someone else made with incompatible columns is refused, never dropped', async () => {
    const file = join(scratch, 'theirs.duckdb');
    await duckWrite(file, `CREATE TABLE properties (id INTEGER, note VARCHAR); INSERT INTO properties VALUES (1, 'theirs')`);
    const refused = await cli(['sync', 'props', '--to', `duckdb:${file}`]);
    expect(refused.code).toBe(2);
    expect(exitProblems(refused)).toEqual([]);
    expect(refused.stderr).toMatch(/column main\.properties\.id is INTEGER/);
    expect(await duck(file, `SELECT id, note FROM properties`)).toEqual([{ id: 1, note: 'theirs' }]);
  });

  it('a table someone else made with the right columns but no primary key on id is refused', async () => {
    const file = join(scratch, 'theirs-no-key.duckdb');
    await duckWrite(
      file,
      `CREATE TABLE properties (id VARCHAR, note VARCHAR, PRIMARY KEY (note)); INSERT INTO properties VALUES ('a', 'theirs')`,
    );
    const refused = await cli(['sync', 'props', '--to', `duckdb:${file}`]);
    expect(refused.code).toBe(2);
    expect(exitProblems(refused)).toEqual([]);
    expect(refused.stderr).toMatch(
      /error: table main\.properties in .* was not made by sync: its primary key is \(note\), sync needs \(id\)/,
    );
    expect(await duck(file, `SELECT id, note FROM properties`)).toEqual([{ id: 'a', note: 'theirs' }]);
  });
});
