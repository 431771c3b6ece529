// `appraisal completion bash|zsh|fish`: print a completion script generated from the command tree
// built from every verb's declaration (root.ts), and the hidden `completion __profiles` the scripts
// call to complete profile names.
import type { Context } from '../../core/context.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { describeTree } from './tree.js';
import { declaredTree } from '../root.js';
import { zshScript } from './zsh.js';
import { declaredNouns, defineVerb, type NounVerbs } from '../../core/verb.js';

type Generator = typeof bashScript;

const SHELLS: ReadonlyArray<{ name: string; generate: Generator; description: string; usage: string[] }> = [
  {
    name: 'bash',
    generate: bashScript,
    description: 'print the bash completion script',
    usage: ['appraisal completion bash > ~/.local/share/bash-completion/completions/appraisal', 'source <(appraisal completion bash)'],
  },
  {
    name: 'zsh',
    generate: (tree, info) => zshScript(tree, info),
    description: 'print the zsh completion script (uses bashcompinit; load it after compinit)',
    usage: ['appraisal completion zsh > "${fpath[1]}/_appraisal"', 'source <(appraisal completion zsh)   # in ~/.zshrc, after compinit'],
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

const verbs: NounVerbs = [
  ...SHELLS.map((shell) =>
    defineVerb({
      name: shell.name,
      summary: shell.description,
      takes: [],
      calls: 'none',
      examples: shell.usage,
      notes: 'The script completes commands, sub-commands, flags, profile names and output formats.',
      async run(ctx) {
        const tree = describeTree(declaredTree(ctx.version, await declaredNouns(ctx)));
        ctx.io.stdout.write(shell.generate(tree, { program: 'appraisal', version: ctx.version }));
      },
    }),
  ),
  defineVerb({
    name: '__profiles',
    summary: 'profile names, for the completion scripts',
    takes: [],
    calls: 'none',
    hidden: true,
    examples: [],
    run: printProfiles,
  }),
];

export default verbs;
