// Turns verb declarations (verb.ts) into commander commands: the only place that knows how a
// declaration becomes flags, help text and an action. The action builds the context from the
// command's options and the verb's declared operations, then calls `run`.
// A verb's --help lists its own options and the option groups it declares; the service options every
// service verb takes, and the general ones every command takes, collapse to one line pointing at
// `appraisal help options` (as `gh` does), so a leaf's help fits a screen.
import type { EventEmitter } from 'node:events';
import { Command, Option } from 'commander';
import type { Factory } from './factory.js';
import { listOneRecordFormats, SERVICE_OPTIONS, takesOptions } from './global-options.js';
import { outputFlagsOf } from './output-flags.js';
import { FILE_FORMS, operationsOf, type NounCommand, type NounHeading, type NounModule, type Verb, type VerbOption } from './verb.js';

const collect = (value: string, previous: readonly string[] = []) => [...previous, value];

export function toOption(definition: VerbOption): Option {
  const option = new Option(definition.flags, definition.required ? `${definition.description} (required)` : definition.description);
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

/**
 * The line that stands for the shared options a verb's help does not list: the service options when
 * it takes them all, and the general ones (-v, -q, --no-color, --no-input) always.
 */
export function sharedOptionsLine(collapsedService: boolean): string {
  return collapsedService
    ? '\nShared options (--profile, --base-url, --verbose, …): appraisal help options\n'
    : '\nShared options (--verbose, --quiet, …): appraisal help options\n';
}

/** `Examples:` then the notes, as the end of a command's help. */
export function helpEpilogue(examples: readonly string[], notes?: string): string {
  const parts: string[] = [];
  if (examples.length > 0) parts.push(`\nExamples:\n${examples.map((line) => `  $ ${line}`).join('\n')}\n`);
  if (notes) parts.push(`\n${notes.trim()}\n`);
  return parts.join('');
}

/**
 * The whole help text of a command as commander prints it (its text added before and after
 * included), for a command that answers `--help` itself: `helpInformation()` alone leaves out what
 * `addHelpText` added, such as the examples.
 */
export function fullHelp(command: Command): string {
  const parts: string[] = [];
  const context = { error: false, command, write: (text: string) => parts.push(text) };
  // commander's Command is an EventEmitter at run time; its typings do not say so.
  const events = command as unknown as EventEmitter;
  events.emit('beforeHelp', context);
  parts.push(command.helpInformation());
  events.emit('afterHelp', context);
  return parts.join('');
}

/** One verb as a commander command; `summary` overrides the declaration's (a one-command noun's). */
export function verbCommand(verb: Verb, factory: Factory, summary = verb.summary): Command {
  const command = new Command(verb.name).description(verb.description ? `${summary}\n\n${verb.description}` : summary);
  if (verb.aliases) command.aliases([...verb.aliases]);
  for (const argument of verb.arguments ?? []) {
    const name = `${argument.name}${argument.variadic ? '...' : ''}`;
    const description = argument.fileForms ? `${argument.description}; ${FILE_FORMS}` : argument.description;
    command.argument(argument.required ? `<${name}>` : `[${name}]`, description);
    if (argument.choices) command.registeredArguments.at(-1)!.choices(argument.choices);
  }
  // An own option spelled like a global one (`export -o` with its own formats) stands for it.
  for (const option of verb.options ?? []) command.addOption(toOption(option));
  takesOptions(command, ...verb.takes);
  if (verb.writesOne) listOneRecordFormats(command);
  const collapsed = SERVICE_OPTIONS.every((name) => verb.takes.includes(name));
  if (collapsed) {
    for (const option of command.options) {
      if (SERVICE_OPTIONS.includes(option.attributeName()) && !verb.options?.some((own) => own.flags === option.flags)) option.hideHelp();
    }
  }
  command.addHelpText('after', sharedOptionsLine(collapsed) + helpEpilogue(verb.examples, verb.notes));
  if (verb.help) {
    // The verb answers --help itself; commander's own help option would answer before it runs.
    command.helpOption(false).option('-h, --help', 'display help for command');
  }
  return command.action(async (...actionArgs: unknown[]) => {
    const invoked = actionArgs[actionArgs.length - 1] as Command;
    const options = invoked.opts();
    const args = positionalOf(invoked);
    const keep = verb.narrowCalls?.(options, args);
    const operations = keep ? operationsOf(verb).filter(keep) : operationsOf(verb);
    const ctx = factory.context(invoked, operations, verb.outputFlags?.(args, options) ?? outputFlagsOf(verb.options, options));
    if (verb.help && options.help === true) {
      ctx.io.stdout.write((await verb.help(ctx, args)) ?? fullHelp(invoked));
      return;
    }
    if (verb.writesOne) await ctx.output.readyForOne();
    await verb.run(ctx, args, options);
  });
}

/** A one-command noun as the verb it is, named and summarised by its registry entry. */
export function asVerb(noun: NounHeading, command: NounCommand): Verb {
  return { ...command, name: noun.name, aliases: noun.aliases, summary: noun.summary };
}

/**
 * A noun as a commander command: a group of verbs, or, for a noun that is one command (`export`),
 * that command under the noun's name. A group shows the first example of each of its verbs.
 */
export function nounCommand(noun: NounHeading, module: NounModule, factory: Factory): Command {
  if (!Array.isArray(module)) return verbCommand(asVerb(noun, module as NounCommand), factory);
  const command = new Command(noun.name).description(noun.summary);
  if (noun.aliases) command.aliases([...noun.aliases]);
  const firstExamples: string[] = [];
  for (const verb of module as readonly Verb[]) {
    command.addCommand(verbCommand(verb, factory), { hidden: verb.hidden === true });
    if (!verb.hidden) firstExamples.push(...verb.examples.slice(0, 1));
  }
  if (firstExamples.length > 0) command.addHelpText('after', helpEpilogue(firstExamples));
  return command;
}
