// `kill -9` in the middle of an import, then the same command: it resumes from the journal beside the
// results and the service ends with every row exactly once (with --match, and without: there the
// journal's `sent` lines keep a create whose answer died with the process from being sent again).
// The killed run's temp files are removed by the same command. Spawned: only a real process can be killed. The mock answers 20 ms late so the kill lands mid-run.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, startCli } from '../helpers/spawn.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { adminOf, type MockAdmin } from '../helpers/mock-admin.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { parcelCounts, propertyRecord, readCsv, summaryCounts, writePropertiesCsv } from './import-support.js';

let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
let dir: string;

beforeAll(async () => {
  mock = await startMock({ records: 5, latencyMs: 20 });
  admin = adminOf(mock);
  env = { ...isolatedEnv(), ...mock.env };
  dir = tempDir('appraisal-import-crash-');
});
afterAll(() => mock?.stop());

/** Start the import, SIGKILL it once the mock has seen `posts` creates, and wait for it to be gone. */
async function killMidRun(args: string[], posts: number): Promise<void> {
  const running = startCli(args, { env, cwd: dir });
  const { child } = running;
  await waitFor(
    async () => (await admin.requests()).filter((entry) => entry.method === 'POST').length >= posts || child.exitCode !== null,
    `${posts} creates to reach the mock`,
  );
  expect(child.exitCode, `the import ended before it was killed: ${running.stderr()}`).toBeNull();
  child.kill('SIGKILL');
  expect((await running.result).signal).toBe('SIGKILL');
}

describe('import after kill -9', () => {
  it('with --match: the same command finishes the rest, every row exactly once', async () => {
    writePropertiesCsv(dir, 'crash.csv', 'CRASH', 300);
    await admin.clearRequests();
    const args = ['props', 'import', 'crash.csv', '--match', 'parcelNumber', '--concurrency', '4'];
    await killMidRun(args, 60);
    expect(existsSync(join(dir, '.crash.results.csv.journal'))).toBe(true);
    // The killed run's temp files, which no exit hook removed.
    const temps = () => readdirSync(dir).filter((name) => name.startsWith('.crash.') && name.endsWith('.tmp'));
    expect(temps().length).toBeGreaterThan(0);
    const done = (await parcelCounts(admin, 'CRASH')).size;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(300);

    const again = await runCli(args, { env, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/resuming the import journaled beside crash\.results\.csv: \d+ rows already done/);
    const counts = summaryCounts(again.stdout);
    expect(counts.created! + counts.unchanged!).toBe(300);
    const service = await parcelCounts(admin, 'CRASH');
    expect(service.size).toBe(300);
    expect([...service.values()].every((count) => count === 1)).toBe(true);
    const results = readCsv(readFileSync(join(dir, 'crash.results.csv'), 'utf8'));
    expect(results).toHaveLength(300);
    expect(new Set(results.map((row) => row._id)).size).toBe(300);
    expect(existsSync(join(dir, '.crash.results.csv.journal'))).toBe(false);
    // The same command removed them (their process is gone); its own were placed.
    expect(temps()).toEqual([]);
  });

  it('without --match: rows journaled as sent are never sent again; the rest are created once', async () => {
    writeFileSync(
      join(dir, 'blind.ndjson'),
      Array.from({ length: 200 }, (_, index) => JSON.stringify(propertyRecord('BLIND', index + 1))).join('\n'),
    );
    await admin.clearRequests();
    const args = ['props', 'import', 'blind.ndjson', '--concurrency', '4'];
    await killMidRun(args, 40);
    const again = await runCli(args, { env, cwd: dir });
    const counts = summaryCounts(again.stdout);
    // Rows in flight at the kill (sent, no answer journaled) are unconfirmed: exit 22, never resent.
    expect(again.code === 0 || again.code === 22, again.stderr).toBe(true);
    expect(counts.created! + counts.failed!).toBe(200);
    const service = await parcelCounts(admin, 'BLIND');
    expect([...service.values()].every((count) => count === 1)).toBe(true);
    const results = readCsv(readFileSync(join(dir, 'blind.results.csv'), 'utf8'));
    const unconfirmed = results.filter((row) => row._status === 'failed');
    expect(unconfirmed.every((row) => row._error!.startsWith('create unconfirmed'))).toBe(true);
    // Every created row is in the service; only unconfirmed ones may be missing.
    expect(service.size).toBeGreaterThanOrEqual(counts.created!);
    expect(service.size).toBeLessThanOrEqual(200);
  });
});
