// Shell completion and help, in process: the bash script is sourced in a real bash and its function
// asked directly (COMP_WORDS), the zsh and fish scripts parse in their shells (typed completion in a
// real terminal, with the built binary, is completion-shells.test.ts); every command's --help has
// examples; the help topics print the exit-code table the CLI itself maps errors with.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODE_TABLE } from '../../src/core/exit-codes.js';
import { run } from '../helpers/run.js';
import { isolatedEnv } from '../helpers/env.js';
import { requires } from '../helpers/terminal.js';
import { tempDir } from '../helpers/temp.js';

const zsh = requires('zsh');
const fish = requires('fish');

let scriptPath: string;
let shimDir: string;
let configEnv: Record<string, string | undefined>;
let work: string | undefined;

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  if (configEnv?.HOME) rmSync(configEnv.HOME, { recursive: true, force: true });
});

beforeAll(async () => {
  configEnv = isolatedEnv();
  const dir = configEnv.APPRAISAL_CONFIG_DIR!;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      profiles: {
        staging: { baseUrl: 'https://staging.example.com', environment: 'staging' },
        local: { baseUrl: 'https://localhost:4000', environment: 'local' },
      },
    }),
    { mode: 0o600 },
  );
  const result = await run(['completion', 'bash'], { env: configEnv });
  expect(result.code, result.stderr).toBe(0);
  work = tempDir('completion-e2e-');
  scriptPath = join(work, 'appraisal.bash');
  writeFileSync(scriptPath, result.stdout);
  // `appraisal` on PATH, as after `npm install -g`: what the bash function runs for profile names,
  // `appraisal completion __profiles`, answers with what the CLI printed for it (in process, with
  // the test's private config dir); any other command line fails, so the function must ask just that.
  const profiles = await run(['completion', '__profiles'], { env: configEnv });
  expect(profiles.code, profiles.stderr).toBe(0);
  writeFileSync(join(work, 'profiles.txt'), profiles.stdout);
  shimDir = join(work, 'bin');
  mkdirSync(shimDir);
  writeFileSync(
    join(shimDir, 'appraisal'),
    `#!/bin/sh\n[ "$*" = 'completion __profiles' ] || { echo "appraisal stand-in: unexpected $*" >&2; exit 1; }\nexec cat '${join(work, 'profiles.txt')}'\n`,
  );
  chmodSync(join(shimDir, 'appraisal'), 0o755);
});

/**
 * Source the script in a clean bash, find the completion function through `complete -p appraisal`,
 * set COMP_WORDS/COMP_CWORD for `line` (the cursor at its end), and return COMPREPLY.
 */
function completeLine(line: string): string[] {
  const words = line.split(' ');
  const driver = [
    'source "$1"; shift',
    'spec="$(complete -p appraisal)" || exit 3',
    'fn="${spec##*-F }"; fn="${fn%% *}"',
    'COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()',
    '"$fn" appraisal "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', driver, 'driver', scriptPath, ...words], {
    encoding: 'utf8',
    env: { PATH: `${shimDir}:${process.env.PATH ?? ''}`, HOME: tmpdir() },
  });
  return out.split('\n').filter(Boolean);
}

describe('appraisal completion', () => {
  it('bash: the script passes bash -n and registers a completion function for appraisal', () => {
    expect(spawnSync('bash', ['-n', scriptPath], { encoding: 'utf8' }).status).toBe(0);
    const spec = execFileSync('bash', ['--norc', '-c', 'source "$1" && complete -p appraisal', 'x', scriptPath], { encoding: 'utf8' });
    expect(spec.trim()).toBe('complete -F _appraisal appraisal');
  });

  it('bash: `appraisal pr<TAB>` completes to props and profiles', () => {
    expect(completeLine('appraisal pr').sort()).toEqual(['profiles', 'props']);
  });

  it('bash: sub-commands, also through an alias', () => {
    expect(completeLine('appraisal props ')).toEqual(['list', 'get', 'create', 'update', 'delete', 'import']);
    expect(completeLine('appraisal properties ')).toEqual(['list', 'get', 'create', 'update', 'delete', 'import']);
    expect(completeLine('appraisal completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(completeLine('appraisal help exit')).toEqual(['exit-codes']);
  });

  it('bash: flags, output formats and profile names', () => {
    expect(completeLine('appraisal props list --upd')).toEqual(['--updated-since']);
    expect(completeLine('appraisal smoke --ju')).toEqual(['--junit']);
    expect(completeLine('appraisal props list -o ')).toEqual(['table', 'json', 'ndjson', 'csv', 'parquet']);
    expect(completeLine('appraisal --output nd')).toEqual(['ndjson']);
    expect(completeLine('appraisal --profile ').sort()).toEqual(['local', 'staging']);
    expect(completeLine('appraisal -p st props l')).toEqual(['list']);
    expect(completeLine('appraisal profiles use ').sort()).toEqual(['local', 'staging']);
    expect(completeLine('appraisal api P')).toEqual(['POST', 'PUT', 'PATCH']);
  });

  it('the hidden `completion __profiles` lists profile names and nothing else', async () => {
    const result = await run(['completion', '__profiles'], { env: configEnv });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual(['local', 'staging']);
    const help = await run(['completion', '--help']);
    expect(help.stdout).not.toContain('__profiles');
  });

  it('zsh: a #compdef script running the bash functions', async () => {
    const result = await run(['completion', 'zsh']);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith('#compdef appraisal\n')).toBe(true);
    expect(result.stdout).toContain('complete -F _appraisal_bash appraisal');
  });

  it.skipIf(zsh.skip)(`zsh: the script parses (zsh -n)${zsh.reason}`, async () => {
    const result = await run(['completion', 'zsh']);
    const parsed = spawnSync('zsh', ['-n'], { input: result.stdout, encoding: 'utf8' });
    expect(parsed.error, 'zsh must be installed under CI').toBeUndefined();
    expect(parsed.stderr).toBe('');
    expect(parsed.status).toBe(0);
  });

  it('fish: complete lines', async () => {
    const result = await run(['completion', 'fish']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("complete -c appraisal -n '__appraisal_at \\'\\'' -a 'props'");
    expect(result.stdout).toContain("-l output -x -a 'table json ndjson csv parquet'");
    expect(result.stdout).toContain('(appraisal completion __profiles 2>/dev/null)');
  });

  it.skipIf(fish.skip)(`fish: the script parses (fish --no-execute)${fish.reason}`, async () => {
    const result = await run(['completion', 'fish']);
    // From a file: fish 3.6 cannot read a script from node's stdin socket ("Is a directory").
    const file = join(dirname(scriptPath), 'appraisal.fish');
    writeFileSync(file, result.stdout);
    const parsed = spawnSync('fish', ['--no-execute', file], { encoding: 'utf8' });
    expect(parsed.error, 'fish must be installed under CI').toBeUndefined();
    expect(parsed.stderr).toBe('');
    expect(parsed.status).toBe(0);
  });

  it('an unknown shell is a usage error', async () => {
    const result = await run(['completion', 'powershell']);
    expect(result.code).toBe(2);
  });
});

describe('help', () => {
  it('`appraisal help exit-codes` prints every row of the exit-code table errors are mapped with', async () => {
    const result = await run(['help', 'exit-codes']);
    expect(result.code).toBe(0);
    const codes = [...result.stdout.matchAll(/^\s+(\d+)\s+\S/gm)].map((m) => Number(m[1]));
    expect(codes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 21, 22, 23, 24, 130]);
    expect(result.stdout).toMatch(/^\s+8\s+429 or 5xx still failing after retries$/m);
    // The CLI's own table (src/core/exit-codes.ts), not a copy: every code with its meaning.
    expect(EXIT_CODE_TABLE).toHaveLength(19);
    for (const { code, meaning } of EXIT_CODE_TABLE) {
      const line = result.stdout.split('\n').find((l) => l.trim().split(/\s+/)[0] === String(code));
      expect(line, `exit code ${code}`).toBeDefined();
      expect(line!.replace(/^\s*\d+\s+/, '')).toContain(meaning.slice(0, 20));
    }
  });

  it('`appraisal help environment` prints the environment variables', async () => {
    const result = await run(['help', 'environment']);
    expect(result.code).toBe(0);
    for (const name of [
      'APPRAISAL_PROFILE',
      'APPRAISAL_BASE_URL',
      'APPRAISAL_API_KEY',
      'APPRAISAL_TOKEN',
      'APPRAISAL_CA_FILE',
      'APPRAISAL_TIMEOUT',
      'APPRAISAL_DEBUG',
      'APPRAISAL_NO_INPUT',
      'NO_COLOR',
      'HTTPS_PROXY',
    ]) {
      expect(result.stdout).toContain(name);
    }
  });

  it('`appraisal help api` shows the command help; an unknown topic is exit 2', async () => {
    const api = await run(['help', 'api']);
    expect(api.code).toBe(0);
    expect(api.stdout).toContain('Usage: appraisal api');
    const unknown = await run(['help', 'nonsense']);
    expect(unknown.code).toBe(2);
  });

  it('every command (each leaf of the tree) has examples in its --help', { timeout: 180_000 }, async () => {
    /** The sub-command names listed under "Commands:" in a help text. */
    const subcommands = (help: string): string[] => {
      const section = help.split(/^Commands:\n/m)[1];
      if (!section) return [];
      return section
        .split(/\n\S/)[0]!
        .split('\n')
        .map((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1])
        .filter((name): name is string => name !== undefined && name !== 'help');
    };
    const root = await run(['--help']);
    const missing: string[] = [];
    let level = subcommands(root.stdout).map((name) => [name]);
    expect(level.length).toBeGreaterThan(5);
    while (level.length > 0) {
      const next: string[][] = [];
      // A few at a time: each is a process start.
      for (let i = 0; i < level.length; i += 6) {
        const batch = level.slice(i, i + 6);
        const results = await Promise.all(batch.map((path) => run([...path, '--help'])));
        results.forEach((result, j) => {
          const path = batch[j]!;
          expect(result.code, `${path.join(' ')} --help`).toBe(0);
          const subs = subcommands(result.stdout);
          // A command that runs something shows how; a group of sub-commands lists them instead.
          if (subs.length === 0 && !/^Examples:\n {2}\$ \S*.*appraisal /m.test(result.stdout)) missing.push(path.join(' '));
          for (const sub of subs) next.push([...path, sub]);
        });
      }
      level = next;
    }
    expect(missing).toEqual([]);
  });
});
