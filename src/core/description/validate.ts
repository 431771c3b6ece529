// Checks request bodies and answers against the description's schemas with ajv. ajv and its formats
// are imported here only, when the first validator is made, so start-up never pays for them.
// Unknown fields are not removed or reported unless the schema itself forbids them.
//
// For other commands (e.g. smoke's contract checks):
//   const validator = await createValidator(contract);
//   validator.request(operation, body)   → Violation[] (the request body schema)
//   validator.response(operation, body)  → Violation[] (the whole success answer)
//   validator.record(operation, record)  → Violation[] (one record of a list, get, create, update)
import type { PublishedContract, PublishedOperation } from './document.js';
import { ContractError } from '../errors.js';
import { defaultExport } from '../default-export.js';
import { addQuickDateFormats } from './fast-formats.js';
import { linearRegExpEngine } from './linear-patterns.js';
import { reachablePart } from './reachable.js';
import { recordSchemaOf } from './schema.js';

export interface Violation {
  /** JSON path of the offending value: `$`, `$.address.zip`, `$.items[3].id`. */
  path: string;
  message: string;
}

export interface Validator {
  request(operation: PublishedOperation, body: unknown): Violation[];
  response(operation: PublishedOperation, body: unknown): Violation[];
  record(operation: PublishedOperation, record: unknown): Violation[];
  /** Compile the record schema now, not at the first check (sync does it while its database opens). */
  compileRecord(operation: PublishedOperation): void;
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string | undefined;
  params: Record<string, unknown>;
}
type Check = ((value: unknown) => boolean) & { errors?: AjvError[] | null };

interface AjvInstance {
  addSchema(schema: object, key: string): unknown;
  addFormat(name: string, format: object): unknown;
  formats: Record<string, unknown>;
  compile(schema: object): unknown;
}

const DOCUMENT_ID = 'urn:appraisal:description';

/** `/address/zip` → `$.address.zip`; `/items/3` → `$.items[3]`. */
export function jsonPath(pointer: string): string {
  if (pointer === '') return '$';
  return `$${pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((key) => (/^\d+$/.test(key) ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`))
    .join('')}`;
}

function describe(error: AjvError): Violation {
  let path = jsonPath(error.instancePath);
  let message = error.message ?? error.keyword;
  if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
    path = jsonPath(`${error.instancePath}/${error.params.additionalProperty}`);
    message = 'is not allowed here';
  } else if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    path = jsonPath(`${error.instancePath}/${error.params.missingProperty}`);
    message = 'is required';
  } else if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) {
    message = `must be one of: ${error.params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  return { path, message };
}

/** Local refs (`#/components/...`) point into the document (or its part), registered under `id`. */
function anchorRefs(schema: unknown, id: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => anchorRefs(item, id));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${id}${value}` : anchorRefs(value, id);
  }
  return out;
}

function endlessSchema(): ContractError {
  return new ContractError(
    "the service description's schema refers to itself without end (e.g. an allOf that includes itself); cannot check values against it",
    {
      hint: 'validate without the description with --no-validate, or pass a corrected one with --spec PATH',
    },
  );
}

/**
 * A PATCH body is a JSON merge patch (RFC 7396, as the service's description says): an object in it
 * merges into the stored one, so a nested object need not repeat the fields its schema requires
 * (`-f address.city=Leeds`). Only the body's own top-level `required` is the patch's to meet.
 */
function mergesInto(error: AjvError): boolean {
  return !(error.keyword === 'required' && error.instancePath !== '');
}

/** A validator for the schemas of one description (ajv is loaded on the first call). */
export async function createValidator(contract: PublishedContract): Promise<Validator> {
  const version = contract.openapi ?? '3.1.0';
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; 3.0 and Swagger 2 use draft-07 plus `nullable`.
  const ajvModule: unknown = version.startsWith('3.1') ? await import('ajv/dist/2020.js') : await import('ajv');
  const formatsModule: unknown = await import('ajv-formats');
  const Ajv = defaultExport(ajvModule) as new (options: object) => AjvInstance;
  const addFormats = defaultExport(formatsModule) as (ajv: AjvInstance) => void;
  // Patterns come from the service: compiled with RE2, linear in the input (linear-patterns.ts).
  const regExp = await linearRegExpEngine();
  // `optimize: false`: ajv's pass over the code it generates cost ~15 ms of CPU per record schema and
  // made no measurable difference to checking 40,000 records (CHANGELOG).
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, validateFormats: true, code: { regExp, optimize: false } });
  addFormats(ajv);
  addQuickDateFormats(ajv);

  const compiled = new Map<unknown, Check | undefined>();
  let registered = 0;
  const compileAgainstDocument = (schema: object): Check => {
    // Each schema with the part of the description it reaches, registered under an id of its own.
    const id = `${DOCUMENT_ID}:${(registered += 1)}`;
    ajv.addSchema({ ...(anchorRefs(reachablePart(contract.document, schema), id) as object), $id: id }, id);
    return ajv.compile(anchorRefs(schema, id) as object) as Check;
  };
  const compile = (schema: unknown): Check | undefined => {
    if (!compiled.has(schema)) {
      let check: Check | undefined;
      try {
        check = typeof schema === 'object' && schema !== null ? compileAgainstDocument(schema) : undefined;
      } catch (error) {
        // A pattern that cannot be checked safely, or a schema that refers to itself without end.
        if (error instanceof ContractError) throw error;
        if (error instanceof RangeError) throw endlessSchema();
        // A schema ajv cannot compile (a broken $ref) checks nothing rather than failing the command.
        check = undefined;
      }
      compiled.set(schema, check);
    }
    return compiled.get(schema);
  };
  const run = (schema: unknown, value: unknown, counts: (error: AjvError) => boolean = () => true): Violation[] => {
    const check = compile(schema);
    if (!check) return [];
    let valid: boolean;
    try {
      valid = check(value);
    } catch (error) {
      // A self-referencing allOf (A = allOf[A]) recurses until the stack ends.
      if (error instanceof RangeError) throw endlessSchema();
      throw error;
    }
    if (valid) return [];
    return (check.errors ?? []).filter(counts).map(describe);
  };
  // The record schema of an operation, found once (not resolved again for each of 200,000 records).
  const recordSchemas = new WeakMap<PublishedOperation, unknown>();
  const recordSchemaOfOperation = (operation: PublishedOperation): unknown => {
    if (!recordSchemas.has(operation))
      recordSchemas.set(operation, recordSchemaOf(contract.document, operation.responseSchema, operation.envelope));
    return recordSchemas.get(operation);
  };
  return {
    request: (operation, body) => run(operation.requestSchema, body, operation.method === 'PATCH' ? mergesInto : undefined),
    response: (operation, body) => run(operation.responseSchema, body),
    record: (operation, record) => run(recordSchemaOfOperation(operation), record),
    compileRecord: (operation) => void compile(recordSchemaOfOperation(operation)),
  };
}

/** Violations on one line for an error message: the first `limit`, then how many more. */
export function formatViolations(violations: readonly Violation[], limit = 5): string {
  const shown = violations.slice(0, limit).map((violation) => `${violation.path} ${violation.message}`);
  if (violations.length > limit) shown.push(`and ${violations.length - limit} more`);
  return shown.join('; ');
}
