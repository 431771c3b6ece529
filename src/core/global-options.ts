// The global options of CLI.md, declared once on the root command and read back into GlobalOptions.
import { Option, type Command } from 'commander';
import type { GlobalOptions, OutputFormat } from './context.js';
import type { Env } from './env.js';
import { OUTPUT_FORMATS } from './context.js';
import { UsageError } from './errors.js';

/** Options that take a value: the noun finder in main.ts must skip their values. */
export const GLOBAL_VALUE_OPTIONS = new Set([
  '-p', '--profile', '--base-url', '-o', '--output', '--fields', '--page', '--page-size', '--max-items',
  '--concurrency', '--out', '--timeout', '--retries', '--ca-file', '--api-key-file',
]);

export function addGlobalOptions(program: Command): void {
  program
    .option('-p, --profile <name>', 'profile to use (env APPRAISAL_PROFILE)')
    .option('--base-url <url>', "override the profile's base URL (env APPRAISAL_BASE_URL)")
    .addOption(new Option('-o, --output <format>', 'output format (default: table on a terminal, json otherwise)').choices(OUTPUT_FORMATS))
    .option('--fields <list>', 'fields/columns to print, comma separated (dotted paths allowed)')
    .option('--page <n>', 'fetch one page only')
    .option('--page-size <n>', 'page size, sent as limit')
    .option('--max-items <n>', 'stop after N records')
    .option('--concurrency <n>', 'pages fetched at once while auto-paging', '4')
    .option('--allow-partial', 'accept an export whose record count differs from the reported total')
    .option('--out <path>', 'write output to PATH atomically instead of stdout')
    .option('--timeout <seconds>', 'per-request timeout in seconds (env APPRAISAL_TIMEOUT)')
    .option('--retries <n>', 'retries for safe requests on 429/502/503/504 and network errors', '3')
    .option('--ca-file <path>', 'extra trusted CA certificate, PEM (env APPRAISAL_CA_FILE)')
    .option('--api-key-file <path>', 'read the API key from PATH, or - for stdin')
    .option('-v, --verbose', 'request/response lines on stderr (env APPRAISAL_DEBUG=1)')
    .option('-q, --quiet', 'no progress, no notices')
    .option('--no-color', 'disable colour (env NO_COLOR)')
    .option('-y, --yes', 'confirm destructive actions without a prompt')
    .option('--no-input', 'never prompt; fail where input is needed (env APPRAISAL_NO_INPUT)');
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

export interface TerminalFacts {
  stdoutIsTTY: boolean;
}

export function readGlobalOptions(raw: Record<string, unknown>, env: Env, terminal: TerminalFacts): GlobalOptions {
  const outputRaw = raw.output as OutputFormat | undefined;
  const timeoutRaw = raw.timeout ?? env.APPRAISAL_TIMEOUT;
  let timeoutMs = 30_000;
  if (timeoutRaw !== undefined) {
    const seconds = Number(String(timeoutRaw).trim());
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) {
      throw new UsageError(`--timeout must be a number of seconds between 0 and 86400, got "${String(timeoutRaw)}"`);
    }
    timeoutMs = Math.round(seconds * 1000);
  }
  const fieldsRaw = raw.fields as string | undefined;
  const fields = fieldsRaw === undefined ? undefined : fieldsRaw.split(',').map((f) => f.trim()).filter(Boolean);
  if (fields !== undefined && fields.length === 0) throw new UsageError('--fields needs at least one field name');
  return {
    profile: (raw.profile as string | undefined) ?? env.APPRAISAL_PROFILE,
    baseUrl: (raw.baseUrl as string | undefined) ?? env.APPRAISAL_BASE_URL,
    output: outputRaw ?? (terminal.stdoutIsTTY ? 'table' : 'json'),
    outputExplicit: outputRaw !== undefined,
    fields,
    page: integer('--page', raw.page, 1),
    pageSize: integer('--page-size', raw.pageSize, 1, 10_000),
    maxItems: integer('--max-items', raw.maxItems, 1),
    concurrency: integer('--concurrency', raw.concurrency, 1, 64) ?? 4,
    out: raw.out as string | undefined,
    timeoutMs,
    retries: integer('--retries', raw.retries, 0, 20) ?? 3,
    caFile: (raw.caFile as string | undefined) ?? env.APPRAISAL_CA_FILE,
    apiKeyFile: raw.apiKeyFile as string | undefined,
    allowPartial: raw.allowPartial === true,
    verbose: raw.verbose === true || truthy(env.APPRAISAL_DEBUG),
    quiet: raw.quiet === true,
    color: raw.color !== false && env.NO_COLOR === undefined,
    yes: raw.yes === true,
    noInput: raw.input === false || truthy(env.APPRAISAL_NO_INPUT),
  };
}
