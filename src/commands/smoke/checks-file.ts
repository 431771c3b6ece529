// `--checks FILE`: the team's own read-only checks, appended to the built-in ones. The file is JSON,
// validated with zod (strict: an unknown key is refused naming it and where, exit 2) and resolved
// against the resource table before any request, so a typo never costs a CI run its service calls.
//   {"checks": [{"name": "offices exist", "operation": "listProperties",
//     "params": {"propertyType": "office"}, "expectStatus": 200, "minItems": 1, "maxLatency": "500ms"}]}
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { fillPath } from '../../core/description/operations.js';
import { parseDuration } from '../../core/duration.js';
import { ExpectationError, HttpError, UsageError } from '../../core/errors.js';
import { FAMILIES, collectionTemplate, recordTemplate } from '../../core/resources.js';
import { plural, type SmokeCheck } from './check.js';

/** The read operations a check may name by operationId: each family's list and get. */
function knownOperations(): Map<string, string> {
  const known = new Map<string, string>();
  for (const family of FAMILIES) {
    known.set(family.operations.list, collectionTemplate(family));
    if (family.operations.get) known.set(family.operations.get, recordTemplate(family));
  }
  return known;
}

interface CheckSpec {
  name: string;
  operation: string;
  params?: Record<string, string | number | boolean> | undefined;
  expectStatus?: number | undefined;
  minItems?: number | undefined;
  maxLatency?: string | undefined;
}

async function specSchema() {
  const { z } = await import('zod');
  const check = z.strictObject({
    name: z.string().min(1),
    operation: z.string().min(1),
    params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    expectStatus: z.number().int().min(100).max(599).optional(),
    minItems: z.number().int().min(0).optional(),
    maxLatency: z.string().optional(),
  });
  return z.strictObject({ checks: z.array(check).min(1) });
}

/** `checks[0].params` from a zod path. */
function where(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}${text ? '.' : ''}${String(key)}`), '') || 'the top level';
}

export async function loadChecksFile(ctx: Context, raw: string): Promise<SmokeCheck[]> {
  const path = resolve(ctx.cwd, raw);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--checks ${raw}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--checks ${raw} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = (await specSchema()).safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => `"${key}"`).join(', ');
      throw new UsageError(`--checks ${raw}: unknown key ${keys} at ${where(issue.path)}`, {
        hint: 'a check has name, operation, and optionally params, expectStatus, minItems, maxLatency',
      });
    }
    throw new UsageError(`--checks ${raw}: ${where(issue.path)}: ${issue.message}`);
  }
  const names = new Set<string>();
  return parsed.data.checks.map((spec, index) => {
    const at = `--checks ${raw}: checks[${index}]`;
    if (names.has(spec.name)) throw new UsageError(`${at}: the name "${spec.name}" is used twice`);
    names.add(spec.name);
    return customCheck(spec, at);
  });
}

function resolveOperation(operation: string, at: string): string {
  const spelled = /^([A-Za-z]+)\s+(\/\S*)$/.exec(operation.trim());
  if (spelled) {
    if (spelled[1]!.toUpperCase() !== 'GET') throw new UsageError(`${at}.operation: smoke checks only read; "${operation}" is not a GET`);
    if (!spelled[2]!.startsWith('/api/')) throw new UsageError(`${at}.operation: the path must start with /api/, got "${spelled[2]}"`);
    return spelled[2]!;
  }
  const known = knownOperations();
  const template = known.get(operation);
  if (!template) {
    throw new UsageError(`${at}.operation: unknown operation "${operation}"`, {
      hint: `give "GET /api/…" or one of ${[...known.keys()].join(', ')}`,
    });
  }
  return template;
}

function customCheck(spec: CheckSpec, at: string): SmokeCheck {
  const template = resolveOperation(spec.operation, at);
  const params = Object.fromEntries(Object.entries(spec.params ?? {}).map(([key, value]) => [key, String(value)]));
  const placeholders = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  for (const name of placeholders) {
    if (params[name] === undefined) throw new UsageError(`${at}.params: "${spec.operation}" needs "${name}" for {${name}} in ${template}`);
  }
  const path = fillPath(template, params);
  const query: Query = Object.fromEntries(Object.entries(params).filter(([key]) => !placeholders.includes(key)));
  if (spec.minItems !== undefined && spec.expectStatus !== undefined && (spec.expectStatus < 200 || spec.expectStatus > 299)) {
    throw new UsageError(`${at}: minItems counts the items of a successful answer; it cannot go with expectStatus ${spec.expectStatus}`);
  }
  const maxLatencyMs = spec.maxLatency === undefined ? undefined : parseDuration(spec.maxLatency, `${at}.maxLatency`, { minMs: 1, maxMs: 600_000 });
  const search = new URLSearchParams(query as Record<string, string>).toString();
  return {
    name: spec.name,
    probe: true,
    request: () => ({ method: 'GET', path: search ? `${path}?${search}` : path }),
    ...(maxLatencyMs === undefined ? {} : { maxLatencyMs }),
    async run(state) {
      const client = await state.client();
      if (spec.minItems !== undefined) {
        const pages = client.paginate(path, { query, page: 1, pageSize: Math.max(spec.minItems, 10), signal: state.ctx.signal });
        let count = 0;
        for (let step = await pages.next(); !step.done; step = await pages.next()) count++;
        if (count < spec.minItems) throw new ExpectationError(`page 1 has ${plural(count, 'item')}; expected at least ${spec.minItems}`);
        return `page 1: ${plural(count, 'item')} (at least ${spec.minItems} expected)`;
      }
      let status: number;
      try {
        status = (await client.request({ method: 'GET', path, query, signal: state.ctx.signal })).status;
      } catch (error) {
        if (error instanceof HttpError && error.status === spec.expectStatus) return `answered HTTP ${error.status}, as expected`;
        throw error;
      }
      if (spec.expectStatus !== undefined && status !== spec.expectStatus) {
        throw new ExpectationError(`answered HTTP ${status}; expected ${spec.expectStatus}`);
      }
      return `answered HTTP ${status}`;
    },
  };
}
