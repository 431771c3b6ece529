// `--checks FILE`: the team's own checks, appended to the built-in ones. The file is JSON, or YAML
// when its name ends in .yaml/.yml (the `yaml` package, imported only then: start-up is measured).
// Its shape is validated with zod before any request (strict: an unknown key is refused naming it
// and where, exit 2); what each check's operation and params mean is resolved later against the
// service's description (custom.ts).
//   {"checks": [{"name": "offices exist", "operation": "listProperties",
//     "params": {"propertyType": "office"}, "expectStatus": 200, "minItems": 1, "maxLatency": "500ms"}]}
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Context } from '../../../core/context.js';
import { parseDuration } from '../../../core/duration.js';
import { defaultExport } from '../../../core/default-export.js';
import { UsageError } from '../../../core/errors.js';
import { fileErrorWords } from '../../../core/file-error-words.js';

/** A checks file is a handful of lines; anything bigger is not one (and is not read into memory). */
const MAX_FILE_BYTES = 1024 * 1024;

export interface CheckSpec {
  name: string;
  /** An operationId of the service's description, or `METHOD /path`. */
  operation: string;
  params?: Record<string, string | number | boolean> | undefined;
  expectStatus?: number | undefined;
  minItems?: number | undefined;
  maxLatency?: string | undefined;
  /** Smoke checks only read unless a check says this (an operation that is not GET or HEAD). */
  allowWrite?: boolean | undefined;
  /** The JSON request body of a write check. */
  body?: unknown;
  /** maxLatency, read. */
  maxLatencyMs?: number | undefined;
}

export interface ChecksFile {
  /** As given on the command line, for messages. */
  raw: string;
  checks: CheckSpec[];
}

const KEYS = 'name, operation, and optionally params, expectStatus, minItems, maxLatency, allowWrite, body';

async function specSchema() {
  const { z } = await import('zod');
  const check = z.strictObject({
    name: z.string().min(1),
    operation: z.string().min(1),
    params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    expectStatus: z.number().int().min(100).max(599).optional(),
    minItems: z.number().int().min(0).optional(),
    maxLatency: z.string().optional(),
    allowWrite: z.boolean().optional(),
    body: z.unknown().optional(),
  });
  return z.strictObject({ checks: z.array(check).min(1) });
}

/** `checks[0].params` from a zod path. */
function where(path: readonly PropertyKey[]): string {
  return (
    path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}${text ? '.' : ''}${String(key)}`), '') ||
    'the top level'
  );
}

function isYaml(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

async function parseText(raw: string, path: string, text: string): Promise<unknown> {
  if (isYaml(path)) {
    // yaml is CommonJS under Node: bundled, its functions are on `default` (default-export.ts).
    const { parse } = defaultExport(await import('yaml')) as typeof import('yaml');
    try {
      // maxAliasCount (the default, 100) keeps an alias bomb from growing the document.
      return parse(text, { prettyErrors: true });
    } catch (error) {
      // yaml's first line ends in ':' before its source excerpt; the error is one line here.
      throw new UsageError(`--checks ${raw} is not valid YAML: ${(error as Error).message.split('\n')[0]!.replace(/:\s*$/, '')}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--checks ${raw} is not valid JSON: ${(error as Error).message}`, {
      hint: isYaml(raw) ? undefined : 'a YAML file is read as YAML when its name ends in .yaml or .yml',
    });
  }
}

/** Reads and validates the file's shape; nothing here needs the service. */
export async function loadChecksFile(ctx: Context, raw: string): Promise<ChecksFile> {
  const path = resolve(ctx.cwd, raw);
  let text: string;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UsageError(`--checks ${raw} is a directory; give a .json or .yaml file`);
    if (info.size > MAX_FILE_BYTES) throw new UsageError(`--checks ${raw} is ${info.size} bytes; a checks file may be at most 1 MiB`);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--checks ${raw}: cannot read it (${fileErrorWords(error)})`);
  }
  const data = await parseText(raw, path, text);
  const parsed = (await specSchema()).safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => `"${key}"`).join(', ');
      throw new UsageError(`--checks ${raw}: unknown key ${keys} at ${where(issue.path)}`, { hint: `a check has ${KEYS}` });
    }
    throw new UsageError(`--checks ${raw}: ${where(issue.path)}: ${issue.message}`);
  }
  const names = new Set<string>();
  const checks = parsed.data.checks.map((spec, index): CheckSpec => {
    const at = `--checks ${raw}: checks[${index}]`;
    if (names.has(spec.name)) throw new UsageError(`${at}: the name "${spec.name}" is used twice`);
    names.add(spec.name);
    if (spec.minItems !== undefined && spec.expectStatus !== undefined && (spec.expectStatus < 200 || spec.expectStatus > 299)) {
      throw new UsageError(`${at}: minItems counts the items of a successful answer; it cannot go with expectStatus ${spec.expectStatus}`);
    }
    const maxLatencyMs =
      spec.maxLatency === undefined ? undefined : parseDuration(spec.maxLatency, `${at}.maxLatency`, { minMs: 1, maxMs: 600_000 });
    return { ...spec, maxLatencyMs };
  });
  return { raw, checks };
}
