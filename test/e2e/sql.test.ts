// `appraisal sql` over the DuckDB file `appraisal sync` wrote, in process against the mock: the
// answers checked against the service's own lists, each format read back by a reader that is not
// ours (csv-parse, hyparquet), numbers exact or refused, and everything that is not a read of the
// database's tables refused in one line (exit 2) with the file unchanged, no file written elsewhere.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { run, start } from '../helpers/run.js';
import { runCli } from '../helpers/spawn.js';
import { holdDuckDBFile } from '../helpers/duckdb-holder.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

let mock: MockServer;
let scratch: string;
let env: Record<string, string | undefined>;
let file: string;

const RECORDS = 30;
const cli = (args: string[]) => run(args, { env, cwd: scratch });
/** A run refused with exit 2 and this in its error or hint. */
async function expectRefused(args: string[], message: string, options: Parameters<typeof run>[1] = {}): Promise<void> {
  const result = await run(args, { env, cwd: scratch, ...options });
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
  expect(result.stderr).toContain(message);
}
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

beforeAll(async () => {
  mock = await startMock({ records: RECORDS, http: true });
  scratch = tempDir('appraisal-sql-');
  env = { ...mock.env, ...isolatedEnv() };
  const synced = await cli(['sync', 'props', 'assignments']);
  expect(synced.code, synced.stderr).toBe(0);
  file = join(scratch, 'appraisal.duckdb');
});
afterAll(async () => {
  await mock?.stop();
});

describe('appraisal sql', () => {
  it("answers from the synced tables what the service's lists say, counts as numbers", async () => {
    const listed = await cli(['assignments', 'list', '-o', 'json']);
    const assignments = JSON.parse(listed.stdout) as Array<{ status: string; propertyIds: string[] }>;
    const expected: Record<string, number> = {};
    for (const { status } of assignments) expected[status] = (expected[status] ?? 0) + 1;

    const result = await cli(['sql', 'SELECT status, count(*) AS n FROM assignments GROUP BY status', '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect(exitProblems(result)).toEqual([]);
    const rows = JSON.parse(result.stdout) as Array<{ status: string; n: unknown }>;
    expect(Object.fromEntries(rows.map((row) => [row.status, row.n]))).toEqual(expected);

    // A join through a child table: every link of the service's records, by property name.
    const joined = await cli([
      'sql',
      'SELECT a.id, p.name FROM assignments a JOIN assignments__property_ids l ON l.parent_id = a.id JOIN properties p ON p.id = l.value',
      '-o',
      'ndjson',
    ]);
    expect(joined.code, joined.stderr).toBe(0);
    const links = joined.stdout.trim().split('\n').filter(Boolean);
    expect(links).toHaveLength(assignments.reduce((sum, a) => sum + a.propertyIds.length, 0));
  });

  it('csv and --fields as for a list; Parquet typed from the result, read by hyparquet', async () => {
    const query = 'SELECT id, name, year_built, updated_at FROM properties ORDER BY id';
    const json = JSON.parse((await cli(['sql', query, '-o', 'json'])).stdout) as Array<Record<string, unknown>>;
    expect(json).toHaveLength(RECORDS);
    // Times as the service writes them.
    for (const row of json) expect(row.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

    const csv = await cli(['sql', query, '-o', 'csv', '--delimiter', ';']);
    expect(csv.code, csv.stderr).toBe(0);
    const cells = parse(csv.stdout, { columns: true, delimiter: ';' }) as Array<Record<string, string>>;
    expect(cells.map((row) => [row.id, row.name])).toEqual(json.map((row) => [row.id, row.name]));

    const fields = await cli(['sql', query, '-o', 'json', '--fields', 'name']);
    expect(JSON.parse(fields.stdout)).toEqual(json.map((row) => ({ name: row.name })));

    const out = join(scratch, 'props.parquet');
    const parquet = await cli(['sql', query, '-o', 'parquet', '--out', out]);
    expect(parquet.code, parquet.stderr).toBe(0);
    expect(parquet.stderr).toContain(`Wrote ${RECORDS} rows to ${out}`);
    const read = await parquetReadObjects({ file: new Uint8Array(readFileSync(out)).buffer });
    expect(read.map((row) => row.id)).toEqual(json.map((row) => row.id));
    const first = read.find((row) => row.year_built !== null)!;
    expect(typeof first.year_built).toBe('bigint'); // INT64, not text
    expect(first.updated_at).toBeInstanceOf(Date);
    expect((first.updated_at as Date).toISOString()).toBe(json.find((row) => row.id === first.id)!.updated_at);
  });

  it('a table fits the terminal as a list does, --wide keeps every column; --out is one file written whole', async () => {
    const query = 'SELECT id, name, address__city, year_built, updated_at FROM properties ORDER BY id LIMIT 3';
    const narrow = await run(['sql', query, '-o', 'table'], { env: { ...env, COLUMNS: '70' }, cwd: scratch });
    expect(narrow.code, narrow.stderr).toBe(0);
    expect(narrow.stdout.split('\n')[1]).toMatch(/^│ id +│ name +│$/);
    expect(narrow.stderr).toContain('Left out address__city and 2 more to fit (--wide shows all)');
    const wide = await run(['sql', query, '-o', 'table', '--wide'], { env: { ...env, COLUMNS: '70' }, cwd: scratch });
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stdout.split('\n')[1]).toMatch(/^│ id +│ name +│ address__city │ year_built │ updated_at +│$/);
    expect(wide.stderr).toBe('');
    // Rows of a query are no pages to resume: no partial file or checkpoint beside --out, ever.
    const dir = join(scratch, 'wide-out');
    mkdirSync(dir);
    const out = await cli(['sql', query, '-o', 'csv', '--out', join(dir, 'three.csv')]);
    expect(out.code, out.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual(['three.csv']);
    expect(readFileSync(join(dir, 'three.csv'), 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it("times of every precision as RFC 3339, infinite ones and intervals as DuckDB's own text", async () => {
    const query =
      "SELECT '2024-01-01 10:00:00.123456789'::TIMESTAMP_NS AS ns, '2024-01-01 10:00:00.5'::TIMESTAMP_MS AS ms, " +
      "'2024-01-01 10:00:01'::TIMESTAMP_S AS s, TIMESTAMP '2024-01-01 10:00:00.000001' AS us, " +
      "'1969-12-31 23:59:59.999999999'::TIMESTAMP_NS AS before_epoch, '1960-01-01 00:00:00.25+00'::TIMESTAMPTZ AS tz, " +
      "'infinity'::DATE AS d, '-infinity'::DATE AS d_neg, '-infinity'::TIMESTAMP_NS AS ns_neg, 'infinity'::TIMESTAMPTZ AS tz_inf, " +
      "INTERVAL '1 month 2 days 01:30:00.5' AS i, INTERVAL '-1 month 2 days' AS i_mixed";
    const json = await cli(['sql', query, '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        ns: '2024-01-01T10:00:00.123456789',
        ms: '2024-01-01T10:00:00.500',
        s: '2024-01-01T10:00:01.000',
        us: '2024-01-01T10:00:00.000001',
        before_epoch: '1969-12-31T23:59:59.999999999',
        tz: '1960-01-01T00:00:00.250Z',
        d: 'infinity',
        d_neg: '-infinity',
        ns_neg: '-infinity',
        tz_inf: 'infinity',
        i: '1 month 2 days 01:30:00.5',
        i_mixed: '-1 month 2 days',
      },
    ]);
    // The same text in csv, and an interval is a text column in Parquet (JSON there before).
    const csv = parse((await cli(['sql', query, '-o', 'csv'])).stdout, { columns: true }) as Array<Record<string, string>>;
    expect(csv).toEqual([Object.fromEntries(Object.entries(JSON.parse(json.stdout)[0] as object).map(([k, v]) => [k, String(v)]))]);
    const out = join(scratch, 'times.parquet');
    expect((await cli(['sql', 'SELECT INTERVAL 3 DAY AS i', '-o', 'parquet', '--out', out])).code).toBe(0);
    expect(await parquetReadObjects({ file: new Uint8Array(readFileSync(out)).buffer })).toEqual([{ i: '3 days' }]);
  });

  it('numbers exact or refused: 2^53 prints, 2^53 + 1 is exit 2 with the cast to use', async () => {
    const exact = await cli(['sql', 'SELECT 9007199254740992::BIGINT AS n, 12.50::DECIMAL(6,2) AS d', '-o', 'json']);
    expect(exact.code, exact.stderr).toBe(0);
    expect(exact.stdout).toContain('{"n":9007199254740992,"d":12.5}');
    const beyond = await cli(['sql', 'SELECT 9007199254740993::BIGINT AS n', '-o', 'json']);
    expect(beyond.code).toBe(2);
    expect(exitProblems(beyond)).toEqual([]);
    expect(beyond.stderr).toContain('error: column n: 9007199254740993 cannot be printed exactly as a number');
    expect(beyond.stdout).toBe('');
    const cast = await cli(['sql', 'SELECT CAST(9007199254740993::BIGINT AS VARCHAR) AS n', '-o', 'json']);
    expect(cast.stdout).toContain('{"n":"9007199254740993"}');
  });

  it('reads the tables and nothing else: every other statement is exit 2, the file unchanged, nothing written', async () => {
    const before = sha256(file);
    const outside = join(scratch, 'copied.csv');
    const cases: Array<[string, RegExp]> = [
      ["INSERT INTO properties (id) VALUES ('x')", /read-only mode[\s\S]*hint: sql only reads/],
      ['DELETE FROM assignments', /read-only mode/],
      ["SELECT * FROM read_text('/etc/passwd')", /file system operations are disabled/],
      [`COPY properties TO '${outside}'`, /file system operations are disabled/],
      [`ATTACH '${join(scratch, 'other.duckdb')}' AS other`, /file system operations are disabled/],
      ['SET enable_external_access = true', /configuration has been locked/],
      ['INSTALL httpfs', /file system operations are disabled/],
      // The process's environment (the API key is in it here) is out of reach too.
      ["SELECT getenv('APPRAISAL_API_KEY')", /getenv does not exist/],
      ['SELECT 1; SELECT 2', /sql runs one statement at a time; this text holds 2/],
      ['SELECT 1 AS a, 2 AS a', /the result has two columns named a/],
      ['SELECT * FROM nope', /Catalog Error[\s\S]*hint: the tables are properties/],
      ['SELEC 1', /sql: Parser Error: syntax error at or near "SELEC"/],
    ];
    for (const [statement, message] of cases) {
      const result = await cli(['sql', statement]);
      expect(result.code, `${statement}: ${result.stderr}`).toBe(2);
      expect(exitProblems(result), statement).toEqual([]);
      expect(result.stderr, statement).toMatch(message);
      expect(result.stdout + result.stderr, statement).not.toContain(env.APPRAISAL_API_KEY);
    }
    expect(sha256(file)).toBe(before);
    expect(env.APPRAISAL_API_KEY).toMatch(/^apk_/);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(scratch, 'other.duckdb'))).toBe(false);
  });

  it('a sync that made the tables tells a person at a terminal how to query them; scripts and later runs are not told', async () => {
    const first = await run(['sync', 'clients', '--to', 'duckdb:two words.duckdb', '--schema', 'acme'], {
      env,
      cwd: scratch,
      tty: { stderr: true },
    });
    expect(first.code, first.stderr).toBe(0);
    const told = `query them: appraisal sql "SELECT count(*) FROM clients" --to 'duckdb:two words.duckdb' --schema acme`;
    expect(first.stderr).toContain(told);
    // What it says runs as said.
    const asTold = await cli(['sql', 'SELECT count(*) AS n FROM clients', '--to', 'duckdb:two words.duckdb', '--schema', 'acme']);
    expect(asTold.code, asTold.stderr).toBe(0);
    expect(JSON.parse(asTold.stdout)).toEqual([{ n: RECORDS }]);
    const again = await run(['sync', 'clients', '--to', 'duckdb:two words.duckdb', '--schema', 'acme'], {
      env,
      cwd: scratch,
      tty: { stderr: true },
    });
    expect(again.stderr).not.toContain('query them');
    const script = await cli(['sync', 'clients', '--to', 'duckdb:script.duckdb']);
    expect(script.code, script.stderr).toBe(0);
    expect(script.stderr).not.toContain('query them');
  });

  it('the statement from stdin (-) or a file (@FILE), as --data reads a record', async () => {
    const query = 'SELECT count(*) AS n FROM properties;\n';
    writeFileSync(join(scratch, 'count.sql'), query);
    const fromFile = await cli(['sql', '@count.sql', '-o', 'json']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toEqual([{ n: RECORDS }]);
    const fromStdin = await run(['sql', '-', '-o', 'json'], { env, cwd: scratch, stdin: query });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toEqual([{ n: RECORDS }]);
    await expectRefused(['sql', '-'], 'error: sql - reads stdin, but stdin is a terminal', { tty: { stdin: true } });
    await expectRefused(['sql', '@nothing.sql'], 'error: sql @nothing.sql: file not found');
  });

  it('bounds what DuckDB may hold for a statement (1 GB, not 80% of the machine), and no statement lifts it', async () => {
    const limit = await cli(['sql', "SELECT current_setting('memory_limit') AS m", '-o', 'json']);
    expect(limit.code, limit.stderr).toBe(0);
    expect(JSON.parse(limit.stdout)).toEqual([{ m: '953.6 MiB' }]);
    await expectRefused(['sql', "SET memory_limit = '20GB'"], 'the configuration has been locked');
  });

  it('a statement that outgrows memory spills nowhere: a PATH.tmp planted beside the file is not written through', async () => {
    // DuckDB spilled to PATH.tmp/duckdb_temp_storage_*.tmp (O_CREAT, links followed, mode 0644): into
    // another user's directory there, readable by them, or through their links to files elsewhere;
    // here, with no other file reachable, a link there aborted the whole process (SIGABRT). A process,
    // so that an abort is a result rather than the test runner's worker gone.
    const victim = join(scratch, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const planted = `${file}.tmp`;
    mkdirSync(planted);
    const names = ['DEFAULT', 'S32K', 'S64K', 'S96K', 'S128K', 'S160K', 'S192K', 'S224K'].map(
      (size) => `duckdb_temp_storage_${size}-0.tmp`,
    );
    for (const name of names) symlinkSync(victim, join(planted, name));
    // About 1.5 GB of distinct strings: more than the 1 GB a statement may hold.
    const big = "SELECT count(*) AS n FROM (SELECT DISTINCT i::VARCHAR || repeat('p', 40) AS s FROM range(12000000) t(i))";
    const result = await runCli(['sql', big], { env, cwd: scratch });
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('Out of Memory');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readdirSync(planted).sort()).toEqual([...names].sort());
    rmSync(planted, { recursive: true });
  }, 60_000);

  it('a file of another kind is no database of its own, whatever its path says', async () => {
    const files = { 'export.duckdb': 'id,name\r\n1,a\r\n', 'legacy.duckdb': 'SQLite format 3\0' + 'x'.repeat(84), 'touched.duckdb': '' };
    for (const [name, content] of Object.entries(files)) {
      writeFileSync(join(scratch, name), content);
      await expectRefused(['sql', 'SELECT 1', '--to', `duckdb:${name}`], `error: ${name} is not a DuckDB database`);
      expect(readFileSync(join(scratch, name), 'utf8')).toBe(content);
    }
    mkdirSync(join(scratch, 'sqlite-exports', 'x.duckdb'), { recursive: true });
    const directory = await cli(['sql', 'SELECT 1', '--to', 'duckdb:sqlite-exports/x.duckdb']);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toMatch(/^error: cannot read sqlite-exports\/x\.duckdb: .*directory/im);
  });

  it('a missing file is not made, another target is refused, --schema must exist', async () => {
    await expectRefused(['sql', 'SELECT 1', '--to', 'duckdb:nothing.duckdb'], 'error: no database at nothing.duckdb');
    expect(existsSync(join(scratch, 'nothing.duckdb'))).toBe(false);
    await expectRefused(
      ['sql', 'SELECT 1', '--to', 'postgres://db.example.com/ops'],
      'sql reads a DuckDB file; postgres at db.example.com:5432 is PostgreSQL',
    );
    await expectRefused(['sql', 'SELECT 1', '--schema', 'acme'], '--schema acme: appraisal.duckdb has no such schema');
    // Synced into a schema of its own, read without --schema: the hint names it.
    expect((await cli(['sync', 'props', '--to', 'duckdb:orgs.duckdb', '--schema', 'acme', '-q'])).code).toBe(0);
    await expectRefused(
      ['sql', 'SELECT count(*) FROM properties', '--to', 'duckdb:orgs.duckdb'],
      "hint: sync wrote this file's tables into schema acme: add --schema acme",
    );
    const named = await cli([
      'sql',
      'SELECT count(*) AS n FROM properties',
      '--to',
      'duckdb:orgs.duckdb',
      '--schema',
      'ACME',
      '-o',
      'json',
    ]);
    expect(JSON.parse(named.stdout)).toEqual([{ n: RECORDS }]);
    await expectRefused(['sql', 'SELECT 1', '--schema', "a'b"], 'a schema name is a letter or _');
    await expectRefused(['sql', ' '], 'error: sql needs a statement');
  });

  it('Ctrl-C while rows stream (10^11 of them): exit 130 at once, every line printed whole and in order', async () => {
    // A copy of its own, so that a failure here does not hold the file the other tests read.
    copyFileSync(file, join(scratch, 'interrupted.duckdb'));
    const running = start(['sql', 'SELECT x FROM range(100000000000) t(x)', '-o', 'ndjson', '--to', 'duckdb:interrupted.duckdb'], {
      env,
      cwd: scratch,
    });
    await waitFor(() => running.stdout().length > 0, 'the first rows');
    running.interrupt();
    const result = await running.result;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/^error: interrupted$/m);
    const lines = result.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(lines.map((_, x) => ({ x })));
    // The file is let go at once (not when the result is collected): another program may write it.
    const holder = await holdDuckDBFile(join(scratch, 'interrupted.duckdb'));
    holder.kill('SIGKILL');
  });

  it('--max-items stops the query after N rows and lets go of the file (what an MCP tool call caps)', async () => {
    for (let round = 0; round < 3; round++) {
      const result = await cli(['sql', 'SELECT x FROM range(100000000000) t(x)', '-o', 'json', '--max-items', '5']);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual([0, 1, 2, 3, 4].map((x) => ({ x })));
      const holder = await holdDuckDBFile(file);
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
  });

  it('while another program has the file open for writing: exit 2 at once, naming it', async () => {
    const holder = await holdDuckDBFile(file);
    try {
      const result = await cli(['sql', 'SELECT count(*) FROM properties']);
      expect(result.code, result.stderr).toBe(2);
      expect(exitProblems(result)).toEqual([]);
      expect(result.stderr).toContain(`error: appraisal.duckdb is being written by another process (pid ${holder.pid})`);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
