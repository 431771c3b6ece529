// A RecordSpec read from a published JSON Schema (an object schema of openapi.json), so a family the
// mock serves generically validates its bodies as the description says: required fields, types,
// enums, formats, lengths, bounds, nested objects and arrays. Keywords the validator has no rule for
// are not checked (the service may be stricter); a field of unknown type is not checked at all.
import { resolveRef } from '../description/operation-schemas.js';
import type { FieldSpec, RecordSpec } from './field-spec.js';

type Json = Record<string, unknown>;

const FORMATS = new Set(['email', 'date', 'date-time', 'uuid']);

/** `{type: [t, 'null']}` and `oneOf: [X, {type: 'null'}]` are X, nullable. */
function withoutNull(document: unknown, schema: Json): { schema: Json; nullable: boolean } {
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives)) {
    const resolved = alternatives.map((alternative) => resolveRef(document, alternative) as Json);
    const others = resolved.filter((alternative) => alternative.type !== 'null');
    if (others.length === 1) return { schema: others[0]!, nullable: others.length < resolved.length };
    return { schema: {}, nullable: true };
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    return { schema: { ...schema, type: types.length === 1 ? types[0] : undefined }, nullable: types.length < schema.type.length };
  }
  return { schema, nullable: false };
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

function fieldSpec(document: unknown, node: unknown, required: boolean): FieldSpec | undefined {
  const { schema, nullable } = withoutNull(document, resolveRef(document, node) as Json);
  const common = { required, nullable };
  if (Array.isArray(schema.enum)) return { ...common, type: 'enum', values: schema.enum.filter((value) => typeof value === 'string') };
  switch (schema.type) {
    case 'string':
      return {
        ...common,
        type: 'string',
        minLength: num(schema.minLength),
        maxLength: num(schema.maxLength),
        format: typeof schema.format === 'string' && FORMATS.has(schema.format) ? (schema.format as 'email') : undefined,
      };
    case 'integer':
    case 'number':
      return { ...common, type: schema.type, min: num(schema.minimum), max: num(schema.maximum) };
    case 'boolean':
      return { ...common, type: 'boolean' };
    case 'object':
      return { ...common, type: 'object', fields: recordSpecOf(document, schema) };
    case 'array': {
      const items = fieldSpec(document, schema.items ?? {}, false);
      return items && { ...common, type: 'array', items, minItems: num(schema.minItems), unique: schema.uniqueItems === true };
    }
    default:
      return undefined;
  }
}

/** The spec of an object schema's properties (fields of no known type left out). */
export function recordSpecOf(document: unknown, objectSchema: unknown): RecordSpec {
  const schema = resolveRef(document, objectSchema) as Json;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = (schema.properties ?? {}) as Json;
  const spec: Record<string, FieldSpec> = {};
  for (const [name, property] of Object.entries(properties)) {
    const field = fieldSpec(document, property, required.has(name));
    if (field) spec[name] = field;
  }
  return spec;
}
