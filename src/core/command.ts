// Glue between commander and command run functions: each verb declares its flags with commander and
// hands a plain `run(options, ctx)` to `action()`, which builds the Context from the global options.
import type { EventEmitter } from 'node:events';
import type { Command } from 'commander';
import type { Context } from './context.js';

/** Builds the context for the command being run (from its options merged with the globals). */
export interface Factory {
  context(command: Command): Context;
}

/** Wrap a run function as a commander action: positional args, the verb's own options, the context. */
export function action<O extends object = Record<string, unknown>>(
  factory: Factory,
  run: (ctx: Context, args: string[], options: O) => Promise<void>,
): (...actionArgs: unknown[]) => Promise<void> {
  return async (...actionArgs: unknown[]) => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const positional = command.processedArgs.flatMap((value: unknown) =>
      value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)],
    );
    await run(factory.context(command), positional, command.opts() as O);
  };
}

const examplesOf = new WeakMap<Command, string[]>();

/** Append an Examples section to a command's help. */
export function examples(command: Command, lines: string[]): Command {
  examplesOf.set(command, lines);
  return command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/** A noun without examples of its own shows the first example of each of its verbs. */
export function addNounExamples(noun: Command): void {
  if (examplesOf.has(noun) || noun.commands.length === 0) return;
  const lines = noun.commands.flatMap((verb) => examplesOf.get(verb)?.slice(0, 1) ?? []);
  if (lines.length > 0) examples(noun, lines);
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
