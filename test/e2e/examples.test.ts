// Every example the user is shown runs here, so an example can never rot again (issue 25 §3): each
// one of every --help (read from the verb declarations, not copied), and every command line of a
// shell block in README.md and docs/*.md. Each runs in process against one mock, in its own copy of
// a home the test made (examples-sandbox.ts: the profiles, files, snapshots and ids it names), with
// its placeholders (ID, CLIENT_ID, the example UUID, apk_AbCd…, example.com URLs, ~, /data, /var)
// replaced by real values, read as a shell reads it (examples-support.ts: pipes, redirects, &&,
// cd, ln, `source <(…)`, `$(date …)`, cron schedules). It must end with the code it is meant to
// have (0 unless MEANT says otherwise, with why) and the failure shape of exit-shape.ts; what it
// pipes into jq must be JSON. An example that cannot run against the mock is in NOT_RUN with the
// reason; one that is neither fails, and so does a table entry that matches no example.
import { appendFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startMock, type MockServer } from '../helpers/mock.js';
import { adminOf, waitFor, type MockAdmin } from '../helpers/mock-admin.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { run, type RunResult } from '../helpers/run.js';
import {
  allExamples,
  checksFileOfHelp,
  expandVariables,
  jsonBlockOf,
  readCommandLine,
  type Example,
  type SimpleCommand,
} from './examples-support.js';
import { loginProfiles, makeTemplate, sandboxFor, type Sandbox } from './examples-sandbox.js';

const examples = await allExamples();
const hasKeyring = process.env.APPRAISAL_TEST_KEYRING === '1';
const NOW = new Date();

/** Examples that cannot run against the mock, each with the reason. */
const NOT_RUN: Readonly<Record<string, string>> = {
  'appraisal mock --port 0 --detach --write-env mock.env  # then: set -a; . ./mock.env; set +a  ...  kill "$APPRAISAL_MOCK_PID"':
    'starts a second mock as a process of its own (--detach); test/e2e/mock-recipe.test.ts runs this recipe as written',
  'appraisal mock --port 0 --detach --write-env mock.env   # HTTPS on a free port, a generated CA, an admin key':
    'starts a second mock as a process of its own (--detach); test/e2e/mock-recipe.test.ts runs the README recipe as written',
  'appraisal --api-key-file /dev/fd/3 keys lease --scope properties:read --ttl 15m -- ./nightly-report.sh 3< <(vault kv get -field=key ci/appraisal)':
    'the key on file descriptor 3 from a secret manager: test/e2e/keys-lease.test.ts runs it with these arguments as a process (3< <(…))',
  'appraisal --api-key-file /dev/fd/3 keys lease --scope properties:read --ttl 15m -- ./nightly-report.sh 3< "$RUNNER_TEMP/appraisal.key"':
    'the key on file descriptor 3, written by an earlier CI step: test/e2e/keys-lease.test.ts runs it with these arguments as a process',
  'appraisal mock --http --records 20000 --latency 20 --log':
    'a second mock service on the fixed port 4000 until stopped: another run on this machine may hold the port',
};

/** How an example is meant to end when that is not "exit 0 without a terminal", and why. */
interface Meant {
  why: string;
  code?: number;
  /** It asks on a terminal: run on one, with this typed. */
  terminal?: string;
  /** It runs until stopped: Ctrl-C once this resolves. */
  stopWhen?: (sandbox: Sandbox) => Promise<void>;
}
/** What a person types at a prompt: yes, or (NEW_KEY) a key of the service. */
const YES = 'y\n';
const NEW_KEY = '\u0000new key\n';
const MEANT: Readonly<Record<string, Meant>> = {
  'appraisal auth login --profile staging --base-url https://staging.example.com --environment staging': {
    why: 'asks for the key on a terminal',
    terminal: NEW_KEY,
  },
  'appraisal profiles remove old-staging': { why: 'asks on a terminal first', terminal: YES },
  'appraisal props delete ID': { why: 'asks on a terminal first', terminal: YES },
  'appraisal assignments delete ID': { why: 'asks on a terminal first', terminal: YES },
  'appraisal clients delete ID': { why: 'asks on a terminal first', terminal: YES },
  'appraisal contacts delete ID': { why: 'asks on a terminal first', terminal: YES },
  'appraisal files delete ID': { why: 'asks on a terminal first', terminal: YES },
  'appraisal keys revoke apk_AbCd1234': { why: 'asks on a terminal first', terminal: YES },
  'appraisal keys rotate': { why: 'asks on a terminal first', terminal: YES },
  'appraisal keys rotate --keep-old   # revoke the old key later with keys revoke': { why: 'asks on a terminal first', terminal: YES },
  'appraisal keys rotate --profile production --audit-log rotations.jsonl': {
    why: 'a production profile: asks on a terminal under the banner',
    terminal: YES,
  },
  "appraisal watch assignments --interval 5m --state-file assignments.state --exec './sync-assignment.sh'": {
    why: 'polls until Ctrl-C (exit 130), here once the first poll saved its state',
    code: 130,
    stopWhen: (sandbox) => fileAppears(join(sandbox.work, 'assignments.state')),
  },
  "appraisal watch assignments --interval 2m --state-file ~/.local/state/appraisal/assignments.state --exec './sync-assignment.sh'": {
    why: 'polls until Ctrl-C (exit 130), here once the first poll saved its state',
    code: 130,
    stopWhen: (sandbox) => fileAppears(join(sandbox.home, '.local/state/appraisal/assignments.state')),
  },
  'appraisal watch contacts --client 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10 --interval 30s | jq -c \'select(.type=="deleted")\'': {
    why: "polls until Ctrl-C (exit 130), here once the first poll reached the client's contacts",
    code: 130,
    stopWhen: () => admin.waitForRequest((entry) => entry.path.endsWith('/contacts')),
  },
  'appraisal api GET /api/internal/thing --strict         # refused: not part of the public contract': {
    why: 'docs/CI.md shows the refusal: an unpublished operation, refused before any request',
    code: 12,
  },
};

async function fileAppears(path: string): Promise<void> {
  await waitFor(() => existsSync(path), path);
}

/** The UUID the examples show where an id goes. */
const EXAMPLE_UUID = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';
type Family = 'property' | 'client' | 'contact' | 'assignment' | 'file' | 'key';
const FAMILY_OF_NOUN: Readonly<Record<string, Family>> = {
  props: 'property',
  properties: 'property',
  clients: 'client',
  contacts: 'contact',
  assignments: 'assignment',
  files: 'file',
  keys: 'key',
  api: 'property',
};
const FAMILY_OF_FLAG: Readonly<Record<string, Family>> = { '--client': 'client', '--assignment': 'assignment', '--property': 'property' };

let mock: MockServer;
let admin: MockAdmin;
let template: string;
/** Seeded ids, each handed out once (a delete never meets another example's record). */
const pools: Record<Exclude<Family, 'key'>, string[]> = { property: [], client: [], contact: [], assignment: [], file: [] };
/** Assignments with at least one property, for unlink. */
let linked: { id: string; propertyIds: string[] }[] = [];

beforeAll(async () => {
  mock = await startMock({ records: 40 });
  admin = adminOf(mock);
  pools.property = await admin.ids('/api/properties');
  pools.client = await admin.ids('/api/clients');
  pools.file = await admin.ids('/api/files');
  const assignments = (await admin.call('GET', '/api/assignments?limit=100')).body as { items: { id: string; propertyIds: string[] }[] };
  linked = assignments.items.filter((item) => item.propertyIds.length > 0).slice(0, 5);
  pools.assignment = assignments.items.map((item) => item.id).filter((id) => !linked.some((one) => one.id === id));
  for (const client of pools.client.slice(-10)) pools.contact.push(...(await admin.ids(`/api/clients/${client}/contacts`)));
  template = await makeTemplate(mock, { client: pools.client.pop()! });
});
afterAll(async () => {
  await mock?.stop();
});

/** The real values of one example's placeholders: the same placeholder is the same value in a line. */
class Placeholders {
  private readonly values = new Map<string, string>();
  private async value(name: string, family: Family, prefix = false): Promise<string> {
    const known = this.values.get(name);
    if (known !== undefined) return known;
    let value: string;
    if (family === 'key') {
      const key = await admin.createKey(['api:read'], 'examples throwaway');
      value = prefix ? key.prefix : key.id;
    } else {
      const next = pools[family].shift();
      if (next === undefined) throw new Error(`the mock has no ${family} left for ${name}: raise --records`);
      value = next;
    }
    this.values.set(name, value);
    return value;
  }

  /** The words of `appraisal …` with every placeholder replaced. */
  async words(words: readonly string[]): Promise<string[]> {
    const nounFamily = FAMILY_OF_NOUN[words[0] ?? ''] ?? 'property';
    const out: string[] = [];
    for (const [index, word] of words.entries()) {
      if (word === EXAMPLE_UUID) {
        const family = FAMILY_OF_FLAG[words[index - 1] ?? ''] ?? nounFamily;
        out.push(await this.value(`${family}:${word}`, family));
        continue;
      }
      if (words.includes('unlink') && /^(ASSIGNMENT|PROPERTY)_ID$/.test(word)) {
        const pair = this.values.get('linked') ?? JSON.stringify(linked.shift());
        this.values.set('linked', pair);
        const { id, propertyIds } = JSON.parse(pair) as { id: string; propertyIds: string[] };
        out.push(word === 'ASSIGNMENT_ID' ? id : propertyIds[0]!);
        continue;
      }
      let text = word;
      for (const match of word.match(/\b(?:CLIENT|PROPERTY|ASSIGNMENT|FILE)_ID\b/g) ?? []) {
        const family = match.slice(0, -3).toLowerCase() as Family;
        text = text.replace(match, await this.value(match, family));
      }
      if (/\bID\b/.test(text)) {
        const family = (text === 'ID' && FAMILY_OF_FLAG[words[index - 1] ?? '']) || nounFamily;
        text = text.replace(/\bID\b/g, await this.value(`${family}:ID`, family));
      }
      if (/^apk_AbCd\w+$/.test(text)) text = await this.value(text, 'key', true);
      if (/^https:\/\/[\w.-]*example\.com$/.test(text)) text = mock.baseUrl;
      out.push(text);
    }
    return out;
  }
}

/** `~` and the absolute paths the examples name (/data, /var), inside the sandbox. */
function localPath(sandbox: Sandbox, word: string): string {
  if (word === '~' || word.startsWith('~/')) return sandbox.home + word.slice(1);
  if (/^\/(?:data|var)\//.test(word)) return sandbox.root + word;
  return word;
}

/** What the program an example pipes into would need of stdout. */
function expectConsumerReads(consumer: readonly string[], stdout: string, context: string): void {
  const text = stdout.trim();
  if (consumer[0] !== 'jq') {
    expect(text, `${context}: nothing for ${consumer[0]} to read`).not.toBe('');
    return;
  }
  // jq reads a JSON document or NDJSON, one per line (nothing at all when the list was empty).
  const whole = (() => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  })();
  if (whole || text === '') return;
  for (const line of text.split('\n')) expect(() => JSON.parse(line), `${context}: jq reads JSON`).not.toThrow();
}

async function runAppraisal(
  example: Example,
  sandbox: Sandbox,
  command: SimpleCommand,
  words: string[],
  options: { cwd: string; stdin?: string },
): Promise<RunResult> {
  const meant = MEANT[example.text];
  const controller = new AbortController();
  if (meant?.stopWhen) await admin.clearRequests();
  const typed = meant?.terminal === NEW_KEY ? `${(await admin.createKey(['api:admin'], 'examples typed')).secret}\n` : meant?.terminal;
  const stopping = meant?.stopWhen?.(sandbox).then(() => controller.abort());
  const result = await run(words, {
    env: { ...sandbox.env, ...command.assignments },
    cwd: options.cwd,
    stdin: typed ?? options.stdin,
    tty: meant?.terminal !== undefined,
    signal: controller.signal,
  });
  controller.abort();
  await stopping?.catch(() => undefined);
  return result;
}

/** Runs every command of the line as a shell would (`&&`: stops at the first failure). */
async function runExample(example: Example, sandbox: Sandbox): Promise<RunResult> {
  const variables: Record<string, string> = { HOME: sandbox.home, 'fpath[1]': join(sandbox.home, '.zfunc') };
  const expand = (word: string) =>
    expandVariables(word, (name) => {
      if (variables[name] === undefined) throw new Error(`$${name} is not set in: ${example.text}`);
      return variables[name]!;
    });
  const placeholders = new Placeholders();
  let cwd = sandbox.work;
  let last: RunResult | undefined;
  for (const pipeline of readCommandLine(example.text, NOW)) {
    const [first, ...rest] = pipeline;
    const words = first!.words.map(expand);
    if (pipeline.length === 1 && words.length === 0) {
      for (const [name, value] of Object.entries(first!.assignments)) variables[name] = expand(value);
      continue;
    }
    if (pipeline.length === 1 && words[0] === 'cd' && words.length === 2) {
      cwd = localPath(sandbox, words[1]!);
      continue;
    }
    if (pipeline.length === 1 && words[0] === 'mkdir' && words[1] === '-p' && words.length === 3) {
      const target = localPath(sandbox, words[2]!);
      mkdirSync(target.startsWith('/') ? target : join(cwd, target), { recursive: true });
      continue;
    }
    if (pipeline.length === 1 && words[0] === 'ln' && words[1] === '-sfn' && words.length === 4) {
      rmSync(join(cwd, words[3]!), { force: true, recursive: false });
      symlinkSync(words[2]!, join(cwd, words[3]!));
      continue;
    }
    let stdin: string | undefined;
    let commands = pipeline;
    if (words[0] === 'printenv' && words.length === 2 && rest.length > 0) {
      stdin = `${(await admin.createKey(['api:admin'], `examples ${words[1]}`)).secret}\n`;
      commands = rest;
    }
    const [command, ...consumers] = commands;
    const inner = command!.substituted ?? command!;
    const substituted = command!.substituted !== undefined;
    if (inner.words[0] !== 'appraisal' || (substituted && command!.words.join(' ') !== 'source')) {
      throw new Error(`a command this test cannot run (put the example in NOT_RUN with why): ${example.text}`);
    }
    const argv = (await placeholders.words(inner.words.slice(1).map(expand))).map((word) => localPath(sandbox, word));
    const context = `${example.text}\n  (${example.sources.join(', ')})\n  ran: appraisal ${argv.join(' ')}`;
    last = await runAppraisal(example, sandbox, inner, argv, { cwd, stdin });
    if (last.code !== 0) return last;
    if (command!.redirect) {
      const target = localPath(sandbox, expand(command!.redirect.path));
      const path = target.startsWith('/') ? target : join(cwd, target);
      (command!.redirect.append ? appendFileSync : writeFileSync)(path, last.stdout);
    }
    if (substituted) expectConsumerReads(['source'], last.stdout, context);
    for (const consumer of consumers) expectConsumerReads(consumer.words, last.stdout, context);
  }
  if (!last) throw new Error(`no appraisal command in: ${example.text}`);
  return last;
}

/** Examples that store a key in the OS keychain, or report on a profile kept there (doctor). */
function usesKeychain(example: Example): boolean {
  return (/\bauth login\b/.test(example.text) && !example.text.includes('--insecure-storage')) || /^appraisal doctor\b/.test(example.text);
}

/** The keychain entry an example made goes with it (the keychain is shared by every example). */
async function inKeychain(example: Example, sandbox: Sandbox, body: () => Promise<void>): Promise<void> {
  const profile = /--profile (\S+)/.exec(example.text)?.[1] ?? 'default';
  const env = { env: sandbox.env, cwd: sandbox.work };
  try {
    if (example.text.startsWith('appraisal doctor')) {
      // doctor's "all is well" is a profile whose key is in the keychain, as a person's would be.
      const key = await admin.createKey(['api:admin'], 'examples doctor');
      const login = await run(['auth', 'login', '--profile', profile, '--with-key'], { ...env, stdin: `${key.secret}\n` });
      expect(login.code, login.stderr).toBe(0);
    }
    await body();
  } finally {
    const logout = await run(['auth', 'logout', '--profile', profile], env);
    expect(logout.code, logout.stderr).toBe(0);
  }
}

describe('every example of every --help, the README and docs/ runs against the mock', () => {
  for (const example of examples) {
    if (NOT_RUN[example.text] !== undefined) continue;
    const keychain = usesKeychain(example);
    const name = `${example.text}  [${example.sources.join(', ')}]${keychain && !hasKeyring ? ' [skipped: needs the OS keychain; `npm test` has one]' : ''}`;
    it.skipIf(keychain && !hasKeyring)(name, async () => {
      const sandbox = sandboxFor(example.text, template);
      onTestFinished(() => rmSync(sandbox.root, { recursive: true, force: true }));
      // The checks file the example reads is the one shown beside it: smoke --help's, or docs/CI.md's.
      writeFileSync(
        join(sandbox.work, 'smoke.json'),
        example.helpOf === 'smoke' ? await checksFileOfHelp() : jsonBlockOf('docs/CI.md', '"checks"'),
      );
      // A rotation revokes its profile's key: that profile gets a key no other example holds.
      if (/\bkeys rotate\b/.test(example.text))
        await loginProfiles(mock, sandbox.root, [/--profile (\S+)/.exec(example.text)?.[1] ?? 'default']);
      const check = async () => {
        const result = await runExample(example, sandbox);
        const meant = MEANT[example.text];
        const context = `${example.text}\n  (${example.sources.join(', ')})\nstdout: ${result.stdout.slice(0, 2000)}\nstderr: ${result.stderr}`;
        expect(result.code, context).toBe(meant?.code ?? 0);
        expect(exitProblems(result, { interrupted: meant?.code === 130 }), context).toEqual([]);
      };
      if (keychain) await inKeychain(example, sandbox, check);
      else await check();
    });
  }
});

describe('the tables of this test match the examples shown', () => {
  const texts = new Set(examples.map((example) => example.text));
  it('every example found', () => {
    expect(examples.length).toBeGreaterThan(100);
    expect(examples.some((example) => example.sources.some((source) => source.startsWith('README.md')))).toBe(true);
  });
  it.each(Object.entries(NOT_RUN))('not run: %s — %s', (text, reason) => {
    expect(texts.has(text), `NOT_RUN names an example no longer shown: ${text}`).toBe(true);
    expect(reason.length).toBeGreaterThan(10);
  });
  it.each(Object.entries(MEANT).map(([text, meant]) => [text, meant.why]))('meant: %s — %s', (text) => {
    expect(texts.has(text), `MEANT names an example no longer shown: ${text}`).toBe(true);
    expect(NOT_RUN[text], `${text} is both run and not run`).toBeUndefined();
  });
});
