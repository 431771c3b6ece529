// The global options of CLI.md, declared once here. The root command accepts every one of them
// (before or after the sub-command, hidden from its help); each command lists in its own --help only
// the groups it declares with `takesOptions`, and a given option a command does not take is a usage
// error. `appraisal help environment` prints the full list.
// A little over 300 lines because the table of options and the one reader of their values are kept together
// (each value's own parser lives beside what it means: size.ts, min-rate.ts).
import { Option, type Command } from 'commander';
import type { Env } from './env.js';
import { UsageError } from './errors.js';
import { ENVIRONMENTS, isEnvironment, type Environment } from './config.js';
import { parseSize } from './size.js';
import { MIN_RATE_EXAMPLE, readMinRate, type MinRate } from './min-rate.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'parquet';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv', 'parquet'];

const outputDescription = (formats: readonly OutputFormat[]) =>
  `output format: ${formats.join(', ')} (default: table on a terminal, else json)`;

export interface GlobalOptions {
  profile: string | undefined;
  baseUrl: string | undefined;
  /** `-o` as given; unset, the output plan (output-plan.ts) decides: the --out extension, else table on a terminal, else json. */
  output: OutputFormat | undefined;
  fields: string[] | undefined;
  /** --delimiter as given (csv only: the output plan reads and checks it). */
  delimiter: string | undefined;
  /** --bom: a csv starts with a UTF-8 byte-order mark. */
  bom: boolean;
  page: number | undefined;
  pageSize: number | undefined;
  maxItems: number | undefined;
  concurrency: number;
  out: string | undefined;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  retries: number;
  /** The most one JSON answer may hold (--max-response-size / APPRAISAL_MAX_RESPONSE_SIZE); unset, the client's default. */
  maxResponseBytes?: number | undefined;
  /** The floor under an upload's or a download's rate (--min-rate / APPRAISAL_MIN_RATE); 'off' for none; unset, the client's default. */
  minRate?: MinRate | 'off' | undefined;
  caFile: string | undefined;
  apiKeyFile: string | undefined;
  allowPartial: boolean;
  verbose: boolean;
  quiet: boolean;
  color: boolean;
  yes: boolean;
  noInput: boolean;
  /**
   * What a run without a stored profile targets (APPRAISAL_ENVIRONMENT, or a command's
   * --environment); unset, such a run counts as production (local for loopback hosts).
   */
  environment: Environment | undefined;
  /** `--spec URL|PATH`: the service description for this run (else the profile's, the service's own, or the bundled one). */
  spec?: string | undefined;
}

/** Who takes an option: every command, or the commands that declare its group. */
export type OptionGroup = 'general' | 'service' | 'output' | 'csv' | 'paging' | 'confirm';

export interface GlobalOptionDefinition {
  flags: string;
  description: string;
  group: OptionGroup;
  defaultValue?: string;
  choices?: readonly string[];
  /** Given more than once, the values add up (comma-joined) instead of the last one winning. */
  repeatable?: boolean;
  /** The hint where a command does not take it (else: that command's --help). */
  elsewhere?: string;
}

const CSV_ELSEWHERE = "lists, get, create, update and export write csv with it; import reads the separator from its file's header line";

export const GLOBAL_OPTIONS: readonly GlobalOptionDefinition[] = [
  { group: 'service', flags: '-p, --profile <name>', description: 'profile to use (env APPRAISAL_PROFILE)' },
  { group: 'service', flags: '--base-url <url>', description: "override the profile's base URL (env APPRAISAL_BASE_URL)" },
  {
    group: 'output',
    flags: '-o, --output <format>',
    description: outputDescription(OUTPUT_FORMATS),
    choices: OUTPUT_FORMATS,
  },
  {
    group: 'output',
    flags: '--fields <list>',
    description: 'fields/columns to print, comma separated (dotted paths allowed; repeatable)',
    repeatable: true,
  },
  // For spreadsheets (csv-style.ts): Excel splits on ";" where the comma is the decimal mark, and reads UTF-8 after a BOM.
  {
    group: 'csv',
    flags: '--delimiter <char>',
    description: 'csv cell separator: comma (default), semicolon or tab',
    elsewhere: CSV_ELSEWHERE,
  },
  { group: 'csv', flags: '--bom', description: 'csv: start with a UTF-8 BOM, for Excel', elsewhere: CSV_ELSEWHERE },
  { group: 'paging', flags: '--page <n>', description: 'fetch one page only' },
  { group: 'paging', flags: '--page-size <n>', description: 'page size, sent as limit' },
  { group: 'paging', flags: '--max-items <n>', description: 'stop after N records' },
  { group: 'paging', flags: '--concurrency <n>', description: 'pages fetched at once while auto-paging', defaultValue: '4' },
  { group: 'paging', flags: '--allow-partial', description: 'accept an export whose record count differs from the reported total' },
  { group: 'output', flags: '--out <path>', description: 'write output to PATH atomically instead of stdout' },
  { group: 'service', flags: '--timeout <seconds>', description: 'per-request timeout in seconds (env APPRAISAL_TIMEOUT)' },
  {
    group: 'service',
    flags: '--retries <n>',
    description: 'retries for safe requests on 429/502/503/504 and network errors',
    defaultValue: '3',
  },
  {
    group: 'service',
    flags: '--max-response-size <size>',
    description:
      'largest JSON answer read, e.g. 256MiB or 512KiB; a larger one ends with exit 9 (env APPRAISAL_MAX_RESPONSE_SIZE; default 64MiB)',
  },
  {
    group: 'service',
    flags: '--min-rate <size/time>',
    description: `slowest upload or download accepted: at least SIZE must move in every TIME, else exit 3; 0 for no floor (env APPRAISAL_MIN_RATE; default ${MIN_RATE_EXAMPLE})`,
  },
  { group: 'service', flags: '--ca-file <path>', description: 'extra trusted CA certificate, PEM (env APPRAISAL_CA_FILE)' },
  { group: 'service', flags: '--api-key-file <path>', description: 'read the API key from PATH, or - for stdin' },
  {
    group: 'service',
    flags: '--spec <url|path>',
    description:
      "the service's API description for this run (env APPRAISAL_SPEC; default: the profile's, the service's own, else the bundled one)",
  },
  { group: 'general', flags: '-v, --verbose', description: 'request/response lines on stderr (env APPRAISAL_DEBUG=1)' },
  { group: 'general', flags: '-q, --quiet', description: 'no progress, no notices' },
  { group: 'general', flags: '--no-color', description: 'disable colour (env NO_COLOR)' },
  { group: 'confirm', flags: '-y, --yes', description: 'confirm destructive actions without a prompt' },
  { group: 'general', flags: '--no-input', description: 'never prompt; fail where input is needed (env APPRAISAL_NO_INPUT)' },
];

/** The help heading of each group on a command that takes it (general ones show as Global Options). */
export const GROUP_HEADINGS: Readonly<Record<OptionGroup, string>> = {
  general: 'Global Options:',
  service: 'Service Options:',
  output: 'Output Options:',
  csv: 'Output Options:',
  paging: 'Paging Options:',
  confirm: 'Options:',
};

function toOption(definition: GlobalOptionDefinition): Option {
  const option = new Option(definition.flags, definition.description);
  if (definition.defaultValue !== undefined) option.default(definition.defaultValue);
  if (definition.choices) option.choices(definition.choices);
  if (definition.repeatable)
    option.argParser((value: string, previous?: string) => (previous === undefined ? value : `${previous},${value}`));
  return option;
}

const DEFINED = GLOBAL_OPTIONS.map(toOption);

/** Option names that take a value (`-p`, `--profile`, ...): main.ts skips their values to find the noun. */
export const GLOBAL_VALUE_OPTIONS: ReadonlySet<string> = new Set(
  DEFINED.filter((option) => option.required || option.optional).flatMap((option) =>
    [option.short, option.long].filter((name): name is string => name !== undefined),
  ),
);

/** The command words of a command line (`props`, `list`), global options and their values skipped. */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') break;
    if (token.startsWith('-')) {
      if (GLOBAL_VALUE_OPTIONS.has(token)) i++;
      continue;
    }
    words.push(token);
  }
  return words;
}

/** The root takes every global option; only the general ones show in its help (and under every command's). */
export function addGlobalOptions(program: Command): void {
  GLOBAL_OPTIONS.forEach((definition) => {
    const option = toOption(definition);
    if (definition.group !== 'general') option.hideHelp();
    program.addOption(option);
  });
}

function namesOf(group: OptionGroup): readonly string[] {
  return DEFINED.filter((_, index) => GLOBAL_OPTIONS[index]!.group === group).map((option) => option.attributeName());
}

/** The groups, as attribute names for `takesOptions`. */
export const SERVICE_OPTIONS = namesOf('service');
export const OUTPUT_OPTIONS = namesOf('output');
/** --delimiter and --bom: taken by the commands that write records as csv (lists, get/create/update, export). */
export const CSV_OPTIONS = namesOf('csv');
export const PAGING_OPTIONS = namesOf('paging');
export const CONFIRM_OPTIONS = namesOf('confirm');

/** The global options a command takes, kept on the command itself (takesOptions writes it, checkOptionsApply reads it). */
const TAKES = Symbol('appraisal.takes');
const takenBy = (command: Command) => (command as Command & { [TAKES]?: ReadonlySet<string> })[TAKES];

/**
 * Declare the global options a command uses, by attribute name (`...OUTPUT_OPTIONS`, `'pageSize'`).
 * They are listed in its --help under their group's heading; any other non-general global option
 * given to it is refused. Declaring none (`takesOptions(command)`) leaves the general ones.
 */
export function takesOptions<C extends Command>(command: C, ...names: readonly string[]): C {
  const unknown = names.filter((name) => !DEFINED.some((option) => option.attributeName() === name));
  if (unknown.length > 0) throw new Error(`takesOptions: no global option ${unknown.join(', ')}`);
  const declared = new Set<string>(takenBy(command));
  GLOBAL_OPTIONS.forEach((definition, index) => {
    const name = DEFINED[index]!.attributeName();
    if (definition.group === 'general' || !names.includes(name) || declared.has(name)) return;
    declared.add(name);
    // A command may spell it itself (`export -o` with the formats it writes): that one is listed.
    if (command.options.some((option) => option.attributeName() === name)) return;
    // The root parses and checks it (choices included); this copy is what the command's help lists.
    const listed = new Option(definition.flags, definition.description).helpGroup(GROUP_HEADINGS[definition.group]);
    if (definition.defaultValue !== undefined) listed.default(definition.defaultValue);
    command.addOption(listed);
  });
  Object.assign(command, { [TAKES]: declared });
  return command;
}

/**
 * A command that writes one record lists the formats one record is written in: not parquet, which
 * writes a list to a file (the output plan refuses it there with that reason).
 */
export function listOneRecordFormats(command: Command): void {
  const output = command.options.find((option) => option.attributeName() === 'output');
  if (output) output.description = outputDescription(OUTPUT_FORMATS.filter((format) => format !== 'parquet'));
}

/** The command path as typed (`props list`), for messages. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * Refuse a global option given on the command line to a command that does not take it. A command
 * that declared nothing (none should: a unit test checks every command) takes them all.
 */
export function checkOptionsApply(root: Command, command: Command): void {
  const allowed = takenBy(command);
  if (!allowed) return;
  DEFINED.forEach((option, index) => {
    const name = option.attributeName();
    if (GLOBAL_OPTIONS[index]!.group === 'general' || allowed.has(name) || root.getOptionValueSource(name) !== 'cli') return;
    const path = commandPath(command);
    throw new UsageError(`${option.long ?? option.short} does not apply to \`appraisal ${path}\``, {
      hint: GLOBAL_OPTIONS[index]!.elsewhere ?? `run \`appraisal ${path} --help\` for the options it takes`,
    });
  });
}

/** Whether a command declared its options (for the test that every command does). */
export function declaresOptions(command: Command): boolean {
  return takenBy(command) !== undefined;
}

function integer(name: string, raw: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  if (!/^\d+$/.test(text)) throw new UsageError(`${name} must be a whole number, got "${text}"`);
  const value = Number(text);
  if (value < min || value > max) throw new UsageError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** An environment variable's value; set but empty (`APPRAISAL_BASE_URL=`) counts as unset, as for the proxy variables. */
function setting(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

export function readGlobalOptions(raw: Record<string, unknown>, env: Env): GlobalOptions {
  const timeoutRaw = raw.timeout ?? setting(env, 'APPRAISAL_TIMEOUT');
  let timeoutMs = 30_000;
  if (timeoutRaw !== undefined) {
    const seconds = Number(String(timeoutRaw).trim());
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) {
      throw new UsageError(`--timeout must be a number of seconds between 0 and 86400, got "${String(timeoutRaw)}"`);
    }
    // At least 1 ms: 0 would mean "no timeout" to undici.
    timeoutMs = Math.max(1, Math.round(seconds * 1000));
  }
  const fieldsRaw = raw.fields as string | undefined;
  const fields =
    fieldsRaw === undefined
      ? undefined
      : fieldsRaw
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean);
  if (fields !== undefined && fields.length === 0) throw new UsageError('--fields needs at least one field name');
  return {
    profile: (raw.profile as string | undefined) ?? setting(env, 'APPRAISAL_PROFILE'),
    baseUrl: (raw.baseUrl as string | undefined) ?? setting(env, 'APPRAISAL_BASE_URL'),
    output: raw.output as OutputFormat | undefined,
    fields,
    delimiter: raw.delimiter as string | undefined,
    bom: raw.bom === true,
    page: integer('--page', raw.page, 1),
    pageSize: integer('--page-size', raw.pageSize, 1, 10_000),
    maxItems: integer('--max-items', raw.maxItems, 1),
    concurrency: integer('--concurrency', raw.concurrency, 1, 64) ?? 4,
    out: raw.out as string | undefined,
    timeoutMs,
    retries: integer('--retries', raw.retries, 0, 20) ?? 3,
    maxResponseBytes: maxResponseBytes(raw.maxResponseSize, env),
    minRate: readMinRate(raw.minRate, setting(env, 'APPRAISAL_MIN_RATE')),
    caFile: (raw.caFile as string | undefined) ?? setting(env, 'APPRAISAL_CA_FILE'),
    apiKeyFile: raw.apiKeyFile as string | undefined,
    allowPartial: raw.allowPartial === true,
    verbose: raw.verbose === true || truthy(env.APPRAISAL_DEBUG),
    quiet: raw.quiet === true,
    // no-color.org: set and not empty; `NO_COLOR=` (as `env NO_COLOR= cmd` clears it) keeps colour.
    color: raw.color !== false && (env.NO_COLOR === undefined || env.NO_COLOR === ''),
    yes: raw.yes === true,
    noInput: raw.input === false || truthy(env.APPRAISAL_NO_INPUT),
    environment: declaredEnvironment(raw.environment, env.APPRAISAL_ENVIRONMENT),
    spec: (raw.spec as string | undefined) ?? (env.APPRAISAL_SPEC || undefined),
  };
}

/** The smallest cap accepted: below it even an error envelope would not fit. */
const MIN_RESPONSE_BYTES = 1024;

/** --max-response-size, else APPRAISAL_MAX_RESPONSE_SIZE; unset, the client's default (64 MiB). */
function maxResponseBytes(flag: unknown, env: Env): number | undefined {
  if (flag !== undefined) return parseSize(String(flag), '--max-response-size', MIN_RESPONSE_BYTES);
  const variable = setting(env, 'APPRAISAL_MAX_RESPONSE_SIZE');
  return variable === undefined ? undefined : parseSize(variable, 'APPRAISAL_MAX_RESPONSE_SIZE', MIN_RESPONSE_BYTES);
}

/** --environment (smoke, auth login) or APPRAISAL_ENVIRONMENT: one of the known names, or unset. */
function declaredEnvironment(flag: unknown, variable: string | undefined): Environment | undefined {
  const [name, value] = flag !== undefined ? ['--environment', String(flag)] : ['APPRAISAL_ENVIRONMENT', variable];
  if (value === undefined || value === '') return undefined;
  if (!isEnvironment(value)) throw new UsageError(`${name} must be one of ${ENVIRONMENTS.join(', ')}, got "${value.slice(0, 40)}"`);
  return value;
}
