// The watermark hint of `appraisal sync` (src/commands/sync/watermark-hint.ts), in process against
// the mock with real DuckDB: an incremental run asks for its first page from the watermark this
// machine kept before the database is open, the state row in the database still decides (a database
// put back to an older copy is read from its own watermark, and the page asked from the hint is
// dropped), and a refusal while that page is on its way ends the run at once.
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdDuckDBFile } from '../helpers/duckdb-holder.js';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let admin: MockAdmin;
let scratch: string;

/** The default --overlap: an incremental pass reads from its watermark less two minutes. */
const OVERLAP_MS = 2 * 60_000;

beforeAll(async () => {
  mock = await startMock({ records: 8, http: true });
  admin = mockAdmin(mock);
  scratch = tempDir('appraisal-sync-hint-');
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

async function setServiceClock(offsetSeconds: number): Promise<void> {
  expect((await admin.call('POST', '/__mock/clock', { offsetSeconds })).status).toBe(200);
}

/** updatedSince of each list of properties the mock was asked for, in order. */
async function propertySinces(): Promise<string[]> {
  return (await admin.apiRequests()).flatMap((entry) =>
    entry.path === '/api/properties' && entry.query.updatedSince !== undefined ? [entry.query.updatedSince] : [],
  );
}

async function nameIn(file: string, id: string): Promise<unknown> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(`SELECT name FROM properties WHERE id = '${id}'`)).getRowObjectsJson()[0]?.name;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe("sync's watermark hint", () => {
  it('asks the first page from the watermark kept on this machine; an older copy of the database is read from its own', async () => {
    const home = isolatedEnv();
    const env = { ...mock.env, ...home, APPRAISAL_RETRY_BASE_MS: '1' };
    const file = join(scratch, 'hinted.duckdb');
    let said = '';
    const sync = async () => {
      const result = await run(['sync', 'props', '--to', `duckdb:${file}`, '-o', 'json', '-v'], { env, cwd: scratch });
      expect(result.code, result.stderr).toBe(0);
      said = result.stderr;
      return JSON.parse(result.stdout).families.properties as { mode: string; since: string | null; changed: number };
    };
    const cache = join(home.APPRAISAL_CONFIG_DIR!, 'cache');
    const hinted = () => {
      const names = readdirSync(cache).filter((name) => name.startsWith('sync-'));
      expect(names).toHaveLength(1);
      return JSON.parse(readFileSync(join(cache, names[0]!), 'utf8')) as { watermark: number };
    };
    try {
      expect((await sync()).mode).toBe('full');
      const first = hinted();
      expect(Object.keys(first)).toEqual(['watermark']);
      const older = join(scratch, 'hinted-after-first-run.duckdb');
      copyFileSync(file, older);

      // The service an hour on: one property changes; two hours on, the next run.
      const [id] = await admin.ids('/api/properties');
      await setServiceClock(3600);
      const renamed = `Renamed ${Date.now()}`;
      expect((await admin.call('PATCH', `/api/properties/${id}`, { name: renamed })).status).toBe(200);
      await setServiceClock(7200);
      await admin.clearRequests();
      const second = await sync();
      expect(second).toMatchObject({ mode: 'incremental', changed: 1, since: new Date(first.watermark - OVERLAP_MS).toISOString() });
      // One list: the one asked from the hint, which the state row confirmed.
      expect(await propertySinces()).toEqual([second.since]);
      expect(said).toMatch(/^sync: properties asked from the watermark this machine kept/m);
      expect(said).not.toMatch(/is not the watermark this machine kept/);
      const kept = hinted().watermark;
      expect(kept).toBeGreaterThan(first.watermark + 3600_000);

      // The database put back as it was after the first run: the hint (two hours on) says to read
      // from after the change, the database from before it. The database decides.
      copyFileSync(older, file);
      await admin.clearRequests();
      const third = await sync();
      expect(third).toMatchObject({ mode: 'incremental', changed: 1, since: second.since });
      expect(await propertySinces()).toEqual([new Date(kept - OVERLAP_MS).toISOString(), second.since]);
      expect(said).toMatch(/^sync: the database's state of properties is not the watermark this machine kept: its page is asked again$/m);
      expect(await nameIn(file, id!)).toBe(renamed);
    } finally {
      await setServiceClock(0);
    }
  });

  it('a refusal while the page asked from the hint is on its way ends the run at once', async () => {
    const home = isolatedEnv();
    const env = { ...mock.env, ...home, APPRAISAL_RETRY_BASE_MS: '1' };
    const file = join(scratch, 'held.duckdb');
    const args = ['sync', 'clients', '--to', `duckdb:${file}`];
    expect((await run(args, { env, cwd: scratch })).code).toBe(0);
    const [name] = readdirSync(join(home.APPRAISAL_CONFIG_DIR!, 'cache')).filter((entry) => entry.startsWith('sync-'));
    const { watermark } = JSON.parse(readFileSync(join(home.APPRAISAL_CONFIG_DIR!, 'cache', name!), 'utf8')) as { watermark: number };
    const since = new Date(watermark - OVERLAP_MS).toISOString();
    // The page asked from the hint is held by the service until released; the file is held by
    // another program. A run that waited for the page would outlast this test (its requests may
    // take an hour here).
    await admin.queueFault({ path: '/api/clients', query: { updatedSince: since }, fault: 'hold' });
    const holder = await holdDuckDBFile(file);
    try {
      const refused = await run([...args, '--timeout', '3600'], { env, cwd: scratch });
      expect(refused.code, refused.stderr).toBe(2);
      expect(exitProblems(refused)).toEqual([]);
      expect(refused.stderr).toMatch(/^error: .*held\.duckdb is in use by another program/m);
      expect((await admin.apiRequests()).some((entry) => entry.path === '/api/clients' && entry.query.updatedSince === since)).toBe(true);
    } finally {
      holder.kill('SIGKILL');
      await admin.release();
      await admin.clearFaults();
    }
  });

  it("a run that fails after a family finished keeps that family's watermark", async () => {
    const home = isolatedEnv();
    const env = { ...mock.env, ...home, APPRAISAL_RETRY_BASE_MS: '1' };
    const file = join(scratch, 'partly.duckdb');
    const cache = join(home.APPRAISAL_CONFIG_DIR!, 'cache');
    const hintFiles = () => readdirSync(cache).filter((name) => name.startsWith('sync-'));
    // Properties are synced first, then clients, whose list breaks the published schema (exit 9).
    await admin.queueFault({ path: '/api/clients', fault: 'schema-violation' });
    try {
      const failed = await run(['sync', 'props', 'clients', '--to', `duckdb:${file}`], { env, cwd: scratch });
      expect(failed.code, failed.stderr).toBe(9);
      expect(failed.stderr).toMatch(/^properties: \d+ new/m);
    } finally {
      await admin.clearFaults();
    }
    expect(hintFiles()).toHaveLength(1);
    await admin.clearRequests();
    const again = await run(['sync', 'props', '--to', `duckdb:${file}`, '-v'], { env, cwd: scratch });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^sync: properties asked from the watermark this machine kept/m);
    expect(await propertySinces()).toHaveLength(1);
  });
});
