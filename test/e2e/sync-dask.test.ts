// Many organizations, many machines (issue 35): four `appraisal sync` runs, one per organization (four
// mocks, four seeds), as tasks of a real Dask cluster (Debian's python3-distributed under
// /usr/bin/python3; test/fixtures/dask-sync.py) into one PostgreSQL, each into its own schema; one
// worker is killed with SIGKILL while its sync is mid-run and the scheduler runs the task again. The
// four schemas must end equal to four sequential runs of the same syncs.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { cleanEnv, isolatedEnv, ROOT } from '../helpers/env.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { postgresBin, startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { run } from '../helpers/run.js';
import { BIN } from '../helpers/spawn.js';
import { tempDir } from '../helpers/temp.js';

const ORGS = ['org1', 'org2', 'org3', 'org4'];
const FAMILIES = ['props', 'assignments'];
const TABLES = ['properties', 'assignments', 'assignments__property_ids'];
/** Small batches (many commits) so the killed worker's sync is caught between two of them. */
const BATCH = '25';

let mocks: MockServer[];
let db: PostgresCluster;
let scratch: string;

beforeAll(async () => {
  [db, ...mocks] = await Promise.all([
    startPostgres(),
    ...ORGS.map((_, index) => startMock({ records: 100, seed: index + 1, http: true })),
  ]);
  scratch = tempDir('appraisal-sync-dask-');
}, 90_000);
afterAll(async () => {
  await Promise.all((mocks ?? []).map((mock) => mock.stop()));
  await db?.stop();
});

const orgEnv = (index: number) => ({
  ...mocks[index]!.env,
  ...isolatedEnv(),
  APPRAISAL_SYNC_BATCH_ROWS: BATCH,
  APPRAISAL_RETRY_BASE_MS: '1',
});

function digest(schema: string, table: string): string {
  return db.psql(
    `SELECT count(*) || ':' || coalesce(md5(string_agg(r, ',' ORDER BY r)), '') FROM (SELECT (to_jsonb(t) - '_synced_at' - '_deleted_at')::text || (to_jsonb(t)->>'_deleted_at' IS NULL)::text AS r FROM "${schema}"."${table}" t) x`,
  );
}

function python(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', args, {
      cwd: scratch,
      env: cleanEnv({ PYTHONDONTWRITEBYTECODE: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('four organizations synced as Dask tasks into one PostgreSQL', () => {
  it('with a worker killed mid-run, the four schemas equal four sequential runs', async () => {
    const command = [process.execPath, BIN, 'sync', ...FAMILIES, '--to', db.url(), '--page-size', '25', '--quiet'];
    const plan = {
      scratch,
      command,
      orgs: Object.fromEntries(ORGS.map((org, index) => [org, { env: cleanEnv(orgEnv(index)) }])),
      psql: [join(postgresBin(), 'psql'), '-X', '-At', '-h', '127.0.0.1', '-p', String(db.port), '-U', db.user, '-d', 'postgres'],
      psqlEnv: cleanEnv({ PGPASSWORD: db.password }),
    };
    const dask = await python([join(ROOT, 'test', 'fixtures', 'dask-sync.py'), JSON.stringify(plan)]);
    expect(dask.code, dask.stderr.slice(-3000)).toBe(0);
    const outcome = JSON.parse(dask.stdout.trim().split('\n').at(-1)!) as { killed: string | null; results: string[] };
    expect(outcome.results).toEqual(ORGS);
    expect(outcome.killed, 'a worker was killed while its sync had committed rows').not.toBeNull();
    const attempts = readFileSync(join(scratch, `attempts-${outcome.killed}`), 'utf8')
      .split('\n')
      .filter(Boolean);
    expect(attempts.length, 'the killed task ran again').toBeGreaterThanOrEqual(2);

    for (const [index, org] of ORGS.entries()) {
      const sequential = await run(['sync', ...FAMILIES, '--to', db.url(), '--schema', `seq_${org}`, '--page-size', '25', '--quiet'], {
        env: orgEnv(index),
        cwd: scratch,
      });
      expect(sequential.code, sequential.stderr).toBe(0);
    }
    for (const org of ORGS) {
      for (const table of TABLES) {
        const expected = digest(`seq_${org}`, table);
        expect(Number(expected.split(':')[0])).toBeGreaterThan(0);
        expect(digest(org, table), `${org}.${table}`).toBe(expected);
      }
    }
    // Four organizations, four different data sets: the schemas are not copies of one another.
    expect(new Set(ORGS.map((org) => digest(org, 'properties'))).size).toBe(4);
  }, 240_000); // four sequential runs, a Dask cluster and four tasks: ~25 s quiet, several times that in the loaded suite
});
