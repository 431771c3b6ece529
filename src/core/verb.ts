// A verb is declared once, as data: its name, summary, arguments, options, the global option groups it
// takes, the operations it calls, its examples and its run function. Everything that lists commands
// reads these declarations — the commander tree (verb-command.ts), help, the pre-rendered help,
// completion, `spec check`, the example tests and the MCP tools — so there is no second list anywhere.
// Declarations import nothing heavy: reading them all (completion, spec check) costs no HTTP client.
import type { Context } from './context.js';
import type { Operation } from './description/operations.js';
import type { OutputFlags } from './sink-plan.js';

export interface VerbArgument {
  /** As shown in usage: `id`, `file`, `topic`. */
  name: string;
  description: string;
  required?: boolean;
  /** Takes every remaining word (`help [topic...]`). */
  variadic?: boolean;
  /** The values accepted, for completion and MCP schemas. */
  choices?: readonly string[];
  /**
   * Besides the value itself, `-` reads it from stdin and `@FILE` from a file (`sql @report.sql`);
   * help says so after the description. Never for an assistant: an MCP tool takes the value alone,
   * as a file or stdin of the machine the server runs on is the operator's, not the assistant's.
   */
  fileForms?: boolean;
}

/** What a `fileForms` argument's help adds to its description. */
export const FILE_FORMS = '- reads it from stdin, @FILE from a file';

export interface VerbOption {
  /** commander's flags: `--force`, `-d, --data <json>`, `--no-validate`. */
  flags: string;
  description: string;
  defaultValue?: string | boolean | readonly string[];
  choices?: readonly string[];
  /** Repeatable: every occurrence is kept, in order, as an array of strings. */
  repeatable?: boolean;
  /** Accepted but left out of --help (an old spelling kept working). */
  hidden?: boolean;
  /** The help heading it is listed under (default "Options:"). */
  group?: string;
  /** A list's filter: the query parameter it sends, whose published schema (an enum) an MCP tool's input takes. */
  param?: string;
  /**
   * The verb refuses to run without it (it checks that itself, with its own message): help says
   * "(required)" after the description, and an MCP tool's input schema lists it as required.
   */
  required?: boolean;
  /**
   * An MCP tool never takes it from the assistant: the `appraisal mcp` option of this attribute name
   * sets it for every call, and a verb with such options is a tool only when the server was given
   * one (`sql --to`: the operator names the database, never the assistant).
   */
  fromServer?: string;
}

/**
 * What a verb calls on the service. A list of operations (bound to the published description before
 * any request), `'none'` for a verb that never calls it, or `'per-request'` for the two verbs that
 * bind each request themselves (`api`, `smoke`). A verb that takes the service options must not say
 * `'none'` (a unit test reads every declaration).
 */
export type VerbCalls = readonly Operation[] | 'none' | 'per-request';

export interface Verb<O extends object = Record<string, unknown>> {
  name: string;
  aliases?: readonly string[];
  /** One line, lower case, no full stop: the verb's line in its noun's help. */
  summary: string;
  /** More text shown under the summary in the verb's own --help. */
  description?: string;
  arguments?: readonly VerbArgument[];
  options?: readonly VerbOption[];
  /**
   * The global options it takes beyond the general ones, by attribute name (`...SERVICE_OPTIONS`,
   * `'pageSize'`); any other given to it is refused.
   */
  takes: readonly string[];
  calls: VerbCalls;
  /**
   * For a verb whose flags or arguments choose what it calls (`export --families`, `sync props`):
   * keep only the operations this run calls, so one it will not call need not be published.
   */
  narrowCalls?: (options: O, args: readonly string[]) => (operation: Operation) => boolean;
  /**
   * The verb's own output flags as the output plan reads them, for a verb whose sink is not a list's
   * (`import`: where its rows go, from its file argument and flags). Default: the values of the
   * OUTPUT_FLAG_OPTIONS it lists (output-flags.ts).
   */
  outputFlags?: (args: readonly string[], options: O) => OutputFlags;
  /** Command lines that run as shown (the example tests run those that can run against the mock). */
  examples: readonly string[];
  /** Text printed after the examples in --help. */
  notes?: string;
  /**
   * Whether an assistant may call it as a tool of `appraisal mcp`: `read` tools are served always,
   * `write` tools only with --allow-write and never on a production profile; a verb without it
   * (delete, key changes, local files, long runs) is never a tool.
   */
  tool?: 'read' | 'write';
  /** It streams a collection, every page (the list verbs): an MCP tool caps its records and says when there are more. */
  lists?: boolean;
  /** It writes one record (get, create, update): its help leaves out -o parquet, which writes a list to a file. */
  writesOne?: boolean;
  /** Left out of help and completion (`completion __profiles`). */
  hidden?: boolean;
  /**
   * The verb answers -h/--help itself (`api OPERATION_ID --help` describes that operation): the text
   * to print, or undefined for the verb's usual help.
   */
  help?(ctx: Context, args: string[]): Promise<string | undefined>;
  run(ctx: Context, args: string[], options: O): Promise<void>;
}

/** A noun's verbs, in the order its help lists them. */
export type NounVerbs = readonly Verb[];

/**
 * A noun that is one command (`export`, `mcp`): declared like a verb, but named and summarised by
 * its registry entry (commands/registry.ts), so its summary is written once.
 */
export type NounCommand<O extends object = Record<string, unknown>> = Omit<Verb<O>, 'name' | 'summary' | 'aliases'>;

/** What a noun's module exports: its verbs, or the noun itself when it is one command. */
export type NounModule = NounVerbs | NounCommand;

/** Typed identity for a one-command noun, as defineVerb for a verb. */
export function defineNounCommand<O extends object = Record<string, unknown>>(command: NounCommand<O>): NounCommand {
  return command as unknown as NounCommand;
}

/** Typed identity: the declaration's options type flows into `run`. */
export function defineVerb<O extends object = Record<string, unknown>>(verb: Verb<O>): Verb {
  return verb as unknown as Verb;
}

/** The operations a verb declares (none for `'none'` and `'per-request'`). */
export function operationsOf(verb: Verb): readonly Operation[] {
  return typeof verb.calls === 'string' ? [] : verb.calls;
}

/** What a noun is to the tree: its name, aliases and the one summary it has (the registry's). */
export interface NounHeading {
  name: string;
  aliases?: readonly string[];
  summary: string;
}

/** A noun and its declarations, loaded. */
export interface DeclaredNoun<N extends NounHeading = NounHeading> {
  noun: N;
  module: NounModule;
}

/** A declared verb and the words that run it (`props list`; `export` for a one-command noun). */
export interface DeclaredVerb<N extends NounHeading = NounHeading> {
  path: string;
  noun: N;
  verb: Verb;
}

/** Every verb of these nouns, in help order; a one-command noun's verb under the noun's name and summary. */
/** Every noun with its declarations, from the context (main.ts hands in the registry's loader). */
export async function declaredNouns(ctx: Pick<Context, 'declarations'>): Promise<readonly DeclaredNoun[]> {
  return (await ctx.declarations()) as readonly DeclaredNoun[];
}

/** Every verb, in help order; a one-command noun's under the noun's name and summary. */
export async function declaredVerbs(ctx: Pick<Context, 'declarations'>): Promise<readonly DeclaredVerb[]> {
  return verbsOf(await declaredNouns(ctx));
}

export function verbsOf<N extends NounHeading>(nouns: readonly DeclaredNoun<N>[]): DeclaredVerb<N>[] {
  return nouns.flatMap(({ noun, module }) =>
    Array.isArray(module)
      ? (module as readonly Verb[]).map((verb) => ({ path: `${noun.name} ${verb.name}`, noun, verb }))
      : [{ path: noun.name, noun, verb: { ...(module as NounCommand), name: noun.name, aliases: noun.aliases, summary: noun.summary } }],
  );
}
