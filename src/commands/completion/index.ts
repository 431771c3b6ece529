// `appraisal completion bash|zsh|fish`: print a completion script generated from the command tree
// (main.ts loads every noun for this command), and the hidden `completion __profiles` the scripts
// call to complete profile names.
import { Command } from 'commander';
import { action, examples, type Factory } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { takesOptions } from '../../core/global-options.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { describeTree, rootOf } from './tree.js';
import { zshScript } from './zsh.js';

type Generator = typeof bashScript;

const SHELLS: ReadonlyArray<{ name: string; generate: Generator; description: string; usage: string[] }> = [
  {
    name: 'bash',
    generate: bashScript,
    description: 'print the bash completion script',
    usage: ['source <(appraisal completion bash)', 'appraisal completion bash > ~/.local/share/bash-completion/completions/appraisal'],
  },
  {
    name: 'zsh',
    generate: (tree, info) => zshScript(tree, info),
    description: 'print the zsh completion script (uses bashcompinit; load it after compinit)',
    usage: ['source <(appraisal completion zsh)   # in ~/.zshrc, after compinit', 'appraisal completion zsh > "${fpath[1]}/_appraisal"'],
  },
  {
    name: 'fish',
    generate: (tree, info) => fishScript(tree, info),
    description: 'print the fish completion script',
    usage: ['appraisal completion fish > ~/.config/fish/completions/appraisal.fish', 'appraisal completion fish | source'],
  },
];

/** Profile names, one a line, for the scripts. Never fails loudly: a completion must not print errors. */
async function printProfiles(ctx: Context): Promise<void> {
  try {
    const config = await ctx.config();
    const names = config.listProfiles().map((profile) => profile.name);
    if (names.length > 0) ctx.io.stdout.write(`${names.join('\n')}\n`);
  } catch (error) {
    ctx.io.debug(`completion: cannot list profiles: ${(error as Error).message}`);
  }
}

export default function completionCommand(factory: Factory): Command {
  const command = new Command('completion').description('Print a shell completion script (bash, zsh, fish)');
  command.addHelpText('after', '\nThe script completes commands, sub-commands, flags, profile names and output formats.\n');
  examples(command, [
    'source <(appraisal completion bash)',
    'appraisal completion zsh > "${fpath[1]}/_appraisal"',
    'appraisal completion fish > ~/.config/fish/completions/appraisal.fish',
  ]);
  for (const shell of SHELLS) {
    const sub: Command = new Command(shell.name).description(shell.description);
    takesOptions(sub);
    examples(sub, shell.usage);
    sub.action(
      action(factory, async (ctx) => {
        const tree = describeTree(rootOf(sub));
        ctx.io.stdout.write(shell.generate(tree, { program: 'appraisal', version: ctx.version }));
      }),
    );
    command.addCommand(sub);
  }
  command.addCommand(
    takesOptions(new Command('__profiles').description('profile names, for the completion scripts').action(action(factory, printProfiles))),
    { hidden: true },
  );
  return command;
}
