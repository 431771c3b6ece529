// Reading the description's schemas without a validator: $ref resolution, the envelope form of an
// answer ("the operation's own response schema decides", API.md), the schema of one record, the
// shape of a request's fields (what type each has: import types CSV cells by it), and a canonical
// inlined form for comparing two descriptions (spec check, spec diff).

/**
 * How an operation's success answer carries its data:
 * - `collection`: `{items, pagination}` (paged);
 * - `data`: `{success, data}`, data being one record or a list;
 * - `array`: a bare JSON array of records;
 * - `record`: a bare record (never unwrapped, even if it has fields called success and data);
 * - `unknown`: no schema published: the CLI recognises the envelope by its shape, as before.
 */
export type EnvelopeForm = 'collection' | 'data' | 'array' | 'record' | 'unknown';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The keys of a local JSON pointer `$ref` (`#/components/schemas/A~1B` → components, schemas, A/B). */
export function pointerKeys(ref: string): string[] {
  return ref
    .slice(2)
    .split('/')
    .map((raw) => decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** What the keys of a pointer name in the document: one step, no chain followed. */
export function pointerTarget(document: Json, keys: readonly string[]): unknown {
  let target: unknown = document;
  for (const key of keys) {
    if (!isObject(target) && !Array.isArray(target)) return undefined;
    target = (target as Json)[key];
  }
  return target;
}

/** Follow a local `$ref` (`#/components/...`) chain; anything else is returned as it is. */
export function resolveRef(document: Json, value: unknown, depth = 0): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string' || depth > 20) return value;
  const ref = value.$ref;
  if (!ref.startsWith('#/')) return value;
  return resolveRef(document, pointerTarget(document, pointerKeys(ref)), depth + 1);
}

/** The properties a schema declares, through $ref and allOf. */
function propertiesOf(document: Json, schema: unknown, depth = 0): Json {
  const resolved = resolveRef(document, schema);
  if (!isObject(resolved) || depth > 10) return {};
  const own = isObject(resolved.properties) ? resolved.properties : {};
  const inherited = Array.isArray(resolved.allOf) ? resolved.allOf.map((part) => propertiesOf(document, part, depth + 1)) : [];
  return Object.assign({}, ...inherited, own) as Json;
}

function isArraySchema(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  return (
    schema.type === 'array' ||
    (Array.isArray(schema.type) && schema.type.includes('array')) ||
    ('items' in schema && schema.type === undefined && !('properties' in schema))
  );
}

export function envelopeForm(document: Json, responseSchema: unknown): EnvelopeForm {
  const schema = resolveRef(document, responseSchema);
  if (!isObject(schema)) return 'unknown';
  if (isArraySchema(schema)) return 'array';
  const properties = propertiesOf(document, schema);
  if ('items' in properties && 'pagination' in properties) return 'collection';
  if ('success' in properties && 'data' in properties) return 'data';
  if (Object.keys(properties).length > 0 || schema.type === 'object' || Array.isArray(schema.allOf)) return 'record';
  return 'unknown';
}

/**
 * Whether the published answer is one record, not a list: a bare record, or `{success, data}` whose
 * data is an object. `api --all` refuses such an operation before asking (nothing to page through).
 * An unknown form says nothing, so false: the answer itself is then judged.
 */
export function answersOneRecord(document: Json, responseSchema: unknown, form: EnvelopeForm): boolean {
  if (form === 'record') return true;
  if (form !== 'data') return false;
  const data = resolveRef(document, propertiesOf(document, resolveRef(document, responseSchema)).data);
  return isObject(data) && !isArraySchema(data) && (data.type === 'object' || isObject(data.properties));
}

/** The schema of one record of an answer, for `--validate`: the items of a list, the data of an envelope. */
export function recordSchemaOf(document: Json, responseSchema: unknown, form: EnvelopeForm): unknown {
  const schema = resolveRef(document, responseSchema);
  const itemsOf = (list: unknown) => {
    const resolved = resolveRef(document, list);
    return isObject(resolved) && isArraySchema(resolved) ? resolved.items : resolved;
  };
  switch (form) {
    case 'collection':
      return itemsOf(propertiesOf(document, schema).items);
    case 'data':
      return itemsOf(propertiesOf(document, schema).data);
    case 'array':
      return itemsOf(schema);
    case 'record':
      return schema;
    default:
      return undefined;
  }
}

/** Keys that document a schema without changing what it accepts: not a change between descriptions. */
const PROSE = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs', '$comment']);

/** Keywords whose value maps names to schemas: a field called `title` is a field, not prose. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/** Keywords whose value is a set: listed in another order, they accept the same documents. */
const UNORDERED = new Set(['required', 'enum', 'type']);

/**
 * The schema with every local $ref inlined (a reference back into itself stays a $ref) and prose
 * dropped, keys and sets sorted: two descriptions that accept the same documents give the same text.
 */
export function canonicalSchema(document: Json, schema: unknown, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => canonicalSchema(document, item, seen));
  if (!isObject(schema)) return schema;
  if (typeof schema.$ref === 'string') {
    if (seen.includes(schema.$ref) || seen.length > 30) return { $ref: schema.$ref };
    return canonicalSchema(document, resolveRef(document, schema), [...seen, schema.$ref]);
  }
  const out: Json = {};
  for (const key of Object.keys(schema).sort()) {
    if (PROSE.has(key) || key.startsWith('x-')) continue;
    const value = schema[key];
    if (NAMED_SCHEMAS.has(key) && isObject(value)) {
      const named: Json = {};
      for (const name of Object.keys(value).sort()) named[name] = canonicalSchema(document, value[name], seen);
      out[key] = named;
    } else if (UNORDERED.has(key) && Array.isArray(value)) {
      out[key] = value.map((item) => JSON.stringify(item)).sort();
    } else out[key] = canonicalSchema(document, value, seen);
  }
  return out;
}

/**
 * The columns of a record schema for csv: its properties as dotted paths in schema order, nested
 * objects with declared properties flattened (`address.city`), everything else one column (an array,
 * an object with no declared properties). Undefined when the schema declares no properties.
 */
export function recordColumns(document: Json, schema: unknown): string[] | undefined {
  // `oneOf: [X, {type: null}]` (a nullable object) is X's columns; any other choice stays one column.
  const nonNull = (value: unknown): unknown => {
    const resolved = resolveRef(document, value);
    const choices = isObject(resolved) ? (resolved.oneOf ?? resolved.anyOf) : undefined;
    if (!Array.isArray(choices)) return resolved;
    const real = choices.filter((choice) => !(isObject(choice) && choice.type === 'null'));
    return real.length === 1 ? resolveRef(document, real[0]) : resolved;
  };
  const columns: string[] = [];
  const walk = (node: unknown, prefix: string, depth: number): void => {
    for (const [name, property] of Object.entries(propertiesOf(document, node))) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      const resolved = nonNull(property);
      const nested = depth < 6 && !isArraySchema(resolved) ? propertiesOf(document, resolved) : {};
      if (Object.keys(nested).length > 0) walk(resolved, path, depth + 1);
      else columns.push(path);
    }
  };
  walk(schema, '', 0);
  return columns.length > 0 ? columns : undefined;
}

/**
 * What types a field accepts, and an object's fields: $ref, oneOf/anyOf/allOf, type lists and
 * `nullable` merged into one shape per field.
 */
export interface FieldShape {
  /** JSON types the field accepts (`string`, `integer`, `number`, `boolean`, `object`, `array`, `null`). */
  types: Set<string>;
  /** An object's fields. */
  properties: Map<string, FieldShape>;
}

function merge(into: FieldShape, from: FieldShape): void {
  for (const type of from.types) into.types.add(type);
  for (const [name, shape] of from.properties) {
    const existing = into.properties.get(name);
    if (existing) merge(existing, shape);
    else into.properties.set(name, shape);
  }
}

/** The shape of a schema (depth-limited: descriptions may be recursive). */
export function shapeOf(document: Json, schema: unknown, depth = 0): FieldShape {
  const shape: FieldShape = { types: new Set(), properties: new Map() };
  const resolved = resolveRef(document, schema);
  if (!isObject(resolved) || depth > 12) return shape;
  const type = resolved.type;
  if (typeof type === 'string') shape.types.add(type);
  else if (Array.isArray(type)) for (const entry of type) if (typeof entry === 'string') shape.types.add(entry);
  if (resolved.nullable === true) shape.types.add('null');
  if (isObject(resolved.properties)) {
    if (shape.types.size === 0) shape.types.add('object');
    for (const [name, child] of Object.entries(resolved.properties)) shape.properties.set(name, shapeOf(document, child, depth + 1));
  }
  if ('items' in resolved && shape.types.size === 0) shape.types.add('array');
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const parts = resolved[key];
    if (Array.isArray(parts)) for (const part of parts) merge(shape, shapeOf(document, part, depth + 1));
  }
  return shape;
}
