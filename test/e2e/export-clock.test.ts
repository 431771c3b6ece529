// `export --since-last` and the service's clock (issue 26 §13). The mock runs ten minutes behind the
// machine (`appraisal mock --clock-offset -600`: its Date header and the updatedAt it stamps): with the service ten
// minutes behind, a change made after the previous run is still exported (the watermark is the
// service's time, not this machine's), and the skew beyond --overlap is warned about. A previous
// manifest claiming a start in 2099 is refused with one line (exit 2), as is --since 2099; a FIFO
// planted as the previous manifest is refused without waiting on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
let scratch: string;

const cli = (args: string[]) => run(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '1' }, cwd: scratch });
const ids = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { id: string }).id);

interface Manifest {
  startedAt: string;
  serviceStartedAt?: string;
  incremental: { sinceLast: string | null; since: string; overlap: string; watermark: string } | null;
  [field: string]: unknown;
}
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(scratch, dir, 'manifest.json'), 'utf8')) as Manifest;

/** A previous snapshot directory holding only `manifest` (what --since-last reads). */
function plantManifest(dir: string, manifest: Manifest): void {
  mkdirSync(join(scratch, dir));
  writeFileSync(join(scratch, dir, 'manifest.json'), `${JSON.stringify(manifest)}\n`, { mode: 0o644 });
}

/** A full snapshot `dir` of props from the mock (ten minutes behind), then one property changed: its id and updatedAt. */
async function baseThenChange(dir: string): Promise<{ base: Manifest; id: string; updatedAt: string }> {
  await admin.reset();
  const base = await cli(['export', '--dir', dir, '--families', 'props']);
  expect(base.code, base.stderr).toBe(0);
  const id = ids(join(scratch, dir, 'props.ndjson'))[4]!;
  const changed = await admin.call('PATCH', `/api/properties/${id}`, { name: 'Changed while the service runs behind' });
  expect(changed.status).toBe(200);
  return { base: manifestOf(dir), id, updatedAt: (changed.body as { updatedAt: string }).updatedAt };
}

beforeAll(async () => {
  mock = await startMock({ records: 40, seed: 5, http: true, clockOffsetSeconds: -600 });
  admin = mockAdmin(mock);
  env = { ...isolatedEnv(), ...mock.env };
  scratch = tempDir('export-clock-');
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

describe('export --since-last and the service clock', () => {
  it('a service 10 minutes behind: the change made after the previous run is exported, and the skew is warned about', async () => {
    const { base, id, updatedAt } = await baseThenChange('base');
    // The manifest records the start by the service's clock, about ten minutes before this machine's.
    const skew = Date.parse(base.serviceStartedAt!) - Date.parse(base.startedAt);
    expect(skew).toBeGreaterThan(-605_000);
    expect(skew).toBeLessThan(-595_000);
    // The attack is real: by this machine's clock less the 5m overlap, the change is older than the start.
    expect(Date.parse(updatedAt)).toBeLessThan(Date.parse(base.startedAt) - 5 * 60_000);

    const changes = await cli(['export', '--dir', 'changes', '--since-last', 'base', '--families', 'props']);
    expect(changes.code, changes.stderr).toBe(0);
    expect(ids(join(scratch, 'changes', 'props.ndjson'))).toEqual([id]);
    const manifest = manifestOf('changes');
    expect(manifest.incremental).toEqual({
      sinceLast: 'base',
      since: base.serviceStartedAt,
      overlap: '5m',
      watermark: new Date(Date.parse(base.serviceStartedAt!) - 5 * 60_000).toISOString(),
    });
    const warnings = changes.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      expect.stringMatching(/^warning: the service's clock is 10m(\d+s)? behind this machine's \(more than --overlap 5m\)/),
    ]);
    // A skew within --overlap says nothing.
    const wide = await cli(['export', '--dir', 'wide', '--since-last', 'base', '--overlap', '15m', '--families', 'props']);
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stderr).not.toContain('warning:');
  });

  it('a manifest from before serviceStartedAt: its startedAt is moved by the measured skew, and the change is exported', async () => {
    const { base, id } = await baseThenChange('base-2');
    const legacy: Manifest = { ...base };
    delete legacy.serviceStartedAt;
    plantManifest('legacy', legacy);
    const changes = await cli(['export', '--dir', 'from-legacy', '--since-last', 'legacy', '--families', 'props']);
    expect(changes.code, changes.stderr).toBe(0);
    expect(ids(join(scratch, 'from-legacy', 'props.ndjson'))).toEqual([id]);
    expect(changes.stderr).toContain('--since-last legacy: its manifest has no serviceStartedAt (an older appraisal)');
    const since = Date.parse(manifestOf('from-legacy').incremental!.since);
    expect(since).toBeLessThanOrEqual(Date.parse(base.serviceStartedAt!));
    expect(since).toBeGreaterThan(Date.parse(base.serviceStartedAt!) - 2 * 60_000);
  });

  it('a previous start in 2099 (serviceStartedAt, or startedAt of an older manifest) is refused with one line, exit 2', async () => {
    const { base } = await baseThenChange('base-3');
    plantManifest('future', { ...base, serviceStartedAt: '2099-01-01T00:00:00.000Z' });
    const legacy: Manifest = { ...base, startedAt: '2099-01-01T00:00:00.000Z' };
    delete legacy.serviceStartedAt;
    plantManifest('future-legacy', legacy);
    for (const previous of ['future', 'future-legacy']) {
      const result = await cli(['export', '--dir', `after-${previous}`, '--since-last', previous, '--families', 'props']);
      expect(result.code, result.stderr).toBe(2);
      expect(exitProblems(result)).toEqual([]);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: --since-last ${previous}: its manifest says the previous run started 209[89]-\\d\\d-\\d\\dT\\d\\d:\\d\\d:00\\.000Z, which is later than the service's clock \\(now `,
          'm',
        ),
      );
      expect(result.stderr).toMatch(/^hint: the manifest is damaged or was written by a wrong clock/m);
      expect(existsSync(join(scratch, `after-${previous}`))).toBe(false);
    }
    const since = await cli(['export', '--dir', 'after-since', '--since', '2099-01-01T00:00:00Z', '--families', 'props']);
    expect(since.code, since.stderr).toBe(2);
    expect(exitProblems(since)).toEqual([]);
    expect(since.stderr).toMatch(/^error: --since 2099-01-01T00:00:00\.000Z is later than the service's clock/m);
  });

  it('a FIFO planted as the previous manifest is refused at once (exit 2), never opened', async () => {
    mkdirSync(join(scratch, 'piped'));
    execFileSync('mkfifo', [join(scratch, 'piped', 'manifest.json')]);
    const result = await cli(['export', '--dir', 'after-piped', '--since-last', 'piped', '--families', 'props']);
    expect(result.code, result.stderr).toBe(2);
    expect(exitProblems(result)).toEqual([]);
    expect(result.stderr).toMatch(
      /^error: --since-last piped\/manifest\.json is a FIFO \(named pipe\), not a regular file; refusing to use it$/m,
    );
  });
});
