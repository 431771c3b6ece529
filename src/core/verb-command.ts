// Turns verb declarations (verb.ts) into commander commands: the only place that knows how a
// declaration becomes flags, help text and an action. The action builds the context from the
// command's options and the verb's declared operations, then calls `run`.
import { Command, Option } from 'commander';
import { examples as addExamples, examplesOf as legacyExamples } from './command.js';
import type { Factory } from './factory.js';
import { calls } from './description/operations.js';
import { takesOptions } from './global-options.js';
import { operationsOf, type NounCommand, type NounModule, type Verb, type VerbOption } from './verb.js';

const collect = (value: string, previous: readonly string[] = []) => [...previous, value];

function toOption(definition: VerbOption): Option {
  const option = new Option(definition.flags, definition.description);
  if (definition.repeatable) option.argParser(collect);
  if (definition.defaultValue !== undefined) option.default(definition.defaultValue);
  if (definition.choices) option.choices(definition.choices);
  if (definition.hidden) option.hideHelp();
  if (definition.group) option.helpGroup(definition.group);
  return option;
}

/** The positional arguments commander parsed, as strings (a variadic one spread). */
function positionalOf(command: Command): string[] {
  return command.processedArgs.flatMap((value: unknown) =>
    value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)],
  );
}

/** `Examples:` then the notes, as the end of a command's help. */
export function helpEpilogue(examples: readonly string[], notes?: string): string {
  const parts: string[] = [];
  if (examples.length > 0) parts.push(`\nExamples:\n${examples.map((line) => `  $ ${line}`).join('\n')}\n`);
  if (notes) parts.push(`\n${notes.trim()}\n`);
  return parts.join('');
}

/** One verb as a commander command; `summary` overrides the declaration's (a one-command noun's). */
export function verbCommand(verb: Verb, factory: Factory, summary = verb.summary): Command {
  const command = new Command(verb.name).description(verb.description ? `${summary}\n\n${verb.description}` : summary);
  if (verb.aliases) command.aliases([...verb.aliases]);
  for (const argument of verb.arguments ?? []) {
    const name = `${argument.name}${argument.variadic ? '...' : ''}`;
    command.argument(argument.required ? `<${name}>` : `[${name}]`, argument.description);
  }
  for (const option of verb.options ?? []) command.addOption(toOption(option));
  takesOptions(command, ...verb.takes);
  // Transitional, until `spec check` reads the declarations rather than the built tree.
  calls(command, ...operationsOf(verb));
  const epilogue = helpEpilogue(verb.examples, verb.notes);
  if (epilogue) command.addHelpText('after', epilogue);
  return command.action(async (...actionArgs: unknown[]) => {
    const invoked = actionArgs[actionArgs.length - 1] as Command;
    const options = invoked.opts();
    const keep = verb.narrowCalls?.(options);
    const operations = keep ? operationsOf(verb).filter(keep) : operationsOf(verb);
    await verb.run(factory.context(invoked, operations), positionalOf(invoked), options);
  });
}

/** What a noun is to the tree: its name, aliases and the one summary it has (the registry's). */
export interface NounHeading {
  name: string;
  aliases?: readonly string[];
  summary: string;
}

/** A one-command noun as the verb it is, named and summarised by its registry entry. */
export function asVerb(noun: NounHeading, command: NounCommand): Verb {
  return { ...command, name: noun.name, aliases: noun.aliases, summary: noun.summary };
}

/**
 * A noun as a commander command: a group of verbs, or, for a noun that is one command (`export`),
 * that command under the noun's name. A group without examples of its own shows the first example
 * of each of its verbs.
 */
export function nounCommand(noun: NounHeading, module: NounModule, factory: Factory): Command {
  if (typeof module === 'function') return module(factory);
  if (!Array.isArray(module)) return verbCommand(asVerb(noun, module as NounCommand), factory);
  const command = new Command(noun.name).description(noun.summary);
  if (noun.aliases) command.aliases([...noun.aliases]);
  const firstExamples: string[] = [];
  for (const entry of module as NounModule[]) {
    if (typeof entry === 'function') {
      const built = entry(factory);
      command.addCommand(built);
      firstExamples.push(...(legacyExamples(built) ?? []).slice(0, 1));
      continue;
    }
    const verb = entry as Verb;
    command.addCommand(verbCommand(verb, factory), { hidden: verb.hidden === true });
    if (!verb.hidden) firstExamples.push(...verb.examples.slice(0, 1));
  }
  // Recorded as the noun's own examples, so main's legacy pass does not add a second section.
  if (firstExamples.length > 0) addExamples(command, firstExamples);
  return command;
}
