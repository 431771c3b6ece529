// What the examples of test/e2e/examples.test.ts need, made by the test against its mock: a home
// with the profiles they name (insecure storage, so a copy of the home is a copy of its keys), the
// files they read (records to create, files to upload, import inputs made by the CLI itself, the
// checks file the docs show, scripts a lease or watch runs), earlier snapshots for --since-last, the
// directories their paths name. Each example runs in a copy of the home with only the files it names
// (sandboxFor), so no example sees what another one changed.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { BIN } from '../helpers/spawn.js';
import { tempDir } from '../helpers/temp.js';
import type { MockServer } from '../helpers/mock.js';
import { adminOf } from '../helpers/mock-admin.js';
import { run, type RunResult } from '../helpers/run.js';

/** The profiles the examples name, with the environment each stands for. */
export const PROFILES: Readonly<Record<string, string>> = {
  default: 'staging',
  staging: 'staging',
  ci: 'staging',
  production: 'production',
  'old-staging': 'staging',
  'staging-bot': 'staging',
};

/** Directories the examples' paths name (absolute ones under the sandbox root, `~` under home). */
const DIRECTORIES = [
  'home/.secrets',
  'home/.zfunc',
  'home/.local/state/appraisal',
  'home/exports/tickets',
  'var/log/app',
  'var/log/appraisal',
  'var/lib/appraisal',
  'data/appraisal',
  'work/reports',
  'work/snapshots',
  'work/changes',
  'bin',
];

/** One example's own copy: a root holding home/, work/ (its working directory), bin/, var/, data/; removed after it. */
export interface Sandbox {
  root: string;
  home: string;
  work: string;
  env: Record<string, string | undefined>;
}

/** The environment of a run in `root`; the stand-in programs are the template's (`bin`). */
export function sandboxEnv(root: string, bin = join(root, 'bin')): Record<string, string | undefined> {
  const home = join(root, 'home');
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    APPRAISAL_CONFIG_DIR: undefined,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
  };
}

function runIn(root: string, argv: string[], stdin?: string): Promise<RunResult> {
  return run(argv, { env: sandboxEnv(root), cwd: join(root, 'work'), stdin });
}

async function expectRun(root: string, argv: string[], stdin?: string): Promise<RunResult> {
  const result = await runIn(root, argv, stdin);
  expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
}

/** Logs the profiles in anew, each with a key of its own (every scope: the examples manage keys too). */
export async function loginProfiles(mock: MockServer, root: string, names: readonly string[] = Object.keys(PROFILES)): Promise<void> {
  for (const name of names) {
    const key = await adminOf(mock).createKey(['api:admin'], `examples ${name}`);
    const argv = ['auth', 'login', '--profile', name, '--base-url', mock.baseUrl, '--ca-file', mock.caFile!];
    await expectRun(root, [...argv, '--environment', PROFILES[name]!, '--with-key', '--insecure-storage'], `${key.secret}\n`);
  }
}

function script(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/** A JSON record file for `--data @FILE`. */
function json(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The assignments CSV `--property-match parcelNumber` reads: the service's own rows with each
 * property id written as that property's parcel number, as a file from another system would have them.
 */
async function assignmentsByParcel(mock: MockServer, root: string): Promise<void> {
  const work = join(root, 'work');
  const csv = (await expectRun(root, ['assignments', 'list', '--max-items', '3', '-o', 'csv'])).stdout;
  let text = csv;
  for (const id of new Set(csv.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [])) {
    const answer = await adminOf(mock).call('GET', `/api/properties/${id}`);
    if (answer.status !== 200) continue;
    const record = answer.body as { data?: { parcelNumber?: string }; parcelNumber?: string };
    const parcel = (record.data ?? record).parcelNumber;
    if (parcel) text = text.replaceAll(id, parcel);
  }
  writeFileSync(join(work, 'assignments.csv'), text);
}

/** The home, files and snapshots every example starts from (each runs in its own copy). */
export async function makeTemplate(mock: MockServer, ids: { client: string }): Promise<string> {
  const root = tempDir('appraisal-examples-');
  for (const dir of DIRECTORIES) mkdirSync(join(root, dir), { recursive: true });
  const work = join(root, 'work');
  await loginProfiles(mock, root);
  await expectRun(root, ['profiles', 'use', 'default']);

  // Stand-ins for other programs the examples hand things to: this CLI itself, and GitHub's `gh`
  // (keys rotate --deliver), which takes the secret on stdin.
  script(join(root, 'bin', 'appraisal'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  script(join(root, 'bin', 'gh'), "#!/bin/sh\n# stands in for GitHub's gh: takes the secret on stdin\ncat > /dev/null\n");
  script(
    join(work, 'nightly-report.sh'),
    '#!/bin/sh\ntest -n "$APPRAISAL_API_KEY" && appraisal props list --max-items 1 -o json > /dev/null\n',
  );
  script(join(work, 'sync-assignment.sh'), '#!/bin/sh\ncat > /dev/null\n');
  writeFileSync(join(work, 'Makefile'), 'upload:\n\ttest -n "$$APPRAISAL_API_KEY"\n');

  const address = { line1: '1 Pier Rd', city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' };
  json(join(work, 'property.json'), { name: 'Harbor Point', propertyType: 'office', address });
  json(join(work, 'client.json'), { name: 'First Harbor Bank', clientType: 'lender', email: 'orders@firstharbor.example' });
  json(join(work, 'contact.json'), { firstName: 'Dana', lastName: 'Reyes', email: 'dana.reyes@example.com' });
  json(join(work, 'assignment.json'), {
    clientId: ids.client,
    reportType: 'appraisal_report',
    dueDate: '2026-03-31',
    fee: { amount: 3500, currency: 'USD' },
  });
  writeFileSync(join(work, 'fees-by-status.sql'), 'SELECT status, sum(fee__amount) AS fees FROM assignments GROUP BY status;\n');
  writeFileSync(join(work, 'report.pdf'), '%PDF-1.4\n% an appraisal report\n%%EOF\n');
  writeFileSync(join(work, 'IMG_0042.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]));
  const key = await adminOf(mock).createKey(['api:read'], 'examples key file');
  writeFileSync(join(root, 'home', '.secrets', 'appraisal.key'), `${key.secret}\n`, { mode: 0o600 });

  // Import inputs as the CLI writes them: re-importing them changes nothing (exit 0).
  for (const name of ['properties.csv', 'legacy.csv', 'legacy.failed.csv', 'edited.csv', 'props.csv']) {
    await expectRun(root, ['props', 'list', '--max-items', '3', '-o', 'csv', '--out', name]);
  }
  await expectRun(root, ['clients', 'list', '--max-items', '3', '-o', 'csv', '--out', 'clients.csv']);
  await expectRun(root, ['clients', 'list', '--max-items', '3', '-o', 'ndjson', '--out', 'clients.ndjson']);
  await expectRun(root, ['contacts', 'list', '--client', ids.client, '--max-items', '3', '-o', 'csv', '--out', 'contacts.csv']);
  await expectRun(root, ['assignments', 'list', '--max-items', '3', '-o', 'ndjson', '--out', 'assignments.ndjson']);
  await assignmentsByParcel(mock, root);

  // An earlier snapshot, for --since-last: beside the template, copied only where an example names it.
  await expectRun(root, ['export', '--dir', '../snapshot', '--quiet']);
  // Databases sync wrote, for the examples of `appraisal sql` (copied only into theirs).
  mkdirSync(join(root, 'duckdb'));
  await expectRun(root, ['sync', '--to', 'duckdb:../duckdb/appraisal.duckdb', '--quiet']);
  await expectRun(root, ['sync', '--to', 'duckdb:../duckdb/ops.duckdb', '--schema', 'acme', '--quiet']);
  return root;
}

/** A plain recursive copy (node's cpSync costs three times the CPU, and this runs once per example). */
function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else copyFileSync(source, target);
  }
}

/** What only a few examples need, made in their own copy: an earlier snapshot, a git repository. */
function prepareFor(text: string, sandbox: Sandbox, template: string): void {
  if (text.includes('--since-last')) {
    copyTree(join(template, 'snapshot'), join(sandbox.work, 'snapshots', 'latest'));
    copyTree(join(template, 'snapshot'), join(sandbox.root, 'data', 'appraisal', 'snap-2026-01-01'));
    symlinkSync('snap-2026-01-01', join(sandbox.root, 'data', 'appraisal', 'latest'));
  }
  if (/\bappraisal sql\b|--sql\b/.test(text)) {
    for (const name of ['appraisal.duckdb', 'ops.duckdb']) copyFileSync(join(template, 'duckdb', name), join(sandbox.work, name));
  }
  if (/\bkeys scan \. --git\b/.test(text)) {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=examples', '-c', 'user.email=examples@example.com', ...args], {
        cwd: sandbox.work,
        stdio: 'ignore',
      });
    git('init', '-q', '--template=');
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', "the examples' files");
  }
}

/** A copy of the template for one example. */
export function sandboxFor(text: string, template: string): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'appraisal-example-'));
  copyTree(join(template, 'home'), join(root, 'home'));
  for (const dir of DIRECTORIES) if (!dir.startsWith('home/') && dir !== 'bin') mkdirSync(join(root, dir), { recursive: true });
  // Only the files the example names (copying every one for each example was a third of this file's CPU).
  for (const name of readdirSync(join(template, 'work'), { withFileTypes: true })) {
    if (name.isFile() && (text.includes(name.name) || (name.name === 'Makefile' && /\bmake\b/.test(text)))) {
      copyFileSync(join(template, 'work', name.name), join(root, 'work', name.name));
    }
  }
  const sandbox = { root, home: join(root, 'home'), work: join(root, 'work'), env: sandboxEnv(root, join(template, 'bin')) };
  prepareFor(text, sandbox, template);
  return sandbox;
}
