// Random command lines against the real binary and the bundled mock: any command, random flags
// (known and invented) with random values, ids, `--data` payloads and file paths, and random stdin.
// Whatever the input, the process exits with a documented code, never prints a stack trace, and a
// failure ends stderr with one `error:` line (and at most one `hint:`).
//
// Safety: the CLI runs in a scratch directory with a private HOME and TMPDIR; every path it may
// write (--out, --junit, --state-file, --audit-log) is relative or a known harmless one; the mock
// is its only server; `--exec` (a shell command) and the long-running `mock` are never generated.
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../../helpers/env.js';
import { exitProblems } from '../../helpers/exit-shape.js';
import { tempDir } from '../../helpers/temp.js';
import { startMock, type MockServer } from '../../helpers/mock.js';
import { anyText, apiKey } from './in-process.js';
import type { CommandOutcome, CommandRunner } from './runner.js';

export interface CliFuzzFixture {
  mock: MockServer;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Every command of the tree (the leaves), from `completion bash`. */
  commandPaths: string[];
  ids: string[];
  /** The flags each command path takes ('': all the root's, '*': the ones every command takes), from the completion script. */
  flags: Map<string, string[]>;
  /** How many positional arguments each command takes (from its usage line), at least and at most. */
  arity: Map<string, { min: number; max: number }>;
  /** How often each exit code came up (FUZZ_STATS=1 prints it): is the input reaching the service? */
  exitCodes: Map<number | null, number>;
  /** Runs each case (spawned or in process). */
  runner: CommandRunner;
  stop(): Promise<void>;
}

export async function startCliFuzzFixture(runner: CommandRunner): Promise<CliFuzzFixture> {
  const mock = await startMock({ records: 8, seed: 21 });
  const cwd = tempDir('appraisal-fuzz-cwd-');
  const tmp = tempDir('appraisal-fuzz-tmp-');
  mkdirSync(join(cwd, 'a-directory'));
  writeFileSync(join(cwd, 'record.json'), '{"name":"From a file"}');
  writeFileSync(join(cwd, 'broken.json'), '{"name":');
  writeFileSync(join(cwd, 'report.pdf'), '%PDF-1.4\n%%EOF\n');
  const env = { ...isolatedEnv(mock.env), TMPDIR: tmp, APPRAISAL_NO_INPUT: '1', APPRAISAL_RETRY_BASE_MS: '10' };
  const completion = await runner(['completion', 'bash'], { env, cwd });
  const childLine = /^\s*'[^'|]*\|[^']*'(?:\|'[^']*')*\) printf '%s\\n' '([a-z][a-z -]*)' ;;$/gm;
  const childSection = completion.stdout.slice(completion.stdout.indexOf('_appraisal_child() {'));
  const allPaths = [...new Set([...childSection.slice(0, childSection.indexOf('\n}\n')).matchAll(childLine)].map((m) => m[1]!))];
  // The commands that run (a noun alone only prints its help).
  const commandPaths = allPaths.filter((path) => !allPaths.some((other) => other.startsWith(`${path} `)));
  const flagSection = completion.stdout.slice(completion.stdout.indexOf('_appraisal_flags() {'));
  const flagLine = /^\s*'([^']*)'\) printf '%s\\n' '([^']*)' ;;$/gm;
  const flags = new Map<string, string[]>();
  for (const match of flagSection.slice(0, flagSection.indexOf('esac')).matchAll(flagLine)) flags.set(match[1]!, match[2]!.split(' '));
  const arity = new Map<string, { min: number; max: number }>();
  for (const path of commandPaths) {
    const usage = /^Usage: appraisal (.*)$/m.exec((await runner([...path.split(' '), '--help'], { env, cwd })).stdout)?.[1] ?? '';
    const words = usage.split(' ').filter((word) => word !== '[options]' && word !== '[command]');
    arity.set(path, {
      min: words.filter((w) => w.startsWith('<')).length,
      max: words.filter((w) => w.startsWith('<') || w.startsWith('[')).length,
    });
  }
  const list = await runner(['props', 'list', '--max-items', '3', '-o', 'json'], { env, cwd });
  const ids = (JSON.parse(list.stdout) as Array<{ id: string }>).map((record) => record.id);
  return { mock, env, cwd, commandPaths, ids, flags, arity, exitCodes: new Map(), runner, stop: () => mock.stop() };
}

/** A string the OS can pass as an argument (no NUL), never an absolute path or a way up. */
function safeArg(text: string): string {
  const clean = text.replace(/\u0000/g, '');
  return clean.startsWith('/') || clean.includes('..') ? `.${clean.replace(/\.\./g, '_')}` : clean;
}

function valueArb(fixture: CliFuzzFixture) {
  return fc.oneof(
    { weight: 4, arbitrary: anyText.map(safeArg) },
    { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt()).map(String) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.constantFrom(...fixture.ids) },
    { weight: 1, arbitrary: apiKey },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        '-',
        '--',
        '0',
        '-1',
        '1e309',
        'NaN',
        '99999999999999999999',
        'x'.repeat(10_000),
        'a-directory',
        'record.json',
        '@record.json',
        '@broken.json',
        '@a-directory',
        '@missing.json',
        'report.pdf',
        'missing.pdf',
        '/dev/null',
        '/nonexistent/dir/file',
        'out/file.csv',
        'https://127.0.0.1:1',
        'http://user:pw@127.0.0.1:1',
        'ftp://x',
        '::::',
        '{"a":',
        '[]',
        'null',
        '{"name":"x"}',
        `${'['.repeat(3000)}${']'.repeat(3000)}`,
        'api:read',
        'api:admin,keys:admin',
        '90d',
        '2026-01-01T00:00:00Z',
        'props',
        'GET',
        '/api/properties',
      ),
    },
  );
}

const SWITCHES = [
  '--allow-partial',
  '-v',
  '--verbose',
  '-q',
  '--quiet',
  '--no-color',
  '-y',
  '--yes',
  '--no-input',
  '--help',
  '-h',
  '-V',
  '--version',
];
const COMMAND_FLAGS = [
  '--data',
  '-d',
  '-f',
  '--field',
  '-F',
  '--typed-field',
  '--client',
  '--property',
  '--assignment',
  '--name',
  '--content-type',
  '--q',
  '--type',
  '--updated-since',
  '--status',
  '--scope',
  '--expires-in',
  '--expires-at',
  '--store-as',
  '--force',
  '--with-key',
  '--insecure-storage',
  '--environment',
  '--keep-old',
  '--audit-log',
  '--interval',
  '--state-file',
  '--since',
  '--emit-existing',
  '--max-polls',
  '--full-every',
  '-H',
  '--header',
  '--all',
  '-i',
  '--include',
  '--spec',
  '--strict',
  '--list',
  '--junit',
  '--write',
];

/** Values a user would plausibly give a flag; undefined for a switch. */
function plausibleValues(fixture: CliFuzzFixture): Record<string, fc.Arbitrary<string>> {
  const id = fc.oneof(fc.constantFrom(...fixture.ids), fc.uuid());
  const int = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: -1, max: 200 })).map(String);
  return {
    '--output': fc.constantFrom('json', 'ndjson', 'csv', 'table', 'yaml'),
    '--fields': fc.constantFrom('id', 'id,name', 'address.city,id', 'nope', ',', 'a..b'),
    '--page': int,
    '--page-size': int,
    '--max-items': int,
    '--concurrency': int,
    '--retries': fc.constantFrom('0', '1'),
    '--timeout': fc.constantFrom('5', '0', '0.5', 'soon'),
    '--profile': fc.constantFrom('default', 'nobody', 'staging'),
    '--base-url': fc.constantFrom(fixture.mock.baseUrl, 'https://127.0.0.1:1', 'http://user:pw@127.0.0.1:1', 'ftp://x', 'not a url'),
    '--ca-file': fc.constantFrom('report.pdf', 'missing.pem', 'a-directory'),
    '--max-response-size': fc.constantFrom('64MiB', '1KiB', '512', 'lots'),
    '--min-rate': fc.constantFrom('30KiB/30s', '1KiB/1s', '0', '1KiB', 'fast'),
    '--api-key-file': fc.constantFrom('-', 'missing.key', 'report.pdf', 'a-directory'),
    '--data': fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constantFrom('{"name":"Fuzz Tower"}', '@record.json', '@broken.json', '-', '{"id":1}'),
    ),
    '--field': fc
      .tuple(fc.constantFrom('name', 'address.city', 'a.b.c', 'x', 'fee.amount', '__proto__.x'), fc.string({ maxLength: 8 }))
      .map(([k, v]) => `${k}=${safeArg(v)}`),
    '--typed-field': fc
      .tuple(fc.constantFrom('yearBuilt', 'x', 'a.b'), fc.constantFrom('1', 'true', 'null', '[1]', '{', 'x'))
      .map(([k, v]) => `${k}=${v}`),
    '--client': id,
    '--property': id,
    '--assignment': id,
    '--name': fc.string({ maxLength: 20 }).map(safeArg),
    '--content-type': fc.constantFrom('application/pdf', 'text/plain', 'nonsense', 'a/b; c=d'),
    '--scope': fc.constantFrom('api:read', 'api:admin', 'nope', 'properties:read,files:write'),
    '--expires-in': fc.constantFrom('90d', '1h', '0d', 'soon', '-1d'),
    '--expires-at': fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constantFrom('tomorrow'),
    ),
    '--updated-since': fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constantFrom('yesterday', '2026-13-40'),
    ),
    '--since': fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constantFrom('yesterday'),
    ),
    '--q': fc.string({ maxLength: 10 }).map(safeArg),
    '--type': fc.constantFrom('office', 'multi_family', 'lender', 'nope'),
    '--status': fc.constantFrom('draft', 'completed', 'nope'),
    '--environment': fc.constantFrom('local', 'staging', 'production', 'moon'),
    '--store-as': fc.constantFrom('default', 'other'),
    '--out': fc.constantFrom('out.json', 'out.csv', 'a-directory', 'out/deeper.json', '/dev/null', 'record.json'),
    '--state-file': fc.constantFrom('state.json', 'a-directory'),
    '--junit': fc.constantFrom('smoke.xml', 'a-directory'),
    '--audit-log': fc.constantFrom('audit.jsonl', 'a-directory'),
    '--interval': fc.constantFrom('1s', '5m', 'never'),
    '--max-polls': int,
    '--full-every': int,
    '--header': fc.constantFrom('x-trace: 1', 'x-api-key: x', 'bad header', 'accept: text/html'),
    '--spec': fc.constantFrom('record.json', 'missing.json'),
  };
}

/** The switches: flags that take no value. */
const SWITCH_NAMES = new Set([
  '--allow-partial',
  '--verbose',
  '--quiet',
  '--no-color',
  '--yes',
  '--no-input',
  '--help',
  '--version',
  '--with-key',
  '--insecure-storage',
  '--keep-old',
  '--force',
  '--all',
  '--include',
  '--strict',
  '--list',
  '--emit-existing',
  '--once',
  '--write',
]);

function argvArb(fixture: CliFuzzFixture) {
  const value = valueArb(fixture);
  const values = plausibleValues(fixture);
  // Any global option (the root's, with a value or not) on any command: one a command does not take is a usage error.
  const globalFlags = (fixture.flags.get('') ?? []).filter((name) => !SWITCH_NAMES.has(name));
  const chaosFlag = fc.oneof(
    fc.tuple(fc.constantFrom(...globalFlags, ...COMMAND_FLAGS), value).map(([name, v]) => [name, v]),
    fc.constantFrom(...SWITCHES).map((name) => [name]),
    fc.tuple(fc.constantFrom(...globalFlags, ...COMMAND_FLAGS), value).map(([name, v]) => [`${name}=${v}`]),
    fc.stringMatching(/^--?[a-zA-Z][a-zA-Z-]{0,12}$/).map((name) => [name]),
  );
  /** A flag this command takes (its own or one every command takes), mostly with a plausible value. */
  const validFlag = (command: string) => {
    const names = [...(fixture.flags.get(command) ?? []), ...(fixture.flags.get('*') ?? [])].filter(
      (name) => name !== '--exec' && name !== '--help' && name !== '--version',
    );
    return fc.constantFrom(...names).chain((name): fc.Arbitrary<string[]> => {
      if (SWITCH_NAMES.has(name)) return fc.constant([name]);
      const plausible = values[name];
      return (plausible ? fc.oneof({ weight: 8, arbitrary: plausible }, { weight: 1, arbitrary: value }) : value).map((v) => [name, v]);
    });
  };
  const positional = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...fixture.ids) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: value },
  );
  // Never a server of its own, never a shell command.
  const paths = fixture.commandPaths.filter((path) => path !== 'mock' && path !== 'help');
  return fc
    .constantFrom(...paths, 'help', 'bogus')
    .chain((command) =>
      fc.record({
        command: fc.constant(command),
        positionals: fc.oneof(
          {
            weight: 4,
            arbitrary: fc.array(positional, {
              minLength: fixture.arity.get(command)?.min ?? 0,
              maxLength: fixture.arity.get(command)?.max ?? 2,
            }),
          },
          { weight: 1, arbitrary: fc.array(positional, { maxLength: 3 }) },
        ),
        flags: fc.array(fc.oneof({ weight: 8, arbitrary: validFlag(command) }, { weight: 1, arbitrary: chaosFlag }), { maxLength: 3 }),
        stdin: fc.option(
          fc.oneof(
            anyText,
            apiKey,
            fc.jsonValue().map((v) => JSON.stringify(v)),
          ),
          { nil: undefined },
        ),
      }),
    )
    .map(({ command, positionals, flags, stdin }) => {
      const argv = [...command.split(' '), ...positionals, ...flags.flat()].filter((arg) => arg !== '--exec');
      // A watch runs until stopped: always once.
      if (command === 'watch') argv.push('--once');
      // Commands that call the service get a bounded wait (the others refuse --timeout).
      if (fixture.flags.get(command)?.includes('--timeout')) argv.push('--timeout', '10');
      return { argv, stdin };
    });
}

export function cliArgsProperty(fixture: CliFuzzFixture) {
  return fc.asyncProperty(argvArb(fixture), async ({ argv, stdin }) => {
    const result: CommandOutcome = await fixture.runner(argv, { env: fixture.env, cwd: fixture.cwd, stdin });
    fixture.exitCodes.set(result.code, (fixture.exitCodes.get(result.code) ?? 0) + 1);
    const problems = exitProblems(result);
    if (problems.length > 0) {
      throw new Error(
        `appraisal ${JSON.stringify(argv).slice(0, 2000)}\n→ exit ${result.code}: ${problems.join('; ')}\nstderr:\n${result.stderr.slice(0, 4000)}`,
      );
    }
    return true;
  });
}
