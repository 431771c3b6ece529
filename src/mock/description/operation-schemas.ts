// What the published description (openapi.json, or one a test passes) says about one operation: its
// request body schema, the record schema it answers with, and its query parameters, with every
// `$ref` resolved. The generic family handlers (handlers/standard-family.ts) read a family from it.

type Json = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node a local `$ref` (`#/components/...`) points at; other nodes as they are. */
export function resolveRef(document: unknown, node: unknown): unknown {
  let current = node;
  for (let depth = 0; isObject(current) && typeof current.$ref === 'string'; depth++) {
    if (depth > 32) throw new Error(`the description's $ref ${current.$ref} does not end`);
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`the description's $ref ${ref} is not local`);
    let target: unknown = document;
    for (const part of ref.slice(2).split('/'))
      target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    if (target === undefined) throw new Error(`the description's $ref ${ref} points nowhere`);
    current = target;
  }
  return current;
}

/** The operation with this operationId, or undefined. */
function findOperation(document: unknown, operationId: string): Json | undefined {
  const paths = isObject(document) && isObject(document.paths) ? document.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (isObject(operation) && operation.operationId === operationId) return operation;
    }
  }
  return undefined;
}

function jsonSchemaOf(document: unknown, holder: unknown): Json | undefined {
  const resolved = resolveRef(document, holder);
  const content = isObject(resolved) && isObject(resolved.content) ? resolved.content['application/json'] : undefined;
  const schema = isObject(content) ? resolveRef(document, content.schema) : undefined;
  return isObject(schema) ? schema : undefined;
}

/** The JSON request body schema of an operation (create, update). */
export function requestSchema(document: unknown, operationId: string): Json | undefined {
  const operation = findOperation(document, operationId);
  return operation && jsonSchemaOf(document, operation.requestBody);
}

/** The record an operation answers with (its 200 or 201 JSON body). */
export function responseSchema(document: unknown, operationId: string): Json | undefined {
  const responses = findOperation(document, operationId)?.responses;
  if (!isObject(responses)) return undefined;
  return jsonSchemaOf(document, responses['200'] ?? responses['201']);
}

/** The query parameters of an operation, by name, with their schemas. */
export function queryParameters(document: unknown, operationId: string): Map<string, Json> {
  const parameters = findOperation(document, operationId)?.parameters;
  const found = new Map<string, Json>();
  for (const entry of Array.isArray(parameters) ? parameters : []) {
    const parameter = resolveRef(document, entry);
    if (!isObject(parameter) || parameter.in !== 'query' || typeof parameter.name !== 'string') continue;
    const schema = resolveRef(document, parameter.schema);
    found.set(parameter.name, isObject(schema) ? schema : {});
  }
  return found;
}
