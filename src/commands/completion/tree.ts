// What the shell scripts complete, read from the commander tree itself, so a new command, alias or
// flag is completed without anyone keeping a second list.
import type { Argument, Command, Option } from 'commander';
import { CSV_DELIMITER_NAMES } from '../../core/csv-style.js';
import { OUTPUT_FORMATS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { HELP_TOPICS } from '../help-topics.js';

/** Where the values of a flag or argument come from. */
export type ValueSource =
  | { kind: 'none' } // a flag without a value
  | { kind: 'free' } // any text: nothing to suggest
  | { kind: 'words'; words: readonly string[] }
  | { kind: 'files' }
  | { kind: 'profiles' }; // `appraisal completion __profiles`

export interface CompletionFlag {
  /** `--output`, or undefined for a short-only flag. */
  long: string | undefined;
  /** `-o`. */
  short: string | undefined;
  description: string;
  value: ValueSource;
}

export interface CompletionNode {
  /** Canonical command path from the root, e.g. `props list`; `""` for the root. */
  path: string;
  name: string;
  aliases: readonly string[];
  description: string;
  flags: CompletionFlag[];
  children: CompletionNode[];
  /** Values for each positional argument (for commands without sub-commands). */
  args: ValueSource[];
  /** The last argument repeats (`help [topic...]`): its values apply to every later position too. */
  variadic: boolean;
  /**
   * The root only: the flags accepted after any sub-command too (-h and the general options). The
   * root's `flags` are every global option, which the root accepts before a sub-command.
   */
  inherited?: CompletionFlag[];
}

const FILE_PLACEHOLDER = /<[^>]*(path|file|dir)[^>]*>|\[[^\]]*(path|file|dir)[^\]]*\]/i;
const PROFILE_FLAGS = new Set(['--profile', '--store-as']);

function isHidden(command: Command): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden === true;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

export function flagValue(option: Option): ValueSource {
  if (!option.required && !option.optional) return { kind: 'none' };
  if (option.argChoices && option.argChoices.length > 0) return { kind: 'words', words: option.argChoices };
  if (option.long === '--output') return { kind: 'words', words: OUTPUT_FORMATS };
  if (option.long === '--delimiter') return { kind: 'words', words: CSV_DELIMITER_NAMES };
  if ((option.long && PROFILE_FLAGS.has(option.long)) || /<profile>/i.test(option.flags)) return { kind: 'profiles' };
  if (FILE_PLACEHOLDER.test(option.flags)) return { kind: 'files' };
  return { kind: 'free' };
}

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Values for one positional argument. Local files are arguments named in lower case `path`, `file`
 * or `dir` (e.g. `files upload <path>`); `api METHOD PATH` spells its own in upper case, because its
 * PATH is a URL path. A METHOD completes to the HTTP methods; a `name` described as a profile's, to
 * the profile names.
 */
export function argumentValue(argument: Argument): ValueSource {
  if (argument.argChoices && argument.argChoices.length > 0) return { kind: 'words', words: argument.argChoices };
  if (argument.name() === 'METHOD') return { kind: 'words', words: HTTP_METHODS };
  if (argument.name() === 'name' && /\bprofile\b/i.test(argument.description)) return { kind: 'profiles' };
  if (/^(path|file|dir)$|[a-z]-(path|file)$/.test(argument.name())) return { kind: 'files' };
  return { kind: 'free' };
}

/**
 * The flags a command offers. A verb that takes every service option lists them in its help as one
 * line (verb-command.ts hides each): hidden from help, they are still the verb's, and complete.
 */
function flagsOf(command: Command, withHidden = false): CompletionFlag[] {
  const collapsed = (option: Option) => command.parent !== null && SERVICE_OPTIONS.includes(option.attributeName());
  return command.options
    .filter((option) => withHidden || !option.hidden || collapsed(option))
    .map((option) => ({ long: option.long, short: option.short, description: firstLine(option.description), value: flagValue(option) }));
}

const HELP_FLAG: CompletionFlag = { long: '--help', short: '-h', description: 'show help', value: { kind: 'none' } };

function describe(command: Command, path: string, root: Command): CompletionNode {
  const children = command.commands
    .filter((child) => !isHidden(child))
    .map((child) => describe(child, path === '' ? child.name() : `${path} ${child.name()}`, root));
  let args = command.registeredArguments.map(argumentValue);
  let variadic = command.registeredArguments.at(-1)?.variadic ?? false;
  // `appraisal help TOPIC|COMMAND`.
  if (command.parent === root && command.name() === 'help') {
    args = [
      { kind: 'words', words: [...HELP_TOPICS, ...root.commands.filter((c) => !isHidden(c) && c.name() !== 'help').map((c) => c.name())] },
    ];
    variadic = false;
  }
  // The root takes every global option (hidden from its help) before a sub-command.
  const flags = flagsOf(command, command === root);
  return {
    path,
    name: command.name(),
    aliases: command.aliases(),
    description: firstLine(command.description()),
    flags,
    children,
    args,
    variadic,
  };
}

/** The root of the tree a command belongs to. */
export function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

function unique(flags: CompletionFlag[]): CompletionFlag[] {
  const seen = new Set<string>();
  return flags.filter((flag) => {
    const key = flag.long ?? flag.short ?? '';
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function describeTree(root: Command): CompletionNode {
  const node = describe(root, '', root);
  // commander registers -V/--version as an option already; keep one of each.
  node.flags = unique([
    ...node.flags,
    HELP_FLAG,
    { long: '--version', short: '-V', description: 'print the version', value: { kind: 'none' } },
  ]);
  // What every command accepts after it: the options the root shows in its help, and -h (not -V).
  node.inherited = unique([...flagsOf(root).filter((flag) => flag.long !== '--version'), HELP_FLAG]);
  return node;
}

/** The flags accepted after any sub-command. */
export function inheritedFlags(tree: CompletionNode): CompletionFlag[] {
  return tree.inherited ?? tree.flags;
}

/** Every node, root first, depth first. */
export function walk(node: CompletionNode): CompletionNode[] {
  return [node, ...node.children.flatMap(walk)];
}
