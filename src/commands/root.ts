// The root of the command tree: the program itself (its global options, its help) and the `help`
// verb, declared like every other verb. main.ts builds the tree from these and the registry's nouns;
// `completion` builds the same tree with every noun loaded, so the scripts complete exactly what runs.
import { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import type { Factory } from '../core/factory.js';
import { addGlobalOptions } from '../core/global-options.js';
import { defineVerb, type DeclaredNoun, type Verb } from '../core/verb.js';
import { fullHelp, helpEpilogue, nounCommand, verbCommand } from '../core/verb-command.js';
import { HELP_TOPICS, printHelpTopic } from './help-topics.js';

export const ROOT_EXAMPLES: readonly string[] = [
  'appraisal auth login --profile staging --base-url https://staging.example.com --environment staging',
  'appraisal props list -o csv --out properties.csv',
];

/** The program without its nouns: name, version, every global option, the root's help text. */
export function rootCommand(version: string): Command {
  const program = new Command('appraisal')
    .description('Command line for the property appraisal API')
    .version(version, '-V, --version', 'print the version')
    .helpCommand(false)
    .enablePositionalOptions(false);
  addGlobalOptions(program);
  program.addHelpText(
    'after',
    helpEpilogue(ROOT_EXAMPLES) +
      "\nEach command's --help lists the options it takes. Every shared option: appraisal help options\n" +
      'Environment variables: appraisal help environment. Exit codes: appraisal help exit-codes\n',
  );
  return program;
}

/** `appraisal help [topic...]`: a topic, or the help of the command named (in the tree `root` returns). */
export function helpVerb(root: () => Command): Verb {
  return defineVerb({
    name: 'help',
    summary: `help on a command, or a topic: ${HELP_TOPICS.join(', ')}`,
    arguments: [{ name: 'topic', description: 'a topic or a command (`props list`)', variadic: true }],
    takes: [],
    calls: 'none',
    examples: ['appraisal help options', 'appraisal help props list', 'appraisal help exit-codes'],
    async run(ctx, topic) {
      const program = root();
      if (topic.length === 0) {
        ctx.io.stdout.write(fullHelp(program));
        return;
      }
      if (printHelpTopic(topic[0]!, ctx)) return;
      let target: Command | undefined = program;
      for (const name of topic) target = target?.commands.find((c) => c.name() === name || c.aliases().includes(name));
      if (!target) throw new UsageError(`no help topic or command "${topic.join(' ')}"`, { hint: 'run `appraisal --help`' });
      ctx.io.stdout.write(fullHelp(target));
    },
  });
}

/** A factory for a tree that is read, never run (completion, the pre-rendered help). */
export const READ_ONLY_FACTORY: Factory = {
  context(): never {
    throw new Error('this command tree is read, not run');
  },
};

/** The whole tree, every noun loaded, built from the declarations: what completion completes. */
export function declaredTree(version: string, nouns: readonly DeclaredNoun[]): Command {
  const program = rootCommand(version);
  for (const { noun, module } of nouns) program.addCommand(nounCommand(noun, module, READ_ONLY_FACTORY));
  program.addCommand(
    verbCommand(
      helpVerb(() => program),
      READ_ONLY_FACTORY,
    ),
  );
  return program;
}
