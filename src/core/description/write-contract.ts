// The write contract of a family (what `import` checks before it creates or updates), beside
// list-contract.ts, got once from the bound description (the create and update operations found
// once) and the service's live reference data: the shape of the request (to type CSV cells), the
// read-only fields (never sent), and the checks every row passes before any write — the same ajv
// validator create/update use, plus the live enums (`GET /api/reference/enums`), which the service
// may change without a new description. Each violation reads "column: reason".
import type { ApiClient } from '../api-client.js';
import { HttpError } from '../errors.js';
import { collectionTemplate, recordTemplate, REFERENCE_ENUMS_PATH, type ResourceFamily } from '../resources.js';
import type { PublishedOperation } from './document.js';
import { bindingOf } from './routed-client.js';
import { recordSchemaOf, shapeOf, type FieldShape } from './schema.js';
import type { Validator, Violation } from './validate.js';

/** Always read-only, whatever the description says. */
const READ_ONLY = ['id', 'createdAt', 'updatedAt'];

/** Checks of a body against the published request schema and the live enums: "column: reason" each. */
export interface BodyChecks {
  create(body: Record<string, unknown>): Promise<string[]>;
  update(body: Record<string, unknown>): Promise<string[]>;
}

export interface FamilyContract {
  shape: FieldShape;
  readOnly: Set<string>;
  checks: BodyChecks;
}

/** `$.address.city` → `address.city`; the record itself → `(record)`. */
export function columnOf(path: string): string {
  const column = path.replace(/^\$\.?/, '');
  return column === '' ? '(record)' : column;
}

function described(violations: readonly Violation[]): string[] {
  return violations.map((violation) => `${columnOf(violation.path)}: ${violation.message}`);
}

function publishedOf(binding: Binding, method: 'POST' | 'PATCH', template: string): PublishedOperation | undefined {
  return binding?.operations.find((bound) => bound.declared.method === method && bound.declared.path === template)?.published;
}

/** The live enums, or undefined when the service does not answer them (the schema's enums still apply). */
async function liveEnums(api: ApiClient, family: ResourceFamily, debug: (line: string) => void): Promise<Map<string, Set<string>>> {
  // Fields checked against a list of the live reference data: the model's `enums` of the family.
  const fields = family.enums ?? {};
  const lists = new Map<string, Set<string>>();
  if (Object.keys(fields).length === 0) return lists;
  let body: Record<string, unknown>;
  try {
    body = await api.get<Record<string, unknown>>(REFERENCE_ENUMS_PATH);
  } catch (error) {
    if (!(error instanceof HttpError) || error.status === 401 || error.status === 403) throw error;
    debug(`import: the reference enums could not be read (${error.message}); the schema's enums apply`);
    return lists;
  }
  for (const [field, key] of Object.entries(fields)) {
    const values = body[key];
    if (Array.isArray(values)) lists.set(field, new Set(values.map(String)));
  }
  return lists;
}

type Binding = ReturnType<typeof bindingOf>;

/**
 * The checks every row passes before a write, loaded on the first row that is created or updated: a
 * run where nothing changed never pays for compiling the schemas or asking for the enums.
 */
function bodyChecks(
  api: ApiClient,
  family: ResourceFamily,
  binding: Binding,
  operations: { create: PublishedOperation | undefined; update: PublishedOperation | undefined },
  debug: (line: string) => void,
): BodyChecks {
  let loading: Promise<{ validator: Validator | undefined; enums: Map<string, Set<string>> }> | undefined;
  const load = () =>
    (loading ??= (async () => {
      const enums = liveEnums(api, family, debug);
      enums.catch(() => undefined); // handled by Promise.all below, once the validator's module is loaded
      const [validator, lists] = await Promise.all([binding ? binding.validator() : undefined, enums]);
      return { validator, enums: lists };
    })());
  const check = async (operation: PublishedOperation | undefined, body: Record<string, unknown>): Promise<string[]> => {
    const { validator, enums } = await load();
    const schema = validator && operation ? described(validator.request(operation, body)) : [];
    const live: string[] = [];
    for (const [field, allowed] of enums) {
      const value = body[field];
      if (typeof value === 'string' && !allowed.has(value) && !schema.some((line) => line.startsWith(`${field}:`)))
        live.push(`${field}: "${value}" is not one of the service's values (see \`appraisal ref enums\`)`);
    }
    return [...schema, ...live];
  };
  return { create: (body) => check(operations.create, body), update: (body) => check(operations.update, body) };
}

/**
 * The family's import contract, read from the bound description once: its create and update
 * operations, the checks of a body, and the fields' shapes. `debug`: where a note that the live enums
 * could not be read goes (--verbose).
 */
export function familyContract(api: ApiClient, family: ResourceFamily, debug: (line: string) => void): FamilyContract {
  const binding = bindingOf(api);
  const operations = {
    create: publishedOf(binding, 'POST', collectionTemplate(family)),
    update: publishedOf(binding, 'PATCH', recordTemplate(family)),
  };
  const checks = bodyChecks(api, family, binding, operations, debug);
  // The fields a row may set (create's and update's request schemas), and those it never sends: the
  // record's others.
  const document = binding?.description.contract.document ?? {};
  const shape = shapeOf(document, operations.create?.requestSchema);
  const patchShape = shapeOf(document, operations.update?.requestSchema);
  for (const [name, field] of patchShape.properties) if (!shape.properties.has(name)) shape.properties.set(name, field);
  const readOnly = new Set(READ_ONLY);
  const list = binding?.operations.find(
    (bound) => bound.declared.method === 'GET' && bound.declared.path === collectionTemplate(family),
  )?.published;
  if (list) {
    const record = shapeOf(document, recordSchemaOf(document, list.responseSchema, list.envelope));
    for (const name of record.properties.keys()) if (!shape.properties.has(name)) readOnly.add(name);
  }
  return { shape, readOnly, checks };
}
