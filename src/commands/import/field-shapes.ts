// What type each field of a record has, read from the operation's published request schema, so a CSV
// cell becomes the value the service expects: `yearBuilt` "1998" → 1998, a ZIP or parcel number
// "02110" stays text, `propertyIds` (an array) is one cell of JSON. $ref, oneOf/anyOf/allOf, type
// lists and `nullable` are merged into one shape per field; a field the schema does not name is text.
import { resolveRef } from '../../core/description/schema.js';

export interface FieldShape {
  /** JSON types the field accepts (`string`, `integer`, `number`, `boolean`, `object`, `array`, `null`). */
  types: Set<string>;
  /** An object's fields. */
  properties: Map<string, FieldShape>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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

/** The shape at a dotted path, or undefined when the schema does not name it. */
export function shapeAt(root: FieldShape, path: readonly string[]): FieldShape | undefined {
  let shape: FieldShape | undefined = root;
  for (const key of path) {
    shape = shape?.properties.get(key);
    if (!shape) return undefined;
  }
  return shape;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * One cell's value for a field of this shape. Text that does not fit the type is kept as text, so
 * the schema check reports it with the column ("must be integer") instead of it being guessed at.
 * Throws (a message for the row's error) only when a JSON cell is not JSON.
 */
export function cellValue(text: string, shape: FieldShape | undefined): unknown {
  if (!shape || shape.types.size === 0 || shape.types.has('string')) return text;
  const { types } = shape;
  if (types.has('array') || (types.has('object') && shape.properties.size === 0) || text.startsWith('{') || text.startsWith('[')) {
    if (types.has('array') || types.has('object')) {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new Error(`is not JSON (${(error as Error).message})`);
      }
    }
  }
  if ((types.has('integer') || types.has('number')) && NUMBER.test(text.trim())) return Number(text.trim());
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.has('null') && text === 'null') return null;
  return text;
}
