// `appraisal completion bash|zsh|fish`: one verb per shell, each printing its completion script
// generated from the command tree built from every verb's declaration (root.ts).
import { declaredNouns, defineVerb, type Verb } from '../../core/verb.js';
import { declaredTree } from '../root.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { describeTree } from './tree.js';
import { zshScript } from './zsh.js';

type Generator = typeof bashScript;

const SHELLS: ReadonlyArray<{ name: string; generate: Generator; description: string; usage: string[] }> = [
  {
    name: 'bash',
    generate: bashScript,
    description: 'print the bash completion script',
    // The directory does not exist in a new account: the line creates it, as it runs as written.
    usage: [
      'source <(appraisal completion bash)',
      'mkdir -p ~/.local/share/bash-completion/completions && appraisal completion bash > ~/.local/share/bash-completion/completions/appraisal',
    ],
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
    usage: [
      'appraisal completion fish | source',
      'mkdir -p ~/.config/fish/completions && appraisal completion fish > ~/.config/fish/completions/appraisal.fish',
    ],
  },
];

/** The verbs, one per shell. */
export const SHELL_VERBS: readonly Verb[] = SHELLS.map((shell) =>
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
);
