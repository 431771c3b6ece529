// The published contract, read from an OpenAPI document (3.0, 3.1, or a Swagger 2.0 `paths` object).
// Deliberately tolerant and small: the CLI needs only "which METHOD + path template pairs exist",
// so there is no validator here, and anything it does not understand is skipped, not fatal.
import type { HttpMethod } from '../../core/api-client.js';
import { ContractError } from '../../core/errors.js';

export interface PublishedOperation {
  method: HttpMethod;
  /** Path template as published, made absolute under the base URL (e.g. `/api/properties/{id}`). */
  path: string;
  operationId: string | undefined;
  summary: string | undefined;
}

export interface PublishedContract {
  title: string | undefined;
  version: string | undefined;
  operations: PublishedOperation[];
}

const METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const METHOD_ORDER = new Map(METHODS.map((method, index) => [method, index]));

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The path every published path is relative to: the first server's path (OpenAPI 3) or `basePath`
 * (Swagger 2), without a trailing slash. `""` when the paths are already absolute.
 */
function serverBasePath(document: Record<string, unknown>): string {
  let raw: string | undefined;
  if (Array.isArray(document.servers) && isObject(document.servers[0])) raw = text(document.servers[0].url);
  else raw = text(document.basePath);
  if (raw === undefined) return '';
  let path: string;
  try {
    // Relative server URLs ("/api") resolve against a dummy origin; server variables stay literal.
    path = new URL(raw, 'http://server.invalid').pathname;
  } catch {
    return '';
  }
  path = decodeURI(path).replace(/\/+$/, '');
  return path.includes('{') ? '' : path;
}

/** Every operation of the document's `paths` object, in a stable order (path, then method). */
export function readContract(document: unknown): PublishedContract {
  if (!isObject(document) || !isObject(document.paths)) {
    throw new ContractError('not an OpenAPI document: it has no "paths" object');
  }
  const base = serverBasePath(document);
  const operations: PublishedOperation[] = [];
  for (const [rawPath, item] of Object.entries(document.paths)) {
    if (!rawPath.startsWith('/') || !isObject(item)) continue;
    const path = base && !(rawPath === base || rawPath.startsWith(`${base}/`)) ? `${base}${rawPath}` : rawPath;
    for (const [key, operation] of Object.entries(item)) {
      const method = key.toUpperCase() as HttpMethod;
      if (!METHOD_ORDER.has(method) || !isObject(operation)) continue;
      operations.push({ method, path, operationId: text(operation.operationId), summary: text(operation.summary) });
    }
  }
  operations.sort((a, b) => (a.path === b.path ? METHOD_ORDER.get(a.method)! - METHOD_ORDER.get(b.method)! : a.path < b.path ? -1 : 1));
  const info = isObject(document.info) ? document.info : {};
  return { title: text(info.title), version: text(info.version), operations };
}

const templateCache = new Map<string, RegExp>();

/** `/api/properties/{id}` → a regex where each `{param}` stands for one non-empty path segment part. */
export function templatePattern(template: string): RegExp {
  let pattern = templateCache.get(template);
  if (!pattern) {
    const source = template
      .split(/(\{[^}/]*\})/)
      .map((part) => (/^\{[^}/]*\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    pattern = new RegExp(`^${source}$`);
    templateCache.set(template, pattern);
  }
  return pattern;
}

/** How specific a template is: literal characters count, so `/keys/current` beats `/keys/{id}`. */
function specificity(template: string): number {
  return template.replace(/\{[^}/]*\}/g, '').length;
}

export interface OperationMatch {
  /** The published operation METHOD + path resolve to, if any. */
  operation: PublishedOperation | undefined;
  /** Methods published for this path (under any template), to say what would have worked. */
  methodsForPath: HttpMethod[];
}

/** Match a request (path without the query string) against the contract. HEAD is allowed wherever GET is. */
export function matchOperation(contract: PublishedContract, method: HttpMethod, path: string): OperationMatch {
  const bare = path.replace(/[?#].*$/, '');
  const candidates = contract.operations
    .filter((operation) => templatePattern(operation.path).test(bare))
    .sort((a, b) => specificity(b.path) - specificity(a.path));
  const methodsForPath = [...new Set(candidates.map((operation) => operation.method))];
  const operation =
    candidates.find((candidate) => candidate.method === method) ??
    (method === 'HEAD' ? candidates.find((candidate) => candidate.method === 'GET') : undefined);
  return { operation, methodsForPath };
}
