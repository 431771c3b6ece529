// Crash safety of `appraisal sync` (issue 35): the CLI killed with SIGKILL at random moments (mid-page,
// mid-transaction, between families), a bounded number of times in a row, then the same command run
// to its end: every table must hold exactly what one clean run made (every column but _synced_at;
// _deleted_at as null or not), in DuckDB and in PostgreSQL. The kills are real: a spawned CLI (a
// process is what is tested), against the in-process mock and a private PostgreSQL cluster.
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { mockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { startCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let db: PostgresCluster;
let scratch: string;
let env: Record<string, string | undefined>;

/**
 * 200 records a family in pages of 40 and batches of 25 rows (APPRAISAL_SYNC_BATCH_ROWS): five pages and
 * eight transactions per family, a child table, and a boundary between families to be killed at.
 */
const RECORDS = 200;
const FAMILIES = ['props', 'assignments'];
const TABLES = ['properties', 'assignments', 'assignments__property_ids'];
/** Kills in a row before the run that finishes: two per target, four random moments per file. Each run is a
 *  spawned CLI (~1 s of CPU, most of it start-up and the DuckDB addon), so every kill costs the suite a run. */
const KILLS = 2;

beforeAll(async () => {
  [mock, db] = await Promise.all([startMock({ records: RECORDS, http: true }), startPostgres()]);
  scratch = tempDir('appraisal-sync-crash-');
  env = { ...mock.env, ...isolatedEnv(), APPRAISAL_RETRY_BASE_MS: '1', APPRAISAL_SYNC_BATCH_ROWS: '25' };
}, 90_000);
afterAll(async () => {
  await mock?.stop();
  await db?.stop();
});

/** One spawned sync; killed with SIGKILL after `killAfterMs` unless it ended first. Its wall time. */
async function syncOnce(to: string[], killAfterMs?: number): Promise<{ ms: number; killed: boolean; code: number | null; stderr: string }> {
  const started = Date.now();
  const cli = startCli(['sync', ...FAMILIES, ...to, '--page-size', '40', '--concurrency', '4'], { env, cwd: scratch });
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => cli.child.kill('SIGKILL'), killAfterMs);
  const result = await cli.result;
  clearTimeout(timer);
  return { ms: Date.now() - started, killed: result.signal === 'SIGKILL', code: result.code, stderr: result.stderr };
}

/** Kill a run at random moments KILLS times, then run it to its end; what each kill hit, for the failure message. */
async function killThenFinish(to: string[], cleanMs: number): Promise<string[]> {
  const kills: string[] = [];
  for (let i = 0; i < KILLS; i++) {
    const at = Math.round(150 + Math.random() * cleanMs);
    const outcome = await syncOnce(to, at);
    kills.push(`${at} ms: ${outcome.killed ? 'killed' : `ended first (exit ${outcome.code})`}`);
    if (!outcome.killed) expect(outcome.code, outcome.stderr).toBe(0);
  }
  const last = await syncOnce(to);
  expect(last.code, `${last.stderr}\nkills: ${kills.join(', ')}`).toBe(0);
  return kills;
}

async function duckRows(file: string, table: string): Promise<string[]> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const columns = (
      (
        await connection.runAndReadAll(
          `SELECT column_name FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`,
        )
      ).getRowObjectsJson() as Array<{ column_name: string }>
    ).map((row) => row.column_name);
    const kept = columns.filter((name) => name !== '_synced_at' && name !== '_deleted_at').map((name) => `"${name}"`);
    if (columns.includes('_deleted_at')) kept.push('_deleted_at IS NULL AS live');
    const rows = (await connection.runAndReadAll(`SELECT ${kept.join(', ')} FROM "${table}"`)).getRowObjectsJson();
    return rows.map((row) => JSON.stringify(row)).sort();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A table's rows as one digest, every column but _synced_at, _deleted_at as live or not (psql). */
function pgDigest(schema: string, table: string): string {
  return db.psql(
    `SELECT count(*) || ':' || coalesce(md5(string_agg(r, ',' ORDER BY r)), '') FROM (SELECT (to_jsonb(t) - '_synced_at' - '_deleted_at')::text || (to_jsonb(t)->>'_deleted_at' IS NULL)::text AS r FROM "${schema}"."${table}" t) x`,
  );
}

// A clean run, two killed runs and a final one, each a spawned CLI: a few seconds on a quiet 2-core machine,
// over a minute when the whole suite shares it. A generous bound, not a measurement.
const CRASH_LOOP_BUDGET = 240_000;

describe('sync killed with SIGKILL at random points ends as a clean run', () => {
  it(
    'DuckDB',
    async () => {
      const clean = join(scratch, 'clean.duckdb');
      const cleanRun = await syncOnce(['--to', `duckdb:${clean}`]);
      expect(cleanRun.code, cleanRun.stderr).toBe(0);
      const killed = join(scratch, 'killed.duckdb');
      const kills = await killThenFinish(['--to', `duckdb:${killed}`], cleanRun.ms);
      for (const table of TABLES) {
        const expected = await duckRows(clean, table);
        expect(expected.length, table).toBeGreaterThanOrEqual(RECORDS * 0.75);
        expect(await duckRows(killed, table), `${table} after kills at ${kills.join(', ')}`).toEqual(expected);
      }
    },
    CRASH_LOOP_BUDGET,
  );

  it(
    'PostgreSQL',
    async () => {
      const cleanRun = await syncOnce(['--to', db.url(), '--schema', 'clean']);
      expect(cleanRun.code, cleanRun.stderr).toBe(0);
      const kills = await killThenFinish(['--to', db.url(), '--schema', 'killed'], cleanRun.ms);
      for (const table of TABLES) {
        const expected = pgDigest('clean', table);
        expect(Number(expected.split(':')[0]), table).toBeGreaterThanOrEqual(RECORDS * 0.75);
        expect(pgDigest('killed', table), `${table} after kills at ${kills.join(', ')}`).toBe(expected);
      }
      expect(db.psql(`SELECT family, records, watermark IS NOT NULL FROM killed._appraisal_sync ORDER BY family`)).toBe(
        db.psql(`SELECT family, records, watermark IS NOT NULL FROM clean._appraisal_sync ORDER BY family`),
      );
    },
    CRASH_LOOP_BUDGET,
  );
});

describe('one writer', () => {
  it('a second sync of the same DuckDB file exits 2 at once, saying another sync holds it (pid and all)', async () => {
    const admin = mockAdmin(mock);
    const file = join(scratch, 'one-writer.duckdb');
    // The first sync holds the file while the mock holds its second page (the request log cleared:
    // the runs above asked for second pages too).
    await admin.clearRequests();
    await admin.queueFault({ path: '/api/properties', method: 'GET', query: { page: '2' }, fault: 'hold', count: 1 });
    const first = startCli(['sync', 'props', '--to', `duckdb:${file}`, '--page-size', '40', '--concurrency', '1'], { env, cwd: scratch });
    try {
      await admin.waitForRequest((entry) => entry.path === '/api/properties' && entry.query.page === '2', 30_000);
      const second = startCli(['sync', 'props', '--to', `duckdb:${file}`], { env, cwd: scratch });
      const refused = await second.result;
      expect(refused.code, refused.stderr).toBe(2);
      expect(exitProblems(refused)).toEqual([]);
      expect(refused.stderr).toMatch(
        new RegExp(`^error: ${file} is in use by another process \\(.*, pid ${first.child.pid}\\): another sync holds it$`, 'm'),
      );
    } finally {
      await admin.release();
      await admin.close();
    }
    const finished = await first.result;
    expect(finished.code, finished.stderr).toBe(0);
  });
});
