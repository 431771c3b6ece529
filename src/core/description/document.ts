// The service's published description, read from an OpenAPI document (3.0, 3.1, or a Swagger 2.0
// `paths` object) into what the CLI binds to: operations with their path template, operationId,
// parameters, request and response schemas and envelope form. Tolerant: anything it does not
// understand is skipped, not fatal. Schemas stay as published (with their $refs); schema.ts reads them.
import escapeStringRegexp from 'escape-string-regexp';
import type { HttpMethod } from '../api-client.js';
import { ContractError } from '../errors.js';
import { envelopeForm, resolveRef, type EnvelopeForm } from './schema.js';

export interface PublishedParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  description: string | undefined;
  schema: unknown;
}

export interface PublishedOperation {
  method: HttpMethod;
  /** Path template as published, made absolute under the base URL (e.g. `/api/properties/{id}`). */
  path: string;
  operationId: string | undefined;
  summary: string | undefined;
  description: string | undefined;
  parameters: PublishedParameter[];
  /** The JSON request body's schema, if the operation takes one. */
  requestSchema: unknown;
  /** The JSON schema of the success (2xx) answer, if published. */
  responseSchema: unknown;
  /** How the success answer wraps its data, read from responseSchema. */
  envelope: EnvelopeForm;
}

export interface PublishedContract {
  title: string | undefined;
  version: string | undefined;
  /** `3.1.0`, `3.0.3`, `2.0`: decides the JSON Schema dialect of the schemas. */
  openapi: string | undefined;
  operations: PublishedOperation[];
  /** The document as published, for $ref resolution and validation. */
  document: Record<string, unknown>;
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

function readParameters(document: Record<string, unknown>, lists: unknown[]): PublishedParameter[] {
  const byKey = new Map<string, PublishedParameter>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const parameter = resolveRef(document, raw);
      if (!isObject(parameter)) continue;
      const name = text(parameter.name);
      const where = parameter.in;
      if (name === undefined || (where !== 'query' && where !== 'path' && where !== 'header' && where !== 'cookie')) continue;
      // Operation-level parameters override path-level ones of the same name and place.
      byKey.set(`${where}:${name}`, {
        name,
        in: where,
        required: parameter.required === true || where === 'path',
        description: text(parameter.description),
        schema: parameter.schema ?? (parameter.type !== undefined ? { type: parameter.type } : undefined),
      });
    }
  }
  return [...byKey.values()];
}

function jsonSchemaOf(document: Record<string, unknown>, holder: unknown): unknown {
  const resolved = resolveRef(document, holder);
  if (!isObject(resolved)) return undefined;
  if (isObject(resolved.content)) {
    const content = resolved.content;
    const key = Object.keys(content).find((type) => /^application\/([\w.+-]*\+)?json\b/i.test(type));
    const media = key === undefined ? undefined : content[key];
    return isObject(media) ? media.schema : undefined;
  }
  return resolved.schema; // Swagger 2
}

function successResponse(document: Record<string, unknown>, responses: unknown): unknown {
  if (!isObject(responses)) return undefined;
  const code = Object.keys(responses)
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort()[0];
  return code === undefined ? undefined : jsonSchemaOf(document, responses[code]);
}

/** Every operation of the document's `paths` object, in a stable order (path, then method). */
export function readContract(raw: unknown): PublishedContract {
  if (!isObject(raw) || !isObject(raw.paths)) {
    throw new ContractError('not an OpenAPI document: it has no "paths" object');
  }
  const document = raw;
  const base = serverBasePath(document);
  const operations: PublishedOperation[] = [];
  for (const [rawPath, item] of Object.entries(document.paths as Record<string, unknown>)) {
    if (!rawPath.startsWith('/') || !isObject(item)) continue;
    const path = base && !(rawPath === base || rawPath.startsWith(`${base}/`)) ? `${base}${rawPath}` : rawPath;
    for (const [key, operation] of Object.entries(item)) {
      const method = key.toUpperCase() as HttpMethod;
      if (!METHOD_ORDER.has(method) || !isObject(operation)) continue;
      const responseSchema = successResponse(document, operation.responses);
      const swaggerBody = Array.isArray(operation.parameters)
        ? operation.parameters.map((p) => resolveRef(document, p)).find((p) => isObject(p) && p.in === 'body')
        : undefined;
      operations.push({
        method,
        path,
        operationId: text(operation.operationId),
        summary: text(operation.summary),
        description: text(operation.description),
        parameters: readParameters(document, [item.parameters, operation.parameters]),
        requestSchema:
          operation.requestBody !== undefined
            ? jsonSchemaOf(document, operation.requestBody)
            : isObject(swaggerBody)
              ? swaggerBody.schema
              : undefined,
        responseSchema,
        envelope: envelopeForm(document, responseSchema),
      });
    }
  }
  operations.sort((a, b) => (a.path === b.path ? METHOD_ORDER.get(a.method)! - METHOD_ORDER.get(b.method)! : a.path < b.path ? -1 : 1));
  const info = isObject(document.info) ? document.info : {};
  return {
    title: text(info.title),
    version: text(info.version),
    openapi: text(document.openapi) ?? text(document.swagger),
    operations,
    document,
  };
}

const templateCache = new Map<string, RegExp>();

/** `/api/properties/{id}` → a regex where each `{param}` stands for one path segment part (captured). */
export function templatePattern(template: string): RegExp {
  let pattern = templateCache.get(template);
  if (!pattern) {
    const source = template
      .split(/(\{[^}/]*\})/)
      .map((part) => (/^\{[^}/]*\}$/.test(part) ? '([^/]+)' : escapeStringRegexp(part)))
      .join('');
    pattern = new RegExp(`^${source}$`);
    templateCache.set(template, pattern);
  }
  return pattern;
}

/** `/api/files/{fileId}` and `/api/files/{id}` are the same template. */
export function templateKey(method: string, template: string): string {
  return `${method.toUpperCase()} ${template.replace(/\{[^}/]*\}/g, '{}')}`;
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

/** The operation published under exactly this method and template (placeholder names aside). */
export function findByTemplate(contract: PublishedContract, method: string, template: string): PublishedOperation | undefined {
  const key = templateKey(method, template);
  return contract.operations.find((operation) => templateKey(operation.method, operation.path) === key);
}

export function findByOperationId(contract: PublishedContract, operationId: string): PublishedOperation | undefined {
  return contract.operations.find((operation) => operation.operationId === operationId);
}

/** The published query parameter names of an operation. */
export function queryParameterNames(operation: PublishedOperation): string[] {
  return operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
}
