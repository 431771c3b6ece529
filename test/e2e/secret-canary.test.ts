// The secret canary (issue 8): every command — found in the command tree that `completion bash`
// prints, so a new command is covered the day it is registered — runs with recognisable secrets,
// on success and failure paths, plain and with `--verbose -o json`, with the key from the
// environment, a key file, stdin and the --insecure-storage file. No secret may appear anywhere:
// stdout, stderr, the config dir, HOME, TMPDIR, the working directory (exports, JUnit reports, watch
// state, the rotation audit log), the completion scripts. The documented exceptions:
//   - `keys create` prints the new key on stdout, once;
//   - the --insecure-storage file of a profile holds that profile's key (mode 0600);
//   - `appraisal mock` prints its own admin key (the test never runs it, only its --help).
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitProblems } from '../helpers/exit-shape.js';
import { Pool } from '../helpers/pool.js';
import { run as runInProcess, type RunResult } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';

const CANARY = 'apk_CANARY00_CanaryS3cretCanaryS3cretCanary42';
/** The same key with one character changed: a typo the CLI must not echo either. */
const CANARY_TYPO = 'apk_CANARY00_CanaryS3cretCanaryS3cretCanary43';
const FULL_KEY = /apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}/g;

type Credential = 'env' | 'stored' | 'revoked' | 'key-file' | 'stdin' | 'none';

interface Invocation {
  args: string[];
  credential?: Credential;
  /** stdin (for --with-key / --api-key-file - it is the key, added by the runner). */
  input?: string;
  /** `keys create`: prints exactly one new key on stdout, which becomes a known secret. */
  printsNewKey?: boolean;
  /** After the run: secrets it created that the test can read (e.g. from an insecure-storage file). */
  after?: () => void;
  /** The command takes no -o (watch always writes NDJSON): its variants only add --verbose. */
  noOutputFlag?: boolean;
}

interface Fixtures {
  propertyId: string;
  assignmentId: string;
  clientId: string;
  contactId: string;
  fileId: string;
  reader: { id: string; prefix: string };
  missing: string;
  cwd: string;
  templates: Record<'props' | 'assignments' | 'clients', string>;
}

/**
 * What to run for each command path, in phases: 1 log in; 2 read and create; 3 change; 4 destroy.
 * A command missing here still runs (phase 2) with --help, without arguments, and with a missing
 * id for each <argument> of its usage line.
 */
const SCENARIOS: Record<string, { phase: number; runs: (f: Fixtures) => Invocation[] }> = {
  'auth login': {
    phase: 1,
    runs: (f) => [
      { args: ['auth', 'login', '--profile', 'canary', '--with-key', '--insecure-storage'], credential: 'stdin' },
      { args: ['auth', 'login', '--profile', 'from-file', '--insecure-storage'], credential: 'key-file' },
      { args: ['auth', 'login', '--profile', 'revoked', '--with-key', '--insecure-storage'], credential: 'stdin', input: 'revoked' },
      { args: ['auth', 'login', '--profile', 'typo', '--with-key', '--insecure-storage'], credential: 'none', input: `${CANARY_TYPO}\n` },
      { args: ['auth', 'login', '--profile', 'nokey', '--api-key-file', join(f.cwd, 'no-such-file')], credential: 'none' },
    ],
  },
  'auth status': {
    phase: 2,
    runs: () => [{ args: ['auth', 'status', '--profile', 'canary'], credential: 'stored' }, { args: ['auth', 'status'] }],
  },
  'auth logout': { phase: 4, runs: () => [{ args: ['auth', 'logout', '--profile', 'from-file'], credential: 'none' }] },
  'profiles list': { phase: 2, runs: () => [{ args: ['profiles', 'list'], credential: 'none' }] },
  'profiles use': {
    phase: 4,
    runs: () => [
      { args: ['profiles', 'use', 'canary'], credential: 'none' },
      { args: ['profiles', 'use', 'nobody'], credential: 'none' },
    ],
  },
  'profiles remove': {
    phase: 4,
    runs: () => [
      { args: ['profiles', 'remove', 'typo', '--yes'], credential: 'none' },
      { args: ['profiles', 'remove', 'nobody', '--yes'], credential: 'none' },
    ],
  },
  'props list': {
    phase: 2,
    runs: (f) => [
      { args: ['props', 'list', '--max-items', '5'] },
      { args: ['props', 'list', '--profile', 'canary', '--max-items', '5'], credential: 'stored' },
      { args: ['props', 'list', '-o', 'csv', '--out', join(f.cwd, `props-${randomUUID()}.csv`)] },
    ],
  },
  'props get': { phase: 2, runs: (f) => [{ args: ['props', 'get', f.propertyId] }, { args: ['props', 'get', f.missing] }] },
  'props create': {
    phase: 2,
    runs: (f) => [{ args: ['props', 'create', '--data', f.templates.props] }, { args: ['props', 'create', '--data', '{"name":'] }],
  },
  'props update': {
    phase: 3,
    runs: (f) => [
      { args: ['props', 'update', f.propertyId, '-f', 'name=Canary Tower'] },
      { args: ['props', 'update', f.missing, '-f', 'name=x'] },
    ],
  },
  'props delete': {
    phase: 4,
    runs: (f) => [{ args: ['props', 'delete', f.propertyId, '--yes'] }, { args: ['props', 'delete', f.missing] }],
  },
  'assignments list': { phase: 2, runs: () => [{ args: ['assignments', 'list', '--max-items', '5'] }] },
  'assignments get': {
    phase: 2,
    runs: (f) => [{ args: ['assignments', 'get', f.assignmentId] }, { args: ['assignments', 'get', f.missing] }],
  },
  'assignments create': { phase: 2, runs: (f) => [{ args: ['assignments', 'create', '--data', f.templates.assignments] }] },
  'assignments update': { phase: 3, runs: (f) => [{ args: ['assignments', 'update', f.assignmentId, '-f', 'intendedUse=canary'] }] },
  'assignments delete': { phase: 4, runs: (f) => [{ args: ['assignments', 'delete', f.missing, '--yes'] }] },
  'assignments properties': {
    phase: 2,
    runs: (f) => [{ args: ['assignments', 'properties', f.assignmentId] }, { args: ['assignments', 'properties', f.missing] }],
  },
  'assignments link': {
    phase: 3,
    runs: (f) => [
      { args: ['assignments', 'link', f.assignmentId, f.propertyId] },
      { args: ['assignments', 'link', f.missing, f.propertyId] },
    ],
  },
  'assignments unlink': { phase: 3, runs: (f) => [{ args: ['assignments', 'unlink', f.assignmentId, f.missing] }] },
  'clients list': { phase: 2, runs: () => [{ args: ['clients', 'list', '--max-items', '5'] }] },
  'clients get': { phase: 2, runs: (f) => [{ args: ['clients', 'get', f.clientId] }, { args: ['clients', 'get', f.missing] }] },
  'clients create': { phase: 2, runs: (f) => [{ args: ['clients', 'create', '--data', f.templates.clients] }] },
  'clients update': { phase: 3, runs: (f) => [{ args: ['clients', 'update', f.clientId, '-F', 'phone=null'] }] },
  'clients delete': { phase: 4, runs: (f) => [{ args: ['clients', 'delete', f.missing, '--yes'] }] },
  'contacts list': { phase: 2, runs: (f) => [{ args: ['contacts', 'list', '--client', f.clientId] }, { args: ['contacts', 'list'] }] },
  'contacts get': { phase: 2, runs: (f) => [{ args: ['contacts', 'get', f.contactId] }, { args: ['contacts', 'get', f.missing] }] },
  'contacts create': {
    phase: 2,
    runs: (f) => [{ args: ['contacts', 'create', '--client', f.clientId, '--data', '{"firstName":"Ada","lastName":"Canary"}'] }],
  },
  'contacts update': { phase: 3, runs: (f) => [{ args: ['contacts', 'update', f.contactId, '-f', 'title=Canary'] }] },
  'contacts delete': { phase: 4, runs: (f) => [{ args: ['contacts', 'delete', f.missing, '--yes'] }] },
  'files upload': {
    phase: 2,
    runs: (f) => [
      { args: ['files', 'upload', join(f.cwd, 'notes.txt'), '--property', f.propertyId] },
      { args: ['files', 'upload', join(f.cwd, 'absent.pdf')] },
    ],
  },
  'files list': { phase: 2, runs: () => [{ args: ['files', 'list', '--max-items', '5'] }] },
  'files get': { phase: 2, runs: (f) => [{ args: ['files', 'get', f.fileId] }, { args: ['files', 'get', f.missing] }] },
  'files download': {
    phase: 2,
    runs: (f) => [
      { args: ['files', 'download', f.fileId, '--out', join(f.cwd, `file-${randomUUID()}.bin`)] },
      { args: ['files', 'download', f.fileId] },
      { args: ['files', 'download', f.missing] },
    ],
  },
  'files attach': {
    phase: 3,
    runs: (f) => [{ args: ['files', 'attach', f.fileId, '--property', f.propertyId] }, { args: ['files', 'attach', f.fileId] }],
  },
  'files delete': { phase: 4, runs: (f) => [{ args: ['files', 'delete', f.missing, '--yes'] }] },
  'ref enums': { phase: 2, runs: () => [{ args: ['ref', 'enums'] }] },
  'ref designations': { phase: 2, runs: () => [{ args: ['ref', 'designations'] }] },
  'keys list': {
    phase: 2,
    runs: () => [{ args: ['keys', 'list'] }, { args: ['keys', 'list', '--profile', 'canary'], credential: 'stored' }],
  },
  'keys get': {
    phase: 2,
    runs: (f) => [
      { args: ['keys', 'get', f.reader.prefix] },
      { args: ['keys', 'get', 'apk_CANARY00'] },
      { args: ['keys', 'get', f.missing] },
    ],
  },
  'keys create': {
    phase: 3,
    runs: () => [
      { args: ['keys', 'create', '--name', 'made by the canary test', '--scope', 'api:read'], printsNewKey: true },
      { args: ['keys', 'create', '--name', 'no scope'] },
    ],
  },
  'keys revoke': {
    phase: 3,
    runs: (f) => [
      { args: ['keys', 'revoke', f.reader.prefix, '--yes'] },
      { args: ['keys', 'revoke', 'apk_CANARY00', '--yes'] },
      { args: ['keys', 'revoke', f.missing, '--yes'] },
    ],
  },
  'keys rotate': {
    phase: 4,
    runs: (f) => [
      {
        args: ['keys', 'rotate', '--profile', 'rotating', '--yes', '--audit-log', join(f.cwd, 'rotations.jsonl')],
        credential: 'stored',
        after: readRotatedKey,
      },
      { args: ['keys', 'rotate', '--yes'] },
    ],
  },
  api: {
    phase: 2,
    runs: (f) => [
      { args: ['api', 'GET', '/api/properties', '-f', 'limit=2'] },
      { args: ['api', 'GET', '/api/keys/current', '-i'] },
      { args: ['api', 'GET', '/api/properties', '--all', '--max-items', '3'] },
      { args: ['api', 'GET', `/api/properties/${f.missing}`] },
      { args: ['api', 'POST', '/api/properties', '--data', f.templates.props] },
      // A key typed where it does not belong: refused, and never echoed back.
      { args: ['api', 'GET', '/api/properties', '-H', `x-api-key: ${CANARY}`] },
      { args: ['api', 'GET', '/api/properties', '-H', `x-note: ${CANARY}`] },
      { args: ['api', 'GET', `/api/properties?api_key=${CANARY}`] },
      { args: ['api', 'GET', `/api/properties/${CANARY}`] },
    ],
  },
  watch: {
    phase: 3,
    runs: (f) => [
      { args: ['watch', 'props', '--once', '--state-file', join(f.cwd, 'watch-state.json')], noOutputFlag: true },
      { args: ['watch', 'nothing', '--once'], noOutputFlag: true },
    ],
  },
  smoke: { phase: 3, runs: (f) => [{ args: ['smoke'] }, { args: ['smoke', '--write', '--junit', join(f.cwd, 'smoke.xml')] }] },
  // A server that runs until stopped, and prints its own admin key by design: only its help.
  mock: { phase: 2, runs: () => [{ args: ['mock', '--help'], credential: 'none' }] },
  'completion bash': { phase: 3, runs: () => [{ args: ['completion', 'bash'] }] },
  'completion zsh': { phase: 3, runs: () => [{ args: ['completion', 'zsh'] }] },
  'completion fish': { phase: 3, runs: () => [{ args: ['completion', 'fish'] }] },
  help: {
    phase: 2,
    runs: () => [
      { args: ['help'], credential: 'none' },
      { args: ['help', 'environment'], credential: 'none' },
      { args: ['help', 'keys', 'rotate'], credential: 'none' },
    ],
  },
};

// ---- state ---------------------------------------------------------------------------------------

let mock: MockServer;
let admin: MockAdmin;
let home: string;
let configDir: string;
let tmp: string;
let cwd: string;
/** Outside every scanned directory: the file --api-key-file reads. */
let keyFile: string;
let fixtures: Fixtures;
/** name → secret: everything the process knows that must never be shown. */
const secrets = new Map<string, string>([
  ['canary admin key', CANARY],
  ['canary typo', CANARY_TYPO],
]);
let commandPaths: string[] = [];
/** The command paths that take -o/--output. */
const takesOutput = new Set<string>();
const ran: Array<{ label: string; result: RunResult }> = [];

function readRotatedKey(): void {
  const file = join(configDir, 'credentials', 'rotating.key');
  secrets.set('the key keys rotate made', (JSON.parse(readFileSync(file, 'utf8')) as { key: string }).key);
}

/** The parts of a secret that give it away: the whole key and either half of the part after the prefix. */
function tells(secret: string): string[] {
  const tail = secret.replace(/^apk_[A-Za-z0-9]{8}_/, '');
  return [secret, tail.slice(0, 16), tail.slice(-16)];
}

function leaksIn(text: string): string[] {
  const found: string[] = [];
  for (const [name, secret] of secrets) if (tells(secret).some((tell) => text.includes(tell))) found.push(name);
  return found;
}

function filesUnder(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  walk(root);
  return files;
}

beforeAll(async () => {
  mock = await startMock({ records: 12, adminKey: CANARY, seed: 11 });
  admin = mockAdmin(mock);
  home = tempDir('appraisal-canary-home-');
  configDir = join(home, 'config');
  tmp = tempDir('appraisal-canary-tmp-');
  cwd = tempDir('appraisal-canary-cwd-');
  const outside = tempDir('appraisal-canary-keyfile-');
  keyFile = join(outside, 'key');
  writeFileSync(keyFile, `${CANARY}\n`, { mode: 0o600 });
  writeFileSync(join(cwd, 'notes.txt'), 'roof: fair\n');

  const reader = await admin.createKey(['api:read'], 'canary reader');
  const revoked = await admin.createKey(['api:admin'], 'canary revoked');
  await admin.revokeKey(revoked.id);
  const rotating = await admin.createKey(['api:admin'], 'canary rotating');
  secrets.set('reader key', reader.secret).set('revoked key', revoked.secret).set('key to rotate', rotating.secret);

  const first = async (path: string) =>
    ((await admin.call('GET', `${path}?limit=1`)).body as { items: Array<Record<string, unknown>> }).items[0]!;
  const template = (record: Record<string, unknown>) => {
    const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = record;
    return JSON.stringify(rest);
  };
  const [property, assignment, client, file] = await Promise.all([
    first('/api/properties'),
    first('/api/assignments'),
    first('/api/clients'),
    first('/api/files'),
  ]);
  let contact = (await admin.call('GET', `/api/clients/${String(client.id)}/contacts?limit=1`)).body as { items: Array<{ id: string }> };
  if (contact.items.length === 0) {
    await admin.call('POST', `/api/clients/${String(client.id)}/contacts`, { firstName: 'Grace', lastName: 'Fixture' });
    contact = (await admin.call('GET', `/api/clients/${String(client.id)}/contacts?limit=1`)).body as { items: Array<{ id: string }> };
  }
  fixtures = {
    propertyId: String(property.id),
    assignmentId: String(assignment.id),
    clientId: String(client.id),
    contactId: contact.items[0]!.id,
    fileId: String(file.id),
    reader: { id: reader.id, prefix: reader.prefix },
    missing: randomUUID(),
    cwd,
    templates: { props: template(property), assignments: template(assignment), clients: template(client) },
  };

  // The command tree, from the completion script the CLI itself generates.
  const completion = await run({ args: ['completion', 'bash'], credential: 'none' }, 'plain');
  // `_appraisal_child` maps "parent|word" to each command path: `'props|list') printf '%s\n' 'props list' ;;`
  const childLine = /^\s*'[^'|]*\|[^']*'(?:\|'[^']*')*\) printf '%s\\n' '([a-z][a-z -]*)' ;;$/gm;
  const childSection = completion.stdout.slice(completion.stdout.indexOf('_appraisal_child() {'));
  const paths = [...childSection.slice(0, childSection.indexOf('\n}\n')).matchAll(childLine)].map((m) => m[1]!);
  commandPaths = [...new Set(paths)].filter((path) => !paths.some((other) => other.startsWith(`${path} `))).sort();
  // `_appraisal_flags`: the commands that print records take -o; the others refuse it (exit 2).
  const flagLine = /^\s*'([^']*)'\) printf '%s\\n' '([^']*)' ;;$/gm;
  const flagSection = completion.stdout.slice(completion.stdout.indexOf('_appraisal_flags() {'));
  for (const match of flagSection.slice(0, flagSection.indexOf('esac')).matchAll(flagLine)) {
    if (match[1] && match[2]!.split(' ').includes('--output')) takesOutput.add(match[1]);
  }
  expect(takesOutput).toContain('props list');

  // The profile whose key `keys rotate` replaces.
  const login = await run(
    {
      args: ['auth', 'login', '--profile', 'rotating', '--with-key', '--insecure-storage'],
      credential: 'none',
      input: `${rotating.secret}\n`,
    },
    'plain',
  );
  if (login.code !== 0) throw new Error(`setup login failed: ${login.stderr}`);
}, 120_000);

afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

function envFor(credential: Credential): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    HOME: home,
    APPRAISAL_CONFIG_DIR: configDir,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    TMPDIR: tmp,
    APPRAISAL_CA_FILE: mock.caFile,
    APPRAISAL_BASE_URL: mock.baseUrl,
    APPRAISAL_RETRY_BASE_MS: '20',
    APPRAISAL_NO_INPUT: '1',
  };
  if (credential === 'env') env.APPRAISAL_API_KEY = CANARY;
  if (credential === 'revoked') env.APPRAISAL_API_KEY = secrets.get('revoked key');
  // A stored key is used with the base URL it was stored for.
  if (credential === 'stored') env.APPRAISAL_BASE_URL = undefined;
  return env;
}

type Variant = 'plain' | 'table' | 'verbose-json';
const VARIANT_FLAGS: Record<Variant, string[]> = { plain: [], table: ['-o', 'table'], 'verbose-json': ['--verbose', '-o', 'json'] };

async function run(invocation: Invocation, variant: Variant): Promise<RunResult> {
  const credential = invocation.credential ?? 'env';
  const flags = VARIANT_FLAGS[variant];
  const path = invocation.args.slice(0, 2).join(' ');
  const printsRecords = takesOutput.has(path) || takesOutput.has(invocation.args[0] ?? '');
  const args = [...invocation.args, ...(invocation.noOutputFlag || !printsRecords ? flags.filter((flag) => flag === '--verbose') : flags)];
  let input = invocation.input;
  if (credential === 'key-file') args.push('--api-key-file', keyFile);
  if (credential === 'stdin') input = input === 'revoked' ? `${secrets.get('revoked key')}\n` : `${CANARY}\n`;
  return runInProcess(args, { env: envFor(credential), cwd, stdin: input });
}

/** Every run's own checks: a documented exit, no stack trace, no secret on stdout or stderr. */
function checkRun(label: string, invocation: Invocation, result: RunResult): void {
  ran.push({ label, result });
  expect(exitProblems(result), `${label}\n${result.stderr}`).toEqual([]);
  expect(leaksIn(result.stderr), `${label}: a secret on stderr\n${result.stderr}`).toEqual([]);
  expect(result.stderr.match(FULL_KEY) ?? [], `${label}: a whole key on stderr`).toEqual([]);
  if (invocation.printsNewKey && result.code === 0) {
    // The one documented print: the new key, once, on stdout.
    const printed = result.stdout.match(FULL_KEY) ?? [];
    expect(printed, `${label}: prints the new key once`).toHaveLength(1);
    expect(leaksIn(result.stdout), `${label}: and no other secret`).toEqual([]);
    secrets.set(`key made by ${label}`, printed[0]!);
    return;
  }
  expect(leaksIn(result.stdout), `${label}: a secret on stdout`).toEqual([]);
  expect(result.stdout.match(FULL_KEY) ?? [], `${label}: a whole key on stdout`).toEqual([]);
}

function invocationsFor(path: string): { phase: number; runs: Invocation[] } {
  const known = SCENARIOS[path];
  if (known) return { phase: known.phase, runs: known.runs(fixtures) };
  // A command this table does not know yet: its help, no arguments, and a missing id for each argument.
  return {
    phase: 2,
    runs: [{ args: [...path.split(' '), '--help'] }, { args: path.split(' ') }, { args: [...path.split(' '), fixtures.missing] }],
  };
}

/** Commands that reach the service also run once with a revoked key (401 path, --verbose). */
function reachesService(invocation: Invocation): boolean {
  const [noun] = invocation.args;
  return (
    (invocation.credential ?? 'env') === 'env' &&
    !['completion', 'help', 'mock', 'profiles'].includes(noun ?? '') &&
    !invocation.args.includes('--help')
  );
}

describe('the secret canary', () => {
  it('finds the command tree in the completion script', () => {
    expect(commandPaths.length).toBeGreaterThan(30);
    for (const path of ['props list', 'keys create', 'keys rotate', 'auth login', 'completion bash']) expect(commandPaths).toContain(path);
  });

  it(
    'runs every command — success and failure paths, plain and --verbose -o json — without printing a secret',
    { timeout: 600_000 },
    async () => {
      const plan = commandPaths.map((path) => ({ path, ...invocationsFor(path) }));
      const nounsWith401 = new Set<string>();
      for (const phase of [1, 2, 3, 4]) {
        // Logging in and out, switching and removing profiles write the config: one at a time.
        const pool = new Pool(phase === 1 || phase === 4 ? [1] : [1, 2, 3]);
        const jobs: Array<Promise<void>> = [];
        const schedule = (label: string, invocation: Invocation, variant: Variant) =>
          jobs.push(
            pool.use(async () => {
              const result = await run(invocation, variant);
              checkRun(`${label}${VARIANT_FLAGS[variant].length > 0 ? ` ${VARIANT_FLAGS[variant].join(' ')}` : ''}`, invocation, result);
              invocation.after?.();
            }),
          );
        for (const { path, runs } of plan.filter((entry) => entry.phase === phase)) {
          for (const [index, invocation] of runs.entries()) {
            const label = `${path} #${index + 1} (${invocation.args.join(' ')})`;
            // Every invocation with --verbose -o json; the first of each command (its success path)
            // also as a person would run it, with a table; state-changing ones once.
            const once = invocation.after !== undefined || path === 'auth login';
            schedule(label, invocation, once ? 'plain' : 'verbose-json');
            if (index === 0 && !once) schedule(label, invocation, 'table');
            // The 401 path of each noun, with a revoked key.
            const noun = invocation.args[0]!;
            if (reachesService(invocation) && !invocation.printsNewKey && !nounsWith401.has(noun)) {
              nounsWith401.add(noun);
              schedule(`${label} with a revoked key`, { ...invocation, credential: 'revoked' }, 'verbose-json');
            }
          }
        }
        const outcomes = await Promise.allSettled(jobs);
        const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        if (failed) throw failed.reason;
      }
      if (process.env.CANARY_DEBUG)
        for (const r of ran) console.log(r.result.code, r.label, r.result.stderr.split('\n').slice(-3).join(' / '));
      // Both paths really ran: successes and failures of several kinds.
      const codes = new Set(ran.map((entry) => entry.result.code));
      for (const code of [0, 2, 4, 6]) expect(codes, `exit ${code} among the runs`).toContain(code);
      for (const must of [
        'props list #1',
        'keys create #1',
        'keys rotate #1',
        'auth login #1',
        'auth login #2',
        'auth logout #1',
        'smoke #2',
      ]) {
        const entry = ran.find((r) => r.label.startsWith(must));
        expect(entry?.result.code, `${must} succeeded\n${entry?.result.stderr}`).toBe(0);
      }
    },
  );

  it('leaves no secret on disk but in the insecure-storage files (0600), each holding its own profile key', () => {
    const allowed = new Map([
      [join(configDir, 'credentials', 'canary.key'), CANARY],
      [join(configDir, 'credentials', 'rotating.key'), secrets.get('the key keys rotate made')],
    ]);
    const scanned: string[] = [];
    for (const root of [home, tmp, cwd]) {
      for (const file of filesUnder(root)) {
        scanned.push(relative(root, file));
        const text = readFileSync(file).toString('latin1');
        const found = leaksIn(text);
        const expected = allowed.get(file);
        if (expected !== undefined) {
          expect((JSON.parse(text) as { key: string }).key, `${file} holds its profile's key`).toBe(expected);
          expect((statSync(file).mode & 0o777).toString(8), `${file} is private`).toBe('600');
          continue;
        }
        expect(found, `a secret in ${file}`).toEqual([]);
        expect(text.match(FULL_KEY) ?? [], `a whole key in ${file}`).toEqual([]);
      }
    }
    // The run really wrote what was scanned: the config, exports, the audit log, JUnit, watch state.
    for (const name of ['config.json', 'rotations.jsonl', 'smoke.xml', 'watch-state.json']) {
      expect(
        scanned.some((path) => path.endsWith(name)),
        `${name} was written and scanned`,
      ).toBe(true);
    }
    expect(readdirSync(tmp), 'nothing left in TMPDIR').toEqual([]);
  });

  it("leaves no secret in the mock's request log either", async () => {
    const log = JSON.stringify(await admin.requests(1000));
    expect(leaksIn(log)).toEqual([]);
  });
});
