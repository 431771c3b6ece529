// The tools `appraisal mcp` offers, made from the verb declarations (core/verb.ts) and nothing else:
// a verb that says `tool: 'read'` is a read tool, `tool: 'write'` a write tool, any other verb is
// never offered. Each tool's input schema comes from the verb's arguments and options; a create or
// update takes the record as `data`, whose schema the server fills in from the published description.
import type { Operation } from '../../core/description/operations.js';
import { operationsOf, type Verb, type VerbOption } from '../../core/verb.js';

/** A JSON Schema object, as MCP carries it. */
export type JsonSchema = Record<string, unknown>;

export interface Tool {
  /** `props_list`: the family and the verb. */
  name: string;
  /** The words that run it: `props list`. */
  path: string;
  kind: 'read' | 'write';
  description: string;
  inputSchema: JsonSchema & { type: 'object'; properties: Record<string, JsonSchema> };
  operations: readonly Operation[];
  /** How an input turns into the verb's command line (argument and option names, in order). */
  arguments: readonly string[];
  /** Arguments whose value on a command line may name a file or stdin (VerbArgument.fileForms): a tool takes their text alone. */
  literal: readonly string[];
  options: readonly ToolOption[];
  /** A list: the server caps its records and says when there are more. */
  isList: boolean;
  /** Flags the server sets on every call from its own options (`--to=duckdb:org.duckdb`), never the assistant. */
  fixed: readonly string[];
}

export interface ToolOption {
  /** The input property: `updated_since`. */
  property: string;
  /** The long flag: `--updated-since`. */
  flag: string;
  takesValue: boolean;
  repeatable: boolean;
  /** `--no-validate`: a false input sends the flag. */
  negated: boolean;
  /** A list's filter: the query parameter it sends (its published enum becomes the input's, session.ts). */
  param?: string;
}

/** The default and the largest number of records a list tool returns. */
export const LIST_CAP_DEFAULT = 20;
export const LIST_CAP_MAX = 100;

/**
 * Options a tool never takes: they write local files (--out and its partners), print for a
 * terminal (--wide), or repeat what `data` already says (-f/-F); the record is always validated.
 */
const NOT_FOR_TOOLS = new Set([
  '--out',
  '--resume',
  '--restart',
  '--split-rows',
  '--split-size',
  '--wide',
  '--field',
  '--typed-field',
  '--no-validate',
  '--q',
]);

function longFlag(option: VerbOption): string | undefined {
  return /(^|[\s,])(--[a-z0-9-]+)/i.exec(option.flags)?.[2];
}

const propertyName = (flag: string) => flag.replace(/^--(no-)?/, '').replace(/-/g, '_');

function toolOption(option: VerbOption): ToolOption | undefined {
  const flag = longFlag(option);
  if (!flag || option.hidden || NOT_FOR_TOOLS.has(flag)) return undefined;
  return {
    property: propertyName(flag),
    flag,
    takesValue: /[<[]/.test(option.flags),
    repeatable: option.repeatable === true,
    negated: flag.startsWith('--no-'),
    ...(option.param === undefined ? {} : { param: option.param }),
  };
}

function optionSchema(option: VerbOption, tool: ToolOption): JsonSchema {
  const description = option.description;
  if (!tool.takesValue) return { type: 'boolean', description };
  const value: JsonSchema = option.choices ? { type: 'string', enum: [...option.choices] } : { type: 'string' };
  return tool.repeatable ? { type: 'array', items: value, description } : { ...value, description };
}

/** What `appraisal mcp` was given for the options its tools take from it (VerbOption.fromServer), by attribute. */
export type ServerValues = Readonly<Record<string, string | undefined>>;

/**
 * The options the server sets, as flags with their values; undefined when the verb takes some and
 * the server was given none of them (then it is no tool).
 */
function fixedFlags(verb: Verb, server: ServerValues): string[] | undefined {
  const own = (verb.options ?? []).filter((option) => option.fromServer !== undefined);
  const given = own.filter((option) => server[option.fromServer!] !== undefined);
  if (own.length > 0 && given.length === 0) return undefined;
  return given.map((option) => `${longFlag(option)!}=${server[option.fromServer!]!}`);
}

/** The tool of one declared verb, or undefined when the verb is not offered to assistants. */
export function toolOf(path: string, verb: Verb, server: ServerValues = {}): Tool | undefined {
  if (!verb.tool) return undefined;
  const fixed = fixedFlags(verb, server);
  if (fixed === undefined) return undefined;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const argumentNames: string[] = [];
  const literal: string[] = [];
  for (const argument of verb.arguments ?? []) {
    const property = argument.name.replace(/-/g, '_');
    argumentNames.push(property);
    if (argument.fileForms) literal.push(property);
    properties[property] = { type: 'string', description: argument.description };
    if (argument.required) required.push(property);
  }
  const options: ToolOption[] = [];
  for (const option of verb.options ?? []) {
    if (option.fromServer !== undefined) continue;
    const tool = toolOption(option);
    if (!tool) continue;
    options.push(tool);
    properties[tool.property] = optionSchema(option, tool);
    if (option.required) required.push(tool.property);
  }
  if (properties.data) {
    // The record itself; the server replaces this with the published request schema when it has one.
    properties.data = { type: 'object', description: 'the record, as JSON (the fields the service publishes for it)' };
    required.push('data');
  }
  const operations = operationsOf(verb);
  // Lists stream a collection (declared `lists`): the server caps them.
  const isList = verb.lists === true;
  if (isList) {
    properties.max_items = {
      type: 'integer',
      minimum: 1,
      maximum: LIST_CAP_MAX,
      description: `records to return (default ${LIST_CAP_DEFAULT}, at most ${LIST_CAP_MAX}); the answer says when there are more`,
    };
    properties.fields = { type: 'string', description: 'only these fields, comma separated (dotted paths allowed)' };
  }
  return {
    name: path.replace(/\s+/g, '_'),
    path,
    kind: verb.tool,
    description: `${verb.summary} (appraisal ${path})`,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
    operations,
    arguments: argumentNames,
    literal,
    options,
    isList,
    fixed,
  };
}

export interface CatalogueChoice {
  /** --allow-write given. */
  allowWrite: boolean;
  /** The profile points at production: read tools only, whatever the flags. */
  production: boolean;
  /** The server's options its tools take (`sql`: the database of the sql tool). */
  server?: ServerValues;
}

/** The tools to serve: read ones always, write ones only when allowed and not on production. */
export function catalogue(verbs: readonly { path: string; verb: Verb }[], choice: CatalogueChoice): Tool[] {
  const writable = choice.allowWrite && !choice.production;
  return verbs.flatMap(({ path, verb }) => {
    const tool = toolOf(path, verb, choice.server);
    if (!tool || (tool.kind === 'write' && !writable)) return [];
    return [tool];
  });
}
