// Glue for verbs still built by hand with commander (transitional: verbs are being moved to
// declarations, core/verb.ts): `action()` builds the Context from the global options.
import type { EventEmitter } from 'node:events';
import type { Command } from 'commander';
import type { Context } from './context.js';
import { declaredOperations } from './description/operations.js';
import type { Factory } from './factory.js';

export type { Factory };

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
    await run(factory.context(command, declaredOperations(command)), positional, command.opts() as O);
  };
}

const examples_ = new WeakMap<Command, string[]>();

/** The examples a hand-built (legacy) command declared. */
export function examplesOf(command: Command): readonly string[] | undefined {
  return examples_.get(command);
}

/** Append an Examples section to a command's help. */
export function examples(command: Command, lines: string[]): Command {
  examples_.set(command, lines);
  return command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/** A noun without examples of its own shows the first example of each of its verbs. */
export function addNounExamples(noun: Command): void {
  if (examples_.has(noun) || noun.commands.length === 0) return;
  const lines = noun.commands.flatMap((verb) => examples_.get(verb)?.slice(0, 1) ?? []);
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
