// A checks file's checks, resolved against the description smoke binds to: `operation` is any
// operationId it publishes, or `METHOD /path` (a template or a concrete path). `params` are the
// operation's published parameters: path parameters fill its template, query parameters are sent;
// anything else is refused naming the check (exit 2) before the checks run. Smoke reads: an
// operation other than GET or HEAD runs only when its check says `"allowWrite": true`.
import type { HttpMethod, Query } from '../../../core/api-client.js';
import type { BoundOperation } from '../../../core/description/operation-binding.js';
import {
  findByOperationId,
  findByTemplate,
  matchOperation,
  type PublishedContract,
  type PublishedOperation,
} from '../../../core/description/document.js';
import type { LoadedDescription } from '../../../core/description/load.js';
import { ExpectationError, HttpError, UsageError } from '../../../core/errors.js';
import { plural, type SmokeCheck } from './check.js';
import type { CheckSpec, ChecksFile } from './file.js';
import { schemaChecker } from './contract.js';
import { bindOne } from './description.js';

const METHODS = new Set<string>(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** What a smoke check may call without saying "allowWrite": reads. */
const SAFE = new Set<string>(['GET', 'HEAD']);
const PLACEHOLDER = /\{([^}/]*)\}/g;

interface Target {
  operation: PublishedOperation;
  /** A concrete path given as `METHOD /path` (its path parameters are in it already). */
  concretePath?: string;
}

function label(operation: PublishedOperation): string {
  return `${operation.operationId ? `${operation.operationId} ` : ''}(${operation.method} ${operation.path})`;
}

function findTarget(contract: PublishedContract, text: string, at: string, source: string): Target {
  const spelled = /^([A-Za-z]+)\s+(\/\S*)$/.exec(text.trim());
  if (spelled) {
    const method = spelled[1]!.toUpperCase();
    const path = spelled[2]!;
    if (!METHODS.has(method)) throw new UsageError(`${at}.operation: "${spelled[1]}" is not an HTTP method`);
    if (/[?#]/.test(path)) throw new UsageError(`${at}.operation: "${text}" has a query string; put query parameters in "params"`);
    if (path.includes('{')) {
      const operation = findByTemplate(contract, method, path);
      if (operation) return { operation };
    } else {
      const { operation, methodsForPath } = matchOperation(contract, method as HttpMethod, path);
      if (operation) return { operation, concretePath: path };
      if (methodsForPath.length > 0) {
        throw new UsageError(
          `${at}.operation: the service publishes ${path} for ${methodsForPath.join(', ')}, not ${method} (description: ${source})`,
        );
      }
    }
    throw new UsageError(`${at}.operation: the service publishes no ${method} ${path} (description: ${source})`, {
      hint: 'see what it publishes with `appraisal api --list`',
    });
  }
  const operation = findByOperationId(contract, text);
  if (operation) return { operation };
  throw new UsageError(`${at}.operation: the service publishes no operation "${text}" (description: ${source})`, {
    hint: 'give an operationId or "METHOD /path" of its description; `appraisal api --list` shows them',
  });
}

interface Request {
  method: HttpMethod;
  path: string;
  query: Query;
}

/** The check's params, mapped onto the operation's published parameters. */
function requestOf(spec: CheckSpec, target: Target, at: string): Request {
  const { operation, concretePath } = target;
  const pathNames = [...operation.path.matchAll(PLACEHOLDER)].map((match) => match[1]!);
  const pathValues = new Map<string, string>();
  const query: Record<string, string> = {};
  for (const [name, raw] of Object.entries(spec.params ?? {})) {
    const value = String(raw);
    if (pathNames.includes(name)) {
      if (concretePath !== undefined)
        throw new UsageError(`${at}.params.${name}: the path ${concretePath} already gives {${name}} of ${operation.path}`);
      pathValues.set(name, value);
      continue;
    }
    const published = operation.parameters.find((parameter) => parameter.name === name);
    if (published?.in === 'query') {
      query[name] = value;
      continue;
    }
    if (published)
      throw new UsageError(
        `${at}.params.${name}: a ${published.in} parameter of ${label(operation)}; smoke checks send path and query parameters only`,
      );
    const known = [
      ...pathNames,
      ...operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
    ];
    throw new UsageError(`${at}.params: "${name}" is not a parameter of ${label(operation)}`, {
      hint: known.length > 0 ? `its parameters: ${[...new Set(known)].join(', ')}` : 'it publishes no parameters',
    });
  }
  if (concretePath === undefined) {
    const missing = pathNames.filter((name) => !pathValues.get(name));
    if (missing.length > 0)
      throw new UsageError(`${at}.params: ${label(operation)} needs ${missing.map((name) => `"${name}"`).join(', ')} for its path`);
  }
  // With minItems, paginate() sends the page and its size itself.
  const paging = spec.minItems === undefined ? [] : ['page', 'limit'];
  const required = operation.parameters.filter(
    (parameter) =>
      parameter.in === 'query' && parameter.required && query[parameter.name] === undefined && !paging.includes(parameter.name),
  );
  if (required.length > 0) {
    throw new UsageError(
      `${at}.params: ${label(operation)} requires the query parameter ${required.map((parameter) => `"${parameter.name}"`).join(', ')}`,
    );
  }
  const path = concretePath ?? operation.path.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(pathValues.get(name)!));
  return { method: operation.method, path, query };
}

/** Refuses what a smoke check may not do, or what cannot go together. */
function checkShape(spec: CheckSpec, operation: PublishedOperation, at: string): void {
  const reads = SAFE.has(operation.method);
  if (!reads && spec.allowWrite !== true) {
    throw new UsageError(`${at}.operation: ${label(operation)} is a ${operation.method}, which may change data; smoke checks only read`, {
      hint: 'to run it anyway against this non-production service, add "allowWrite": true to the check',
    });
  }
  if (reads && spec.body !== undefined)
    throw new UsageError(`${at}.body: ${label(operation)} is a ${operation.method}, which takes no body`);
  if (spec.minItems !== undefined) {
    if (operation.method !== 'GET')
      throw new UsageError(`${at}.minItems: counts the items of a list; ${label(operation)} is a ${operation.method}`);
    if (operation.envelope === 'record')
      throw new UsageError(`${at}.minItems: counts the items of a list; ${label(operation)} answers one record`);
  }
}

function customCheck(spec: CheckSpec, request: Request): SmokeCheck {
  const { method, path, query } = request;
  const { maxLatencyMs } = spec;
  const search = new URLSearchParams(query as Record<string, string>).toString();
  return {
    name: spec.name,
    probe: true,
    request: () => ({ method, path: search ? `${path}?${search}` : path, ...(spec.body === undefined ? {} : { body: spec.body }) }),
    ...(maxLatencyMs === undefined ? {} : { maxLatencyMs }),
    async run(state) {
      const client = await state.client();
      const schema = schemaChecker(state, method, path);
      const checked = () => {
        const note = schema.finish();
        return note ? `, ${note}` : '';
      };
      if (spec.minItems !== undefined) {
        const pages = client.paginate(path, { query, page: 1, pageSize: Math.max(spec.minItems, 10), signal: state.ctx.signal });
        let count = 0;
        for (let step = await pages.next(); !step.done; step = await pages.next()) {
          count++;
          schema.record(step.value);
        }
        if (count < spec.minItems) throw new ExpectationError(`page 1 has ${plural(count, 'item')}; expected at least ${spec.minItems}`);
        return `page 1: ${plural(count, 'item')} (at least ${spec.minItems} expected)${checked()}`;
      }
      let answer;
      try {
        answer = await client.request({
          method,
          path,
          query,
          ...(spec.body === undefined ? {} : { body: spec.body }),
          signal: state.ctx.signal,
        });
      } catch (error) {
        if (error instanceof HttpError && error.status === spec.expectStatus) return `answered HTTP ${error.status}, as expected`;
        throw error;
      }
      if (spec.expectStatus !== undefined && answer.status !== spec.expectStatus) {
        throw new ExpectationError(`answered HTTP ${answer.status}; expected ${spec.expectStatus}`);
      }
      if (method !== 'HEAD' && answer.status !== 204 && answer.status >= 200 && answer.status < 300) schema.answer(answer.body);
      return `answered HTTP ${answer.status}${checked()}`;
    },
  };
}

export interface ResolvedChecks {
  checks: SmokeCheck[];
  /** Their operations, to bind with smoke's own (lists and gets are read in the envelope published). */
  bound: BoundOperation[];
}

/** Every check of the file against the description; the first that does not fit is refused (exit 2). */
export async function resolveChecks(file: ChecksFile, loaded: LoadedDescription): Promise<ResolvedChecks> {
  const checks: SmokeCheck[] = [];
  const bound: BoundOperation[] = [];
  for (const [index, spec] of file.checks.entries()) {
    const at = `--checks ${file.raw}: checks[${index}] "${spec.name}"`;
    const target = findTarget(loaded.contract, spec.operation, at, loaded.source);
    checkShape(spec, target.operation, at);
    const request = requestOf(spec, target, at);
    checks.push(customCheck(spec, request));
    const binding = await bindOne(loaded, { method: target.operation.method, path: target.operation.path });
    if (binding) bound.push(binding);
  }
  return { checks, bound };
}

/** The file's checks when the description could not be read: each fails with why, or is skipped. */
export function unresolvedChecks(file: ChecksFile, why: { skip: string } | { error: unknown }): SmokeCheck[] {
  return file.checks.map((spec) => ({
    name: spec.name,
    probe: true,
    ...('skip' in why ? { skip: () => why.skip } : {}),
    run: () => Promise.reject('error' in why ? why.error : new Error(`the service description could not be read`)),
  }));
}
