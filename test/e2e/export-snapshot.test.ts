// `appraisal export` (issue 16 §2, §3): a snapshot of five families whose manifest matches the files;
// an incremental run after creating and updating records holds exactly those records; a failure
// mid-way leaves no DIR, and --resume finishes it without fetching the finished families again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

const RECORDS = 60;
const FIVE = ['props', 'assignments', 'clients', 'contacts', 'files'];
let mock: MockServer;
let admin: MockAdmin;
let env: Record<string, string | undefined>;
let scratch: string;

const cli = (args: string[]) => run(args, { env: { ...env, APPRAISAL_RETRY_BASE_MS: '1' }, cwd: scratch });
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
const ids = (path: string) => lines(path).map((line) => (JSON.parse(line) as { id: string }).id);

interface Entry {
  family: string;
  file: string;
  records: number;
  total: number;
  bytes: number;
  sha256: string;
  filters: Record<string, string>;
  since: string | null;
  full?: string;
}
interface Manifest {
  kind: string;
  cliVersion: string;
  origin: string;
  profile: string;
  environment: string;
  startedAt: string;
  serviceStartedAt: string;
  finishedAt: string;
  incremental: { sinceLast: string | null; since: string; overlap: string; watermark: string } | null;
  families: Entry[];
}
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;

beforeAll(async () => {
  mock = await startMock({ records: RECORDS, seed: 3, http: true });
  admin = mockAdmin(mock);
  env = { ...isolatedEnv(), ...mock.env };
  scratch = tempDir('export-snapshot-');
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

describe('appraisal export', () => {
  it('writes five families and a manifest that matches the files; an existing DIR is refused', async () => {
    await admin.reset();
    const run = await cli(['export', '--dir', 'full', '--page-size', '25']);
    expect(run.code, run.stderr).toBe(0);
    const dir = join(scratch, 'full');
    expect(readdirSync(dir).sort()).toEqual([...FIVE.map((family) => `${family}.ndjson`), 'manifest.json'].sort());
    const manifest = manifestOf(dir);
    expect(manifest).toMatchObject({
      kind: 'appraisal-export',
      origin: mock.baseUrl,
      profile: 'default',
      environment: 'local',
      incremental: null,
    });
    expect(Date.parse(manifest.finishedAt)).toBeGreaterThanOrEqual(Date.parse(manifest.startedAt));
    expect(manifest.families.map((entry) => entry.family)).toEqual(FIVE);
    for (const entry of manifest.families) {
      const path = join(dir, entry.file);
      expect(entry.records, entry.family).toBe(lines(path).length);
      expect(entry.total, entry.family).toBe(entry.records);
      expect(new Set(ids(path)).size, entry.family).toBe(entry.records);
      expect(entry.bytes, entry.family).toBe(statSync(path).size);
      expect(entry.sha256, entry.family).toBe(sha256(path));
      expect(entry.since).toBeNull();
    }
    expect(manifest.families.find((entry) => entry.family === 'props')!.records).toBe(RECORDS);
    // Contacts are listed per client: every seeded contact, each once.
    expect(manifest.families.find((entry) => entry.family === 'contacts')!.records).toBeGreaterThan(0);
    // Nothing left beside it.
    expect(readdirSync(scratch).filter((name) => name.startsWith('.full'))).toEqual([]);

    const again = await cli(['export', '--dir', 'full']);
    expect(again.code).toBe(2);
    expect(exitProblems(again)).toEqual([]);
    expect(again.stderr).toContain('--dir full already exists');
    expect(again.stderr).toContain('--replace');
  });

  it('--split-rows writes each family in numbered parts listed in the manifest; they concatenate to the whole file', async () => {
    await admin.reset();
    const run = await cli(['export', '--dir', 'split', '--families', 'props,contacts', '--split-rows', '25']);
    expect(run.code, run.stderr).toBe(0);
    const dir = join(scratch, 'split');
    const manifest = manifestOf(dir);
    for (const entry of manifest.families as Array<
      Entry & { parts: Array<{ file: string; records: number; bytes: number; sha256: string }> }
    >) {
      expect(entry.sha256).toBeNull();
      expect(entry.parts.map((part) => part.file)).toEqual(['0001', '0002', '0003'].map((n) => `${entry.family}-${n}.ndjson`));
      expect(entry.parts.map((part) => part.records)).toEqual([25, 25, RECORDS - 50]);
      for (const part of entry.parts) {
        expect(part.sha256).toBe(sha256(join(dir, part.file)));
        expect(part.bytes).toBe(statSync(join(dir, part.file)).size);
        expect(lines(join(dir, part.file))).toHaveLength(part.records);
      }
      expect(entry.bytes).toBe(entry.parts.reduce((sum, part) => sum + part.bytes, 0));
      // The same records as the whole file of the unsplit snapshot (same seeded data).
      const whole = readFileSync(join(scratch, 'full', `${entry.family}.ndjson`), 'utf8');
      expect(entry.parts.map((part) => readFileSync(join(dir, part.file), 'utf8')).join('')).toBe(whole);
    }
  });

  it('a family the service does not publish is refused before anything is written (exit 12)', async () => {
    const description = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    delete description.paths['/api/clients/{id}/contacts']!.get;
    const spec = join(scratch, 'no-contacts.json');
    writeFileSync(spec, JSON.stringify(description));
    const refused = await cli(['export', '--dir', 'unpublished', '--spec', spec]);
    expect(refused.code).toBe(12);
    expect(exitProblems(refused)).toEqual([]);
    expect(refused.stderr).toContain('needs GET /api/clients/{id}/contacts (listClientContacts), which the service does not publish');
    expect(refused.stderr).toContain('leave that family out with --families');
    expect(readdirSync(scratch).filter((name) => name.includes('unpublished'))).toEqual([]);
  });

  it('one run at a time per DIR: a live lock is exit 2, one left by a dead process is taken over', async () => {
    const lock = join(scratch, '.locked.export-lock');
    writeFileSync(lock, `${process.pid}\n`);
    const refused = await cli(['export', '--dir', 'locked', '--families', 'designations']);
    expect(refused.code).toBe(2);
    expect(exitProblems(refused)).toEqual([]);
    expect(refused.stderr).toContain(`another \`appraisal export\` to locked is running (pid ${process.pid})`);
    expect(existsSync(join(scratch, '.locked.export-partial'))).toBe(false);
    // A pid no process has (above the kernel's pid_max).
    writeFileSync(lock, '99999999\n');
    const taken = await cli(['export', '--dir', 'locked', '--families', 'designations']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(existsSync(lock)).toBe(false);
    expect(readdirSync(join(scratch, 'locked')).sort()).toEqual(['designations.ndjson', 'manifest.json']);
  });

  it('an incremental run after creating and updating records holds exactly those records', async () => {
    await admin.reset();
    const base = await cli(['export', '--dir', 'base', '--families', 'props,clients,contacts,designations']);
    expect(base.code, base.stderr).toBe(0);
    const baseDir = join(scratch, 'base');
    const updatedProp = ids(join(baseDir, 'props.ndjson'))[7]!;
    const client = ids(join(baseDir, 'clients.ndjson'))[3]!;
    const changed = await admin.call('PATCH', `/api/properties/${updatedProp}`, { name: 'Renamed for the incremental run' });
    expect(changed.status).toBe(200);
    const created = await admin.call('POST', '/api/properties', {
      name: 'Created for the incremental run',
      propertyType: 'office',
      address: { line1: '1 Main St', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' },
    });
    expect(created.status).toBe(201);
    const contact = await admin.call('POST', `/api/clients/${client}/contacts`, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
    expect(contact.status).toBe(201);
    const createdId = (created.body as { id: string }).id;
    const contactId = (contact.body as { id: string }).id;

    await admin.clearRequests();
    const run = await cli(['export', '--dir', 'changes', '--since-last', 'base', '--families', 'props,clients,contacts,designations']);
    expect(run.code, run.stderr).toBe(0);
    const dir = join(scratch, 'changes');
    expect(ids(join(dir, 'props.ndjson')).sort()).toEqual([updatedProp, createdId].sort());
    expect(ids(join(dir, 'contacts.ndjson'))).toEqual([contactId]);
    expect(ids(join(dir, 'clients.ndjson'))).toEqual([]);
    const manifest = manifestOf(dir);
    const previous = manifestOf(baseDir);
    // The previous start by the service's clock (its Date header), which stamps updatedAt.
    const watermark = new Date(Date.parse(previous.serviceStartedAt) - 5 * 60_000).toISOString();
    expect(manifest.incremental).toEqual({ sinceLast: 'base', since: previous.serviceStartedAt, overlap: '5m', watermark });
    const props = manifest.families.find((entry) => entry.family === 'props')!;
    expect(props).toMatchObject({ records: 2, total: 2, since: watermark, filters: { updatedSince: watermark } });
    // The mock's log shows the filter was sent on every client's contacts list.
    const contactLists = (await admin.apiRequests()).filter((request) => /^\/api\/clients\/[^/]+\/contacts$/.test(request.path));
    expect(contactLists).toHaveLength(previous.families.find((entry) => entry.family === 'clients')!.records);
    expect(contactLists.every((request) => request.query.updatedSince === watermark)).toBe(true);
    // Reference data publishes no updatedSince: exported in full, and the manifest says so.
    const designations = manifest.families.find((entry) => entry.family === 'designations')!;
    expect(designations.since).toBeNull();
    expect(designations.full).toMatch(/listDesignations.*publishes no updatedSince filter: exported in full/);
    expect(designations.records).toBe(previous.families.find((entry) => entry.family === 'designations')!.records);
    expect(run.stderr).toContain(
      'designations: GET /api/reference/designations (listDesignations) publishes no updatedSince filter: exported in full',
    );
    // One record in all: the summary says "1 record", not "1 records".
    const one = await cli(['export', '--dir', 'changes-contacts', '--since-last', 'base', '--families', 'contacts']);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).toContain('Wrote a snapshot of 1 contact (1 record) to changes-contacts\n');
  });

  it('a failure mid-way leaves no DIR; --resume finishes it without fetching finished families again', async () => {
    await admin.reset();
    const args = ['export', '--dir', 'resumed', '--page-size', '10', '--concurrency', '1'];
    // clients fails on its third page (after props and assignments are finished).
    await admin.queueFaults([{ path: '/api/clients', query: { page: '3' }, fault: 'status=503', count: 10 }]);
    const failed = await cli(args);
    await admin.clearFaults();
    expect(failed.code).toBe(8);
    expect(exitProblems(failed)).toEqual([]);
    expect(existsSync(join(scratch, 'resumed'))).toBe(false);
    expect(failed.stderr).toContain('resumed was not created; what was exported is kept in');
    const temp = join(scratch, '.resumed.export-partial');
    expect(readdirSync(temp)).toEqual(
      expect.arrayContaining(['props.ndjson', 'assignments.ndjson', '.clients.ndjson.partial', '.clients.ndjson.checkpoint']),
    );

    // Another export cannot take it over.
    const other = await cli([...args, '--resume', '-o', 'csv']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /--resume: the interrupted export to resumed .* is another export \(format was "ndjson", this run has "csv"\)/,
    );

    await admin.clearRequests();
    const resumed = await cli([...args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('props, assignments finished and are not fetched again');
    // Every run reads the service's clock first (its Date header) with a one-record page of the
    // first family: that is no fetching of the family.
    const requests = await admin.apiRequests();
    expect(requests.filter((request) => request.query.limit === '1').map((request) => request.path)).toEqual(['/api/properties']);
    const paths = requests
      .filter((request) => request.query.limit !== '1')
      .map((request) => `${request.path}?page=${request.query.page ?? ''}`);
    expect(paths.filter((path) => path.startsWith('/api/properties') || path.startsWith('/api/assignments'))).toEqual([]);
    // clients continued after its last checkpointed page (contacts read the client ids later, from page 1).
    expect(paths.find((path) => path.startsWith('/api/clients?'))).not.toBe('/api/clients?page=1');
    expect(existsSync(temp)).toBe(false);

    const reference = await cli(['export', '--dir', 'reference', '--page-size', '10']);
    expect(reference.code, reference.stderr).toBe(0);
    const manifest = manifestOf(join(scratch, 'resumed'));
    const expected = manifestOf(join(scratch, 'reference'));
    expect(manifest.families.map(({ family, records, sha256: digest, bytes }) => ({ family, records, digest, bytes }))).toEqual(
      expected.families.map(({ family, records, sha256: digest, bytes }) => ({ family, records, digest, bytes })),
    );
    for (const entry of manifest.families) expect(sha256(join(scratch, 'resumed', entry.file))).toBe(entry.sha256);
  });

  it('--resume on a snapshot already complete (the nightly line run twice) says so and writes nothing; another export there is still exit 2', async () => {
    await admin.reset();
    const args = ['export', '--dir', 'twice', '--families', 'props,clients', '-o', 'csv', '--fields', 'props=id,name', '--resume'];
    const first = await cli(args);
    expect(first.code, first.stderr).toBe(0);
    const dir = join(scratch, 'twice');
    const before = readdirSync(dir)
      .sort()
      .map((name) => [name, sha256(join(dir, name)), statSync(join(dir, name)).mtimeMs]);
    const siblings = readdirSync(scratch).sort();

    await admin.clearRequests();
    const second = await cli(args);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr.trim().split('\n')).toEqual([
      `twice is already this snapshot, complete (finished ${manifestOf(dir).finishedAt}): nothing to resume, nothing written`,
    ]);
    expect(await admin.apiRequests()).toEqual([]);
    expect(
      readdirSync(dir)
        .sort()
        .map((name) => [name, sha256(join(dir, name)), statSync(join(dir, name)).mtimeMs]),
    ).toEqual(before);
    expect(readdirSync(scratch).sort()).toEqual(siblings);

    // Another export into that directory: what differs is named, and nothing is written.
    const others: Array<[string[], string]> = [
      [['--families', 'props'], 'families was ["props","clients"], this run has ["props"]'],
      // --fields adds up when repeated: props keeps id,name, clients now only id.
      [['--fields', 'clients=id'], 'fields was [["id","name"],null], this run has [["id","name"],["id"]]'],
      [['--delimiter', ';'], 'format was "csv", this run has "csv separated by semicolons"'],
      [['-p', 'staging'], 'profile was "default", this run has "staging"'],
    ];
    for (const [extra, why] of others) {
      const other = await cli([...args, ...extra]);
      expect(other.code, `${extra.join(' ')}: ${other.stderr}`).toBe(2);
      expect(exitProblems(other)).toEqual([]);
      expect(other.stderr).toContain(`error: --dir twice already exists and holds another export (${why})`);
    }
    const ndjson = await cli(['export', '--dir', 'twice', '--families', 'props,clients', '--fields', 'props=id,name', '--resume']);
    expect(ndjson.code).toBe(2);
    expect(ndjson.stderr).toContain('(format was "csv", this run has "ndjson")');
    expect(readdirSync(scratch).sort()).toEqual(siblings);
  });

  it('--since-last naming the previous manifest file rather than its directory says what it takes (exit 2, no errno)', async () => {
    mkdirSync(join(scratch, 'prev'));
    writeFileSync(join(scratch, 'prev', 'manifest.json'), '{}\n');
    const refused = await cli(['export', '--dir', 'inc-from-file', '--since-last', 'prev/manifest.json']);
    expect(refused.code).toBe(2);
    expect(exitProblems(refused)).toEqual([]);
    expect(refused.stderr).toContain(
      "error: --since-last prev/manifest.json is not a directory: it names the previous snapshot's directory, the one holding manifest.json",
    );
    expect(refused.stderr).toContain('hint: give --since-last prev');
    expect(refused.stderr).not.toContain('ENOTDIR');
    expect(existsSync(join(scratch, 'inc-from-file'))).toBe(false);
  });
});
