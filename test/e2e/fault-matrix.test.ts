// The fault matrix (issue 8): `props list`, `files upload`, `files download` and `keys rotate`
// against `appraisal mock` fault injection. Every case ends in exactly one of
//   (a) exit 0 with exactly the service's records (id sets compared), bytes (sha256), or a
//       rotated key (stored, working, the old one revoked), or
//   (b) the documented exit code, a one-line `error:` (+ `hint:`) that names the failure, no stack
//       trace, and nothing at --out: no file, no temp file. A rotation that fails leaves the
//       profile a working key, and names any key it may have left working.
// A new fault is one line in MATRIX. Each `props list` row runs twice, once to --out and once to
// stdout, in formats that rotate so every four rows cover all eight format × destination variants;
// file rows alternate between --out and stdout. FAULT_MATRIX_FULL=1 runs every row in every variant
// (about three times as long).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, type ExpectStatic, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run, type RunResult } from '../helpers/run.js';
import { Pool } from '../helpers/pool.js';
import { entriesBesidePartial, entriesOf, tempDir } from '../helpers/temp.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { mockAdmin, waitFor, type FaultRule, type MockAdmin, type MockKey } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { readList, type Format } from '../helpers/output-formats.js';

// 300 properties: --page-size 30 gives 10 pages (faults land on page 3, mid-export), --page-size 3
// gives 100 pages (page 40 of 100).
const RECORDS = 300;
const MID_PAGE = 3;
const LANES = 3;
const FULL = process.env.FAULT_MATRIX_FULL === '1';

type Target = 'props list' | 'files upload' | 'files download' | 'keys rotate';

interface Fault {
  /** The fault as the mock's README writes it: `status=503`, `reset`, `hang`, … */
  fault: string;
  /** How many matching requests get it (default 1). */
  count?: number;
  /** props list: the page that gets it (default MID_PAGE). */
  page?: number;
  /**
   * files download: the byte content (default) or the file's metadata record. keys rotate: which
   * request — `read` (the old key reads its record, step 1), `create` (POST /api/keys, step 2),
   * `verify` (the new key reads its record, step 3) or `revoke` (DELETE of the old key, step 6).
   */
  on?: 'content' | 'metadata' | 'read' | 'create' | 'verify' | 'revoke';
}

type Expected = { exit: 0 } | { exit: number; says: RegExp };

/** Something done to the service while the command runs, once it has reached page 40 of 100. */
type During = 'revoke the key' | 'delete a record before the read position';

interface Row {
  target: Target;
  scenario: string;
  faults?: Fault[];
  /** Extra arguments (e.g. a smaller retry budget). */
  args?: string[];
  /** --page-size for props list (default 30: 10 pages). */
  pageSize?: number;
  during?: During;
  expect: Expected;
  /**
   * A defect found by this row and reported to the owner of the code: the row runs as `it.fails`
   * until it is fixed (then the test fails: delete this field).
   */
  knownDefect?: string;
}

const OK: Expected = { exit: 0 };
const fails = (exit: number, says: RegExp): Expected => ({ exit, says });
const one = (fault: string, extra: Omit<Fault, 'fault'> = {}): Fault[] => [{ fault, ...extra }];
// Retries are `--retries 3` (4 attempts) unless a row says otherwise.
const PAGE_40 = { page: 40 };

export const MATRIX: Row[] = [
  // ---- props list: auto-paging export, a fault on page 3 of 10 unless stated ----
  { target: 'props list', scenario: '429 with Retry-After in seconds', faults: one('status=429;retry-after=1'), expect: OK },
  { target: 'props list', scenario: '429 with Retry-After as an HTTP-date', faults: one('status=429;retry-after=date'), expect: OK },
  {
    target: 'props list',
    scenario: '503 burst shorter than the retry budget (3 of 4 attempts)',
    faults: one('status=503', { count: 3 }),
    expect: OK,
  },
  {
    target: 'props list',
    scenario: '503 burst longer than the retry budget (4 of 4 attempts)',
    faults: one('status=503', { count: 4 }),
    expect: fails(8, /503 Service Unavailable[\s\S]*gave up after 4 attempts/),
  },
  { target: 'props list', scenario: 'connection reset before headers', faults: one('reset'), expect: OK },
  { target: 'props list', scenario: 'connection reset mid-body', faults: one('reset-mid-body'), expect: OK },
  { target: 'props list', scenario: 'hung response (--timeout 2), then retried', faults: one('hang'), expect: OK },
  {
    target: 'props list',
    scenario: 'hung response on every attempt',
    faults: one('hang', { count: 2 }),
    args: ['--retries', '1'],
    expect: fails(3, /timed out after 2s/),
  },
  { target: 'props list', scenario: 'garbage body', faults: one('garbage'), expect: fails(9, /page=3.*not JSON/) },
  { target: 'props list', scenario: 'truncated body (content-length promises more)', faults: one('truncate'), expect: OK },
  {
    target: 'props list',
    scenario: 'malformed envelope (no pagination)',
    faults: one('malformed-envelope'),
    expect: fails(9, /page 3 of \/api\/properties: the answer is not a collection envelope/),
  },
  {
    target: 'props list',
    scenario: 'malformed envelope (items not an array)',
    faults: one('malformed-envelope=items'),
    expect: fails(9, /not a collection envelope \{items, pagination\} \(items:/),
  },
  {
    target: 'props list',
    scenario: 'a record without an id',
    faults: one('missing-id'),
    expect: fails(9, /page 3 of \/api\/properties: item \d+ is not a record with a string id/),
  },
  {
    target: 'props list',
    scenario: '`total` changes mid-export',
    faults: one('total-change'),
    expect: fails(9, /changed while it was read \(total 300 at first, 301 on page 3, 300 at the end\)/),
  },
  {
    target: 'props list',
    scenario: '`total` changes mid-export, with --allow-partial',
    faults: one('total-change'),
    args: ['--allow-partial'],
    expect: OK,
  },
  {
    target: 'props list',
    scenario: 'duplicate records across pages',
    faults: one('duplicate'),
    expect: fails(9, /incomplete read: got 299 of 300 records .*1 duplicate/),
  },
  {
    target: 'props list',
    scenario: 'a page answers with the wrong page number',
    faults: one('wrong-page'),
    expect: fails(9, /asked for page 3, the service answered page 4/),
  },
  {
    target: 'props list',
    scenario: '401 on page 40 of 100 (key revoked mid-export)',
    pageSize: 3,
    faults: one('status=401', PAGE_40),
    expect: fails(4, /page=40.*401 Unauthorized/),
  },
  {
    target: 'props list',
    scenario: '403 on page 40 of 100',
    pageSize: 3,
    faults: one('status=403', PAGE_40),
    expect: fails(5, /page=40.*403 Forbidden/),
  },
  {
    target: 'props list',
    scenario: 'the key really revoked while page 40 of 100 is read',
    pageSize: 3,
    during: 'revoke the key',
    expect: fails(4, /page=40.*401 Unauthorized.*revoked/),
  },
  {
    target: 'props list',
    scenario: 'a record deleted before the read position at page 40 of 100',
    pageSize: 3,
    during: 'delete a record before the read position',
    expect: fails(9, /changed while it was read \(total 300 at first, 299 on page \d+\)/),
  },

  // ---- files upload: a POST, never retried (it may have taken effect) ----
  {
    target: 'files upload',
    scenario: '429 with Retry-After in seconds',
    faults: one('status=429;retry-after=1'),
    expect: fails(
      8,
      /429 Too Many Requests[\s\S]*hint: the service is rate-limiting this key \(POST is not retried automatically\): run it again in 1 s/,
    ),
  },
  {
    target: 'files upload',
    scenario: '429 with Retry-After as an HTTP-date',
    faults: one('status=429;retry-after=date'),
    expect: fails(8, /429 Too Many Requests[\s\S]*hint: the service is rate-limiting this key .*run it again in [1-3] s \(Retry-After\)/),
  },
  {
    target: 'files upload',
    scenario: '503 burst shorter than the retry budget',
    faults: one('status=503'),
    expect: fails(8, /503 Service Unavailable[\s\S]*POST is not retried/),
  },
  {
    target: 'files upload',
    scenario: '503 burst longer than the retry budget',
    faults: one('status=503', { count: 4 }),
    expect: fails(8, /503 Service Unavailable/),
  },
  {
    target: 'files upload',
    scenario: 'connection reset before headers',
    faults: one('reset'),
    expect: fails(3, /closed unexpectedly[\s\S]*check whether it took effect/),
  },
  {
    target: 'files upload',
    scenario: 'connection reset mid-body',
    faults: one('reset-mid-body'),
    expect: fails(3, /closed before the whole response arrived[\s\S]*check whether it took effect/),
  },
  { target: 'files upload', scenario: 'hung response (--timeout 2)', faults: one('hang'), expect: fails(3, /timed out after 2s/) },
  { target: 'files upload', scenario: 'garbage body', faults: one('garbage'), expect: fails(9, /not JSON/) },
  {
    target: 'files upload',
    scenario: 'truncated body',
    faults: one('truncate'),
    expect: fails(3, /closed before the whole response arrived/),
  },
  {
    target: 'files upload',
    scenario: 'malformed envelope ({success} without data)',
    faults: one('malformed-envelope'),
    expect: fails(9, /not a record with a string id/),
  },
  {
    target: 'files upload',
    scenario: 'a record without an id',
    faults: one('missing-id'),
    expect: fails(9, /not a record with a string id/),
  },
  { target: 'files upload', scenario: '`total` changes (no collection: no effect)', faults: one('total-change'), expect: OK },
  { target: 'files upload', scenario: 'duplicate records (no collection: no effect)', faults: one('duplicate'), expect: OK },
  { target: 'files upload', scenario: 'wrong page number (no collection: no effect)', faults: one('wrong-page'), expect: OK },
  { target: 'files upload', scenario: '401 (key revoked)', faults: one('status=401'), expect: fails(4, /401 Unauthorized/) },
  { target: 'files upload', scenario: '403', faults: one('status=403'), expect: fails(5, /403 Forbidden[\s\S]*files:write/) },

  // ---- files download: metadata GET, then the bytes (retried until the body starts) ----
  { target: 'files download', scenario: '429 with Retry-After in seconds', faults: one('status=429;retry-after=1'), expect: OK },
  { target: 'files download', scenario: '429 with Retry-After as an HTTP-date', faults: one('status=429;retry-after=date'), expect: OK },
  { target: 'files download', scenario: '503 burst shorter than the retry budget', faults: one('status=503', { count: 3 }), expect: OK },
  {
    target: 'files download',
    scenario: '503 burst longer than the retry budget',
    faults: one('status=503', { count: 4 }),
    expect: fails(8, /503 Service Unavailable/),
  },
  { target: 'files download', scenario: 'connection reset before headers', faults: one('reset'), expect: OK },
  {
    target: 'files download',
    scenario: 'connection reset mid-body',
    faults: one('reset-mid-body'),
    expect: fails(3, /closed before the whole response arrived \(got \d+ of \d+ bytes\)/),
  },
  { target: 'files download', scenario: 'hung response (--timeout 2), then retried', faults: one('hang'), expect: OK },
  {
    target: 'files download',
    scenario: 'hung response on every attempt',
    faults: one('hang', { count: 2 }),
    args: ['--retries', '1'],
    expect: fails(3, /timed out after 2s/),
  },
  {
    target: 'files download',
    scenario: 'garbage body',
    faults: one('garbage'),
    expect: fails(9, /sends \d+ bytes for file .*, but its record says \d+/),
  },
  {
    target: 'files download',
    scenario: 'truncated body',
    faults: one('truncate'),
    expect: fails(3, /closed before the whole response arrived/),
  },
  {
    target: 'files download',
    scenario: 'malformed envelope of the metadata (record in an array)',
    faults: one('malformed-envelope', { on: 'metadata' }),
    expect: fails(9, /expected a JSON object, the service answered an array/),
  },
  { target: 'files download', scenario: 'metadata record without an id', faults: one('missing-id', { on: 'metadata' }), expect: OK },
  { target: 'files download', scenario: 'garbage metadata', faults: one('garbage', { on: 'metadata' }), expect: fails(9, /not JSON/) },
  { target: 'files download', scenario: '`total` changes (no collection: no effect)', faults: one('total-change'), expect: OK },
  { target: 'files download', scenario: 'duplicate records (no collection: no effect)', faults: one('duplicate'), expect: OK },
  { target: 'files download', scenario: 'wrong page number (no collection: no effect)', faults: one('wrong-page'), expect: OK },
  { target: 'files download', scenario: '401 (key revoked)', faults: one('status=401'), expect: fails(4, /401 Unauthorized/) },
  { target: 'files download', scenario: '403', faults: one('status=403'), expect: fails(5, /403 Forbidden/) },

  // ---- keys rotate: six steps, each rolled back on failure; the profile never loses a working key ----
  {
    target: 'keys rotate',
    scenario: '429 with Retry-After in seconds (reading the old key)',
    faults: one('status=429;retry-after=1', { on: 'read' }),
    expect: OK,
  },
  {
    target: 'keys rotate',
    scenario: '429 with Retry-After as an HTTP-date (verifying the new key)',
    faults: one('status=429;retry-after=date', { on: 'verify' }),
    expect: OK,
  },
  {
    target: 'keys rotate',
    scenario: '429 on the create (a POST, never retried)',
    faults: one('status=429;retry-after=1', { on: 'create' }),
    expect: fails(8, /step 2\/6 .*429 Too Many Requests.*Nothing was changed/),
  },
  {
    target: 'keys rotate',
    scenario: '503 burst shorter than the retry budget',
    faults: one('status=503', { on: 'read', count: 3 }),
    expect: OK,
  },
  {
    target: 'keys rotate',
    scenario: '503 burst longer than the retry budget',
    faults: one('status=503', { on: 'read', count: 4 }),
    expect: fails(8, /step 1\/6 .*503 Service Unavailable.*Nothing was changed/),
  },
  {
    target: 'keys rotate',
    scenario: 'connection reset before headers (the create)',
    faults: one('reset', { on: 'create' }),
    expect: fails(3, /step 2\/6 .*may have created the key/),
  },
  {
    target: 'keys rotate',
    scenario: 'connection reset mid-body (the create: the key exists, its answer is lost)',
    faults: one('reset-mid-body', { on: 'create' }),
    expect: fails(3, /may have created the key "[^"]+ \(rotated/),
  },
  {
    target: 'keys rotate',
    scenario: 'connection reset mid-body (verifying), then retried',
    faults: one('reset-mid-body', { on: 'verify' }),
    expect: OK,
  },
  { target: 'keys rotate', scenario: 'hung response (--timeout 2), then retried', faults: one('hang', { on: 'read' }), expect: OK },
  {
    target: 'keys rotate',
    scenario: 'hung response on every attempt to revoke the old key',
    faults: one('hang', { on: 'revoke', count: 2 }),
    args: ['--retries', '1'],
    expect: fails(3, /step 6\/6 .*timed out.*now uses the new key .*old key apk_\w+ was NOT revoked and still works/),
  },
  {
    target: 'keys rotate',
    scenario: 'garbage body (the create)',
    faults: one('garbage', { on: 'create' }),
    expect: fails(9, /step 2\/6 .*not JSON.*may have created the key/),
  },
  { target: 'keys rotate', scenario: 'truncated body (verifying), then retried', faults: one('truncate', { on: 'verify' }), expect: OK },
  {
    target: 'keys rotate',
    scenario: 'malformed envelope (the created key in an array)',
    faults: one('malformed-envelope', { on: 'create' }),
    expect: fails(9, /step 2\/6 .*expected a JSON object.*may have created the key/),
  },
  {
    target: 'keys rotate',
    scenario: 'the created key without an id (looked up with its secret)',
    faults: one('missing-id', { on: 'create' }),
    expect: OK,
  },
  {
    target: 'keys rotate',
    scenario: '`total` changes (no collection: no effect)',
    faults: one('total-change', { on: 'read' }),
    expect: OK,
  },
  { target: 'keys rotate', scenario: 'duplicate records (no collection: no effect)', faults: one('duplicate', { on: 'read' }), expect: OK },
  {
    target: 'keys rotate',
    scenario: 'wrong page number (no collection: no effect)',
    faults: one('wrong-page', { on: 'read' }),
    expect: OK,
  },
  {
    target: 'keys rotate',
    scenario: '401 on the create (key revoked mid-rotation)',
    faults: one('status=401', { on: 'create' }),
    expect: fails(4, /step 2\/6 .*401 Unauthorized.*Nothing was changed/),
  },
  {
    target: 'keys rotate',
    scenario: '401 revoking the old key',
    faults: one('status=401', { on: 'revoke' }),
    expect: fails(4, /step 6\/6 .*old key apk_\w+ was NOT revoked and still works/),
  },
  {
    target: 'keys rotate',
    scenario: '403 on the create',
    faults: one('status=403', { on: 'create' }),
    expect: fails(5, /step 2\/6 .*403 Forbidden[\s\S]*hint: rotating needs a key with scope keys:admin/),
  },
  {
    target: 'keys rotate',
    scenario: '403 verifying the new key',
    faults: one('status=403', { on: 'verify' }),
    expect: fails(5, /step 3\/6 .*Rolled back: the new key apk_\w+ was revoked/),
  },
];

// ------------------------------------------------------------------------------------------------

interface Lane {
  mock: MockServer;
  admin: MockAdmin;
  env: Record<string, string | undefined>;
  /** Every property id the service holds (seeded, so a reset restores the same set). */
  truth: string[];
  /** A file on the service to download, and its bytes. */
  file: { id: string; sha256: string; size: number };
  /** The local file uploads send. */
  upload: { path: string; sha256: string };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
let pool: Pool<Lane>;
const lanes: Lane[] = [];
const work = tempDir('appraisal-fault-matrix-');

async function uploadFixture(lane: Omit<Lane, 'file'>): Promise<Lane['file']> {
  const result = await run(['files', 'upload', lane.upload.path, '-o', 'json'], { env: lane.env });
  if (result.code !== 0) throw new Error(`fixture upload failed: ${result.stderr}`);
  const record = JSON.parse(result.stdout) as { id: string; sha256: string; size: number };
  return { id: record.id, sha256: record.sha256, size: record.size };
}

async function startLane(index: number): Promise<Lane> {
  const mock = await startMock({ records: RECORDS, seed: 8 });
  const admin = mockAdmin(mock);
  const env = { ...isolatedEnv(mock.env), APPRAISAL_RETRY_BASE_MS: '20' };
  const data = randomBytes(256 * 1024);
  const path = join(work, `upload-${index}.bin`);
  writeFileSync(path, data);
  const partial = { mock, admin, env, truth: await admin.ids('/api/properties'), upload: { path, sha256: sha256(data) } };
  return { ...partial, file: await uploadFixture(partial) };
}

beforeAll(async () => {
  lanes.push(...(await Promise.all(Array.from({ length: LANES }, (_, i) => startLane(i)))));
  pool = new Pool(lanes);
}, 120_000);

afterAll(async () => {
  await Promise.all(
    lanes.map(async (lane) => {
      await lane.admin.close();
      await lane.mock.stop();
    }),
  );
});

// ---- running one case ---------------------------------------------------------------------------

interface Variant {
  /** props list: the output format. */
  format: Format;
  /** Write to --out (else stdout). */
  toFile: boolean;
}

// Ordered so that each consecutive pair has one --out and one stdout run, and four consecutive
// pairs hold all eight format × destination variants.
const PROPS_VARIANTS: Variant[] = [
  { format: 'json', toFile: true },
  { format: 'ndjson', toFile: false },
  { format: 'csv', toFile: true },
  { format: 'table', toFile: false },
  { format: 'json', toFile: false },
  { format: 'ndjson', toFile: true },
  { format: 'csv', toFile: false },
  { format: 'table', toFile: true },
];

/**
 * props list: two variants per row (one to --out, one to stdout), rotating so that every four rows
 * cover all eight; files: --out and stdout alternating per row. FAULT_MATRIX_FULL=1: everything.
 */
function variantsFor(row: Row, rowIndex: number): Variant[] {
  if (row.target === 'props list') {
    if (FULL) return PROPS_VARIANTS;
    const pair = (rowIndex % 4) * 2;
    return PROPS_VARIANTS.slice(pair, pair + 2);
  }
  const both = [
    { format: 'json' as const, toFile: true },
    { format: 'json' as const, toFile: false },
  ];
  return FULL ? both : [both[rowIndex % 2]!];
}

function faultRules(row: Row, lane: Lane): FaultRule[] {
  return (row.faults ?? []).map((f): FaultRule => {
    const base = { fault: f.fault, count: f.count ?? 1 };
    switch (row.target) {
      case 'props list':
        return { ...base, path: '/api/properties', method: 'GET', query: { page: String(f.page ?? MID_PAGE) } };
      case 'files upload':
        return { ...base, path: '/api/files', method: 'POST' };
      case 'files download':
        return { ...base, method: 'GET', path: f.on === 'metadata' ? `/api/files/${lane.file.id}` : `/api/files/${lane.file.id}/content` };
      case 'keys rotate':
        switch (f.on) {
          case 'create':
            return { ...base, path: '/api/keys', method: 'POST' };
          case 'verify':
            // The second read of /api/keys/current: the new key's, after the old key's.
            return { ...base, path: '/api/keys/current', method: 'GET', skip: 1 };
          case 'revoke':
            return { ...base, path: '/api/keys/*', method: 'DELETE' };
          default:
            return { ...base, path: '/api/keys/current', method: 'GET' };
        }
    }
  });
}

function argsFor(row: Row, variant: Variant, lane: Lane, out: string | undefined): string[] {
  const common = ['--retries', '3', '--timeout', '2', ...(out ? ['--out', out] : []), ...(row.args ?? [])];
  switch (row.target) {
    case 'props list': {
      const sequential = row.during ? ['--concurrency', '1'] : [];
      return ['props', 'list', '-o', variant.format, '--page-size', String(row.pageSize ?? 30), ...sequential, ...common];
    }
    case 'files upload':
      return ['files', 'upload', lane.upload.path, '-o', 'json', ...common];
    case 'files download':
      return ['files', 'download', lane.file.id, ...common];
    case 'keys rotate':
      return ['keys', 'rotate', '--yes', '-o', 'json', ...common];
  }
}

/** Run the command; for a `during` row, act on the service once the command is reading page 40. */
async function runCase(row: Row, lane: Lane, args: string[], env: Record<string, string | undefined>, key?: MockKey): Promise<RunResult> {
  const running = run(args, { env });
  if (row.during) {
    const reachedPage40 = async () =>
      (await lane.admin.requests(200)).some((r) => r.path === '/api/properties' && r.query.page === '40' && r.status === null);
    await waitFor(reachedPage40, 'the export to reach page 40');
    if (row.during === 'revoke the key') await lane.admin.revokeKey(key!.id);
    else {
      const deleted = await lane.admin.call('DELETE', `/api/properties/${lane.truth[0]}`);
      if (deleted.status !== 204) throw new Error(`could not delete a property: ${deleted.status}`);
    }
    // Page 40 was held until the change was made: it is answered after it, never before.
    if ((await lane.admin.release()) !== 1) throw new Error('page 40 was not held');
  }
  return running;
}

function idsIn(format: Format, text: string): string[] {
  return readList(format, text)
    .records.map((record) => String(record.id))
    .filter((id) => id !== 'id');
}

/** A profile of its own for one rotation: a fresh admin key, stored with --insecure-storage. */
interface RotationProfile {
  env: Record<string, string | undefined>;
  oldKey: MockKey;
  /** The profile's stored key, as the next command would read it. */
  stored(): string;
}

async function rotationProfile(lane: Lane): Promise<RotationProfile> {
  const oldKey = await lane.admin.createKey(['api:admin'], `matrix ${randomBytes(4).toString('hex')}`);
  const home = tempDir('appraisal-matrix-home-');
  const configDir = join(home, 'config');
  const env = { ...lane.env, HOME: home, APPRAISAL_CONFIG_DIR: configDir, APPRAISAL_API_KEY: undefined };
  const login = await run(['auth', 'login', '--with-key', '--insecure-storage'], { env, stdin: `${oldKey.secret}\n` });
  if (login.code !== 0) throw new Error(`auth login failed: ${login.stderr}`);
  return {
    env,
    oldKey,
    stored: () => (JSON.parse(readFileSync(join(configDir, 'credentials', 'default.key'), 'utf8')) as { key: string }).key,
  };
}

/** After a rotation, whatever happened: the profile's key works, and no key is left working unsaid. */
async function checkRotation(lane: Lane, profile: RotationProfile, result: RunResult, expect: ExpectStatic): Promise<void> {
  const stored = profile.stored();
  const works = async (secret: string) => (await lane.admin.call('GET', '/api/keys/current', undefined, secret)).status === 200;
  expect(await works(stored), 'the profile keeps a working key').toBe(true);
  const keys = (await lane.admin.call('GET', '/api/keys?limit=100')).body as {
    items: Array<{ name: string; prefix: string; revokedAt: string | null }>;
  };
  const strays = keys.items.filter(
    (key) => key.name.startsWith(`${profile.oldKey.name} (rotated`) && key.revokedAt === null && !stored.startsWith(`${key.prefix}_`),
  );
  if (result.code === 0) {
    expect(stored, 'the profile holds the new key').not.toBe(profile.oldKey.secret);
    expect(await works(profile.oldKey.secret), 'the old key is revoked').toBe(false);
    expect(strays).toEqual([]);
  } else if (strays.length > 0) {
    // A replacement left working (its answer was lost): the message must say so.
    expect(result.stderr).toMatch(/may have created the key|still works/);
  }
}

async function check(row: Row, variant: Variant, lane: Lane, expect: ExpectStatic): Promise<void> {
  const dir = join(work, `case-${randomBytes(5).toString('hex')}`);
  mkdirSync(dir);
  const extension = row.target === 'files download' ? 'bin' : variant.format === 'table' ? 'txt' : variant.format;
  const out = variant.toFile ? join(dir, `out.${extension}`) : undefined;
  let env = lane.env;
  let key: MockKey | undefined;
  let profile: RotationProfile | undefined;
  await lane.admin.clearFaults();
  if (row.during) {
    key = await lane.admin.createKey(['api:read'], 'fault matrix');
    env = { ...lane.env, APPRAISAL_API_KEY: key.secret };
    await lane.admin.clearRequests();
    await lane.admin.queueFaults([{ path: '/api/properties', method: 'GET', query: { page: '40' }, fault: 'hold', count: 1 }]);
  }
  if (row.target === 'keys rotate') {
    profile = await rotationProfile(lane);
    env = profile.env;
  }
  const args = argsFor(row, variant, lane, out);
  await lane.admin.queueFaults(faultRules(row, lane));
  let result: RunResult;
  try {
    result = await runCase(row, lane, args, env, key);
  } finally {
    await lane.admin.clearFaults();
    if (row.during === 'delete a record before the read position') {
      await lane.admin.reset();
      lane.file = await uploadFixture(lane);
    }
  }
  const context = `${args.join(' ')}\nexit ${result.code}\nstderr:\n${result.stderr}`;
  expect(exitProblems(result), context).toEqual([]);
  expect(result.code, context).toBe(row.expect.exit);
  if (profile) await checkRotation(lane, profile, result, expect);
  if ('says' in row.expect) {
    // (b): the documented code, a message that names the failure, and nothing at --out.
    expect(result.stderr, context).toMatch(row.expect.says);
    // A failed `props list --out` keeps its complete pages beside the file for --resume.
    expect(entriesBesidePartial(dir), 'no output file and no temp file after a failure').toEqual([]);
    return;
  }
  // (a): exactly the service's records (or bytes), and nothing but the output in the directory.
  expect(result.stderr, context).not.toMatch(/^error:/m);
  const written = out ? readFileSync(out) : result.stdoutBytes;
  if (out) expect(entriesOf(dir)).toEqual([`out.${extension}`]);
  switch (row.target) {
    case 'props list': {
      const ids = idsIn(variant.format, written.toString('utf8'));
      expect(ids.length, 'no record twice').toBe(new Set(ids).size);
      expect([...ids].sort(), "exactly the service's records").toEqual([...lane.truth].sort());
      break;
    }
    case 'files upload': {
      const record = JSON.parse(written.toString('utf8')) as { id: string; sha256: string };
      expect(record.sha256).toBe(lane.upload.sha256);
      const stored = await lane.admin.call('GET', `/api/files/${record.id}`);
      expect(stored.body).toMatchObject({ id: record.id, sha256: lane.upload.sha256 });
      break;
    }
    case 'files download':
      expect(written.length).toBe(lane.file.size);
      expect(sha256(written)).toBe(lane.file.sha256);
      break;
    case 'keys rotate': {
      const record = JSON.parse(written.toString('utf8')) as { newPrefix: string; oldKey: string };
      expect(profile!.stored().startsWith(`${record.newPrefix}_`)).toBe(true);
      expect(record.oldKey).toBe('revoked');
      break;
    }
  }
}

// ---- the table as tests ----------------------------------------------------------------------------

const byTarget = new Map<Target, Array<[Row, number]>>();
MATRIX.forEach((row, index) => byTarget.set(row.target, [...(byTarget.get(row.target) ?? []), [row, index]]));

for (const [target, rows] of byTarget) {
  describe.concurrent(target, () => {
    for (const [row, index] of rows) {
      for (const variant of variantsFor(row, index)) {
        const how =
          target === 'props list' ? `-o ${variant.format} ${variant.toFile ? '--out' : 'stdout'}` : variant.toFile ? '--out' : 'stdout';
        const outcome = row.expect.exit === 0 ? 'success, nothing lost' : `exit ${row.expect.exit}`;
        const test = row.knownDefect ? it.fails : it;
        const name = `${row.scenario} [${how}] → ${outcome}${row.knownDefect ? ` (known defect: ${row.knownDefect})` : ''}`;
        test(name, { timeout: 240_000 }, ({ expect }) => pool.use((lane) => check(row, variant, lane, expect)));
      }
    }
  });
}
