import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { bashScript } from '../../../../src/commands/completion/bash.js';
import { fishScript } from '../../../../src/commands/completion/fish.js';
import { describeTree } from '../../../../src/commands/completion/tree.js';
import { zshScript } from '../../../../src/commands/completion/zsh.js';
import { OUTPUT_FORMATS } from '../../../../src/core/global-options.js';
import { requires } from '../../../helpers/terminal.js';
import { run } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/temp.js';

const work = tempDir('completion-unit-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const zsh = requires('zsh');
const fish = requires('fish');

/** A small tree shaped like the real one: global flags, a noun with an alias, verbs, a hidden command. */
function program(): Command {
  const root = new Command('appraisal').version('1.0.0', '-V, --version');
  root
    .option('-p, --profile <name>', 'profile')
    .addOption(new Option('-o, --output <format>', 'format').choices(OUTPUT_FORMATS))
    .option('--out <path>', 'file')
    .option('-v, --verbose', 'more');
  const props = root.command('props').alias('properties').description('Properties');
  props.command('list').description('list').option('--type <propertyType>', 'type');
  props.command('get').argument('<id>');
  root.command('profiles').description('Profiles').command('use').argument('<name>', 'profile name');
  const files = root.command('files');
  files.command('upload').argument('<path>', 'file to upload');
  const completion = root.command('completion');
  completion.command('bash');
  completion.command('zsh');
  completion.addCommand(new Command('__profiles'), { hidden: true });
  root.command('help [topic...]');
  root.command('api').argument('[METHOD]').argument('[PATH]');
  root.command('cat').argument('<id>').argument('<path...>');
  return root;
}

const INFO = { program: 'appraisal', version: '1.0.0' };

describe('describeTree', () => {
  it('reads commands, aliases, flags and value sources from commander', () => {
    const tree = describeTree(program());
    expect(tree.children.map((c) => c.name)).toEqual(['props', 'profiles', 'files', 'completion', 'help', 'api', 'cat']);
    const props = tree.children[0]!;
    expect(props.aliases).toEqual(['properties']);
    expect(props.children.map((c) => c.path)).toEqual(['props list', 'props get']);
    expect(tree.flags.find((f) => f.long === '--profile')!.value).toEqual({ kind: 'profiles' });
    expect(tree.flags.find((f) => f.long === '--output')!.value).toEqual({ kind: 'words', words: OUTPUT_FORMATS });
    expect(tree.flags.find((f) => f.long === '--out')!.value).toEqual({ kind: 'files' });
    expect(tree.flags.find((f) => f.long === '--verbose')!.value).toEqual({ kind: 'none' });
    expect(tree.flags.filter((f) => f.long === '--version')).toHaveLength(1);
    expect(tree.children[2]!.children[0]!.args).toEqual([{ kind: 'files' }]);
    expect(tree.children[1]!.children[0]!.args).toEqual([{ kind: 'profiles' }]);
    expect(tree.children[5]!.args).toEqual([{ kind: 'words', words: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] }, { kind: 'free' }]);
    expect(tree.children[6]!).toMatchObject({ args: [{ kind: 'free' }, { kind: 'files' }], variadic: true });
    // Hidden commands are not completed.
    expect(tree.children[3]!.children.map((c) => c.name)).toEqual(['bash', 'zsh']);
    const help = tree.children[4]!;
    expect(help.args).toMatchObject([{ kind: 'words', words: expect.arrayContaining(['exit-codes', 'environment', 'props', 'files']) }]);
  });
});

describe('options the root takes before a command only', () => {
  /** Like the real tree: the root takes every global option, shows only the general ones. */
  function scoped(): Command {
    const root = new Command('appraisal');
    root.option('-v, --verbose', 'more').addOption(new Option('-o, --output <format>', 'format').choices(OUTPUT_FORMATS).hideHelp());
    const props = root.command('props');
    props
      .command('list')
      .addOption(new Option('-o, --output <format>', 'format').choices(OUTPUT_FORMATS))
      .addOption(new Option('--delimiter <char>', 'csv separator'));
    props.command('get').argument('<id>');
    return root;
  }

  it('offers them at the root and where a command takes them, not after every command', () => {
    const tree = describeTree(scoped());
    expect(tree.flags.map((f) => f.long)).toEqual(expect.arrayContaining(['--verbose', '--output', '--help', '--version']));
    expect(tree.inherited!.map((f) => f.long)).toEqual(['--verbose', '--help']);
    const script = bashScript(tree, INFO);
    expect(complete(script, ['appraisal', '--o'])).toEqual(['--output']);
    expect(complete(script, ['appraisal', '-o', 'n'])).toEqual(['ndjson']);
    expect(complete(script, ['appraisal', '-o', 'json', 'props', ''])).toEqual(['list', 'get']);
    expect(complete(script, ['appraisal', 'props', 'list', '--o'])).toEqual(['--output']);
    expect(complete(script, ['appraisal', 'props', 'list', '-o', 'c'])).toEqual(['csv']);
    expect(complete(script, ['appraisal', 'props', 'list', '--delimiter', ''])).toEqual(['comma', 'semicolon', 'tab']);
    expect(complete(script, ['appraisal', 'props', 'get', '--'])).toEqual(['--verbose', '--help']);
    const fish = fishScript(tree, INFO);
    expect(fish).toContain("complete -c appraisal -n '__appraisal_at \\'\\'' -s o -l output");
    expect(fish).toMatch(/^complete -c appraisal -s v -l verbose/m);
  });
});

/** Source the script in bash, find the function through `complete -p`, and complete the words. */
function complete(script: string, words: string[], env: Record<string, string> = {}): string[] {
  const dir = mkdtempSync(join(work, 'completion-'));
  writeFileSync(join(dir, 'appraisal.bash'), script);
  const driver = `
source "$1"; shift
spec="$(complete -p appraisal)"
fn="\${spec##*-F }"; fn="\${fn%% *}"
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
"$fn" appraisal "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"
`;
  writeFileSync(join(dir, 'driver.bash'), driver);
  const out = execFileSync('bash', ['--norc', '--noprofile', join(dir, 'driver.bash'), join(dir, 'appraisal.bash'), ...words], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
    cwd: dir,
  });
  return out.split('\n').filter(Boolean);
}

describe('bash script', () => {
  const script = bashScript(describeTree(program()), INFO);

  it('passes bash -n', () => {
    const result = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('completes commands (not aliases), sub-commands through aliases, and flags', () => {
    expect(complete(script, ['appraisal', 'pr'])).toEqual(['props', 'profiles']);
    expect(complete(script, ['appraisal', 'props', ''])).toEqual(['list', 'get']);
    expect(complete(script, ['appraisal', 'properties', 'l'])).toEqual(['list']);
    expect(complete(script, ['appraisal', '-v', '--profile', 'x', 'props', ''])).toEqual(['list', 'get']);
    expect(complete(script, ['appraisal', 'props', 'list', '--t'])).toEqual(['--type']);
    expect(complete(script, ['appraisal', 'props', 'list', '--o'])).toEqual(['--output', '--out']);
    expect(complete(script, ['appraisal', 'completion', ''])).toEqual(['bash', 'zsh']);
    expect(complete(script, ['appraisal', 'help', 'ex'])).toEqual(['exit-codes']);
  });

  it('completes output formats after -o, --output and --output= (both ways bash may split it)', () => {
    expect(complete(script, ['appraisal', '-o', ''])).toEqual(['table', 'json', 'ndjson', 'csv', 'parquet']);
    expect(complete(script, ['appraisal', 'props', 'list', '--output', 'n'])).toEqual(['ndjson']);
    expect(complete(script, ['appraisal', '--output', '=', 'j'])).toEqual(['json']);
    expect(complete(script, ['appraisal', '--output', '='])).toEqual(['table', 'json', 'ndjson', 'csv', 'parquet']);
    expect(complete(script, ['appraisal', '--output=c'])).toEqual(['--output=csv']);
  });

  it('skips flag values while walking, so a value never reads as a command', () => {
    expect(complete(script, ['appraisal', '--output', '=', 'json', 'props', ''])).toEqual(['list', 'get']);
    expect(complete(script, ['appraisal', '-p', 'props', ''])).toEqual(['props', 'profiles', 'files', 'completion', 'help', 'api', 'cat']);
  });

  it('completes positional arguments by position', () => {
    expect(complete(script, ['appraisal', 'api', 'P'])).toEqual(['POST', 'PUT', 'PATCH']);
    expect(complete(script, ['appraisal', 'api', 'GET', ''])).toEqual([]);
    expect(complete(script, ['appraisal', 'cat', 'driv'])).toEqual([]);
    expect(complete(script, ['appraisal', 'cat', 'ID', 'driv'])).toEqual(['driver.bash']);
    expect(complete(script, ['appraisal', 'cat', 'ID', 'a', 'driv'])).toEqual(['driver.bash']);
  });

  it('completes profile names by asking the binary, and files where a path goes', () => {
    const bin = mkdtempSync(join(work, 'completion-bin-'));
    writeFileSync(join(bin, 'appraisal'), '#!/bin/sh\n[ "$1 $2" = "completion __profiles" ] && printf "default\\nstaging\\nprod-eu\\n"\n');
    chmodSync(join(bin, 'appraisal'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}` };
    expect(complete(script, ['appraisal', '--profile', ''], env)).toEqual(['default', 'staging', 'prod-eu']);
    expect(complete(script, ['appraisal', 'props', '-p', 's'], env)).toEqual(['staging']);
    expect(complete(script, ['appraisal', 'profiles', 'use', ''], env)).toEqual(['default', 'staging', 'prod-eu']);
    const files = complete(script, ['appraisal', 'files', 'upload', 'driv']);
    expect(files).toEqual(['driver.bash']);
    expect(complete(script, ['appraisal', '--out', 'appraisal.b'])).toEqual(['appraisal.bash']);
  });
});

describe("the CLI's own script", () => {
  it('completes the service options after a verb that takes them, though its help shows them as one line', async () => {
    const printed = await run(['completion', 'bash']);
    expect(printed.code, printed.stderr).toBe(0);
    const script = printed.stdout;
    expect(complete(script, ['appraisal', 'files', 'download', 'x', '--p'])).toEqual(['--profile']);
    expect(complete(script, ['appraisal', 'smoke', '--base'])).toEqual(['--base-url']);
    const bin = mkdtempSync(join(work, 'completion-bin-'));
    writeFileSync(join(bin, 'appraisal'), '#!/bin/sh\n[ "$1 $2" = "completion __profiles" ] && printf "local\\nstaging\\n"\n');
    chmodSync(join(bin, 'appraisal'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}` };
    expect(complete(script, ['appraisal', 'files', 'download', 'x', '--profile', ''], env)).toEqual(['local', 'staging']);
    // And no flag twice.
    const all = complete(script, ['appraisal', 'props', 'get', '--']);
    expect(all).toContain('--profile');
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('zsh and fish scripts', () => {
  const tree = describeTree(program());

  it('zsh: a #compdef file running the bash functions through bashcompinit', () => {
    const script = zshScript(tree, INFO);
    expect(script.startsWith('#compdef appraisal\n')).toBe(true);
    expect(script).toContain('bashcompinit');
    expect(script).toContain('complete -F _appraisal_bash appraisal');
    // The shared functions are plain POSIX-ish shell that bash parses too.
    const body = script.replace(/^if \[\[ "\$\{funcstack.*?\nfi\n/ms, '');
    expect(spawnSync('bash', ['-n'], { input: body, encoding: 'utf8' }).status).toBe(0);
  });

  it.skipIf(zsh.skip)(`zsh: parses (zsh -n)${zsh.reason}`, () => {
    const parsed = spawnSync('zsh', ['-n'], { input: zshScript(tree, INFO), encoding: 'utf8' });
    expect(parsed.error, 'zsh must be installed under CI').toBeUndefined();
    expect(parsed.stderr).toBe('');
    expect(parsed.status).toBe(0);
  });

  it('fish: complete lines for commands, flags and values, conditioned on the command path', () => {
    const script = fishScript(tree, INFO);
    expect(script).toContain("complete -c appraisal -n '__appraisal_at \\'\\'' -a 'props' -d 'Properties'");
    expect(script).toContain("complete -c appraisal -n '__appraisal_at \\'props\\'' -a 'list' -d 'list'");
    expect(script).toContain("complete -c appraisal -s o -l output -x -a 'table json ndjson csv parquet' -d 'format'");
    expect(script).toContain("complete -c appraisal -s p -l profile -x -a '(appraisal completion __profiles 2>/dev/null)' -d 'profile'");
    expect(script).toContain("complete -c appraisal -n '__appraisal_at \\'files upload\\'' -F");
    expect(script).toContain("case '|props' '|properties'");
    expect(script).not.toContain("__profiles' -d");
  });

  it.skipIf(fish.skip)(`fish: parses (fish --no-execute)${fish.reason}`, () => {
    // From a file: fish 3.6 cannot read a script from a socket on stdin (which is what node gives a
    // child): "Unable to read input file: Is a directory".
    const dir = tempDir('completion-fish-');
    try {
      writeFileSync(join(dir, 'appraisal.fish'), fishScript(tree, INFO));
      const result = spawnSync('fish', ['--no-execute', join(dir, 'appraisal.fish')], { encoding: 'utf8' });
      expect(result.error, 'fish must be installed under CI').toBeUndefined();
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
