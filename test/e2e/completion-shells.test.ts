// Completion for real: bash, zsh and fish run interactively in a tmux terminal, load the script the
// way `appraisal completion --help` says (`source <(appraisal completion bash)`, …), and complete
// typed words with Tab; the screen is read back. Profile names come from the built binary on PATH.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/spawn.js';
import { openTerminal, requires, type Terminal } from '../helpers/terminal.js';
import { tempDir } from '../helpers/temp.js';

const work = tempDir('completion-shells-');
// A shell killed with its terminal may still be writing its history or compdump here as the
// directory goes: Node's own retries take that (ENOTEMPTY), where one attempt failed the file.
afterAll(() => rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

/** The shell's environment: `appraisal` on PATH with a private config holding two profiles. */
function shellEnv(): Record<string, string> {
  const config = join(work, 'config');
  mkdirSync(config, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(config, 'config.json'),
    JSON.stringify({
      profiles: {
        staging: { baseUrl: 'https://staging.example.com', environment: 'staging' },
        local: { baseUrl: 'https://localhost:4000', environment: 'local' },
      },
    }),
    { mode: 0o600 },
  );
  const bin = join(work, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'appraisal'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'appraisal'), 0o755);
  return {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: work,
    XDG_CONFIG_HOME: join(work, '.config'),
    XDG_DATA_HOME: join(work, '.local', 'share'),
    APPRAISAL_CONFIG_DIR: config,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
  };
}

interface Shell {
  name: 'bash' | 'zsh' | 'fish';
  command: string[];
  /** Typed once at start: a plain `$ ` prompt, then the completion loaded as the help says. */
  setup: string;
}

const SHELLS: Shell[] = [
  { name: 'bash', command: ['bash', '--norc', '--noprofile', '-i'], setup: "PS1='$ '; source <(appraisal completion bash)" },
  {
    name: 'zsh',
    command: ['zsh', '-f', '-i'],
    setup: "PS1='$ '; autoload -U compinit && compinit -u && source <(appraisal completion zsh)",
  },
  {
    // No autosuggestions: their grey text would read back as if it were completed.
    name: 'fish',
    command: ['fish', '--no-config', '-i'],
    setup: "function fish_prompt; echo -n '$ '; end; set -g fish_autosuggestion_enabled 0; appraisal completion fish | source",
  },
];

/** Typed, then Tab: the command line it must become. */
const UNIQUE: Array<[typed: string, completed: string]> = [
  ['appraisal props li', 'appraisal props list'],
  // Ambiguous: the common part only.
  ['appraisal pr', 'appraisal pro'],
  ['appraisal properties l', 'appraisal properties list'],
  ['appraisal help exit', 'appraisal help exit-codes'],
  ['appraisal props list -o nd', 'appraisal props list -o ndjson'],
  // Profile names: the completion runs `appraisal completion __profiles` (the zsh `path` bug broke this).
  ['appraisal --profile st', 'appraisal --profile staging'],
  ['appraisal profiles use lo', 'appraisal profiles use local'],
  ['appraisal -p st props l', 'appraisal -p st props list'],
  // Files where a path goes.
  ['appraisal files upload inspection-r', 'appraisal files upload inspection-report.pdf'],
];

// The three shells run side by side, each in its own terminal (their waits overlap, the file takes
// the time of the slowest shell); within a shell the cases run one after another, on its one command line.
for (const shell of SHELLS) {
  const needs = requires('tmux', shell.name);
  describe.skipIf(needs.skip)(`${shell.name} completes in a real terminal${needs.reason}`, { concurrent: true }, () => {
    let terminal: Terminal;

    beforeAll(async () => {
      expect(needs.missing, `${needs.missing.join(', ')} must be installed under CI (.ci/run installs them)`).toEqual([]);
      const cwd = mkdtempSync(join(work, `${shell.name}-`));
      writeFileSync(join(cwd, 'inspection-report.pdf'), '%PDF-1.4\n');
      terminal = await openTerminal({ command: shell.command, env: shellEnv(), cwd });
      await terminal.type(shell.setup);
      await terminal.press('Enter');
      await terminal.type('echo ready');
      await terminal.press('Enter');
      await terminal.waitForScreen((screen) => /^ready$/m.test(screen), `${shell.name} to start and load the completion`, 30_000);
      await terminal.waitForLine('$');
    });

    afterAll(async () => {
      await terminal?.close();
    });

    it.sequential.each(UNIQUE)('%s<Tab> becomes %s', async (typed, completed) => {
      await terminal.type(typed);
      await terminal.waitForLine(`$ ${typed}`);
      await terminal.press('Tab');
      await terminal.waitForLine(`$ ${completed}`);
      await terminal.press('C-c');
      await terminal.waitForLine('$');
    });

    it.sequential('appraisal pro<Tab><Tab> lists both props and profiles', async () => {
      await terminal.type('appraisal pro');
      await terminal.waitForLine('$ appraisal pro');
      // bash lists on the second Tab (the first has nothing to add); zsh and fish on the first. A
      // second Tab there starts another completion run, which the Ctrl-C below would interrupt
      // mid-way (zsh: "Killed by signal in _bash_complete") instead of clearing the line.
      await terminal.press(...(shell.name === 'bash' ? ['Tab', 'Tab'] : ['Tab']));
      // The candidates appear below the command line (bash lists them and prints the prompt again,
      // zsh and fish show a menu). Only this attempt counts: what follows the last cancelled line.
      await terminal.waitForScreen((screen) => {
        const lines = screen.split('\n');
        const start = lines.findLastIndex((line) => line.endsWith('^C') || line === 'ready');
        const listed = lines
          .slice(start + 1)
          .filter((line) => !line.startsWith('$ '))
          .join('\n');
        return /\bprops\b/.test(listed) && /\bprofiles\b/.test(listed);
      }, 'props and profiles listed under the command line');
      await terminal.press('C-c');
      await terminal.waitForLine('$');
    });
  });
}
