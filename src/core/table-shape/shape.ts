// A published record schema as tables: the one mapping from the service's description to typed
// columns, shared by `sync` (database tables) and Parquet export. Fields become snake_case columns,
// nested objects with declared properties are flattened with `__` (`address__postal_code`, dlt's
// convention), arrays become child tables `<table>__<field>` (a scalar element as `value`, an object
// element as its own flattened columns), and anything with no usable schema is one JSON column.
// Types come from the schema alone (never guessed from values): string → text, date-time →
// timestamptz, date → date, integer → bigint, number → double, boolean → boolean. What no column
// holds (a field the description does not publish) is the record's unpublished rest (unpublishedOf).
import { resolveRef } from '../description/schema.js';
import { snakeCase } from './snake-case.js';

/** A column's type, independent of any database: each store writes it in its own dialect. */
export type ColumnType = 'text' | 'timestamptz' | 'date' | 'bigint' | 'double' | 'boolean' | 'json';

export interface Column {
  /** snake_case, nested names joined with `__`. */
  name: string;
  /** The field's path in the record (`['address', 'postalCode']`). */
  path: readonly string[];
  type: ColumnType;
  /** Required by the schema and null not allowed, at every level of its path. */
  required: boolean;
}

export interface ChildTable {
  /** `<parent table>__<field>`: `assignments__property_ids`. */
  name: string;
  /** The array's path in the parent record. */
  path: readonly string[];
  /** A scalar element: one `value` column of this type; an object element: its flattened columns. */
  element: { kind: 'scalar'; type: ColumnType } | { kind: 'object'; columns: readonly Column[] };
}

export interface TableShape {
  name: string;
  columns: readonly Column[];
  children: readonly ChildTable[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How deep nested objects are flattened; anything deeper is one JSON column. */
const MAX_DEPTH = 6;

/** The schema without `null` choices (`["string","null"]`, `oneOf: [X, {type: null}]`), and whether null was allowed. */
export function nonNull(document: Json, schema: unknown): { schema: unknown; nullable: boolean } {
  const resolved = resolveRef(document, schema);
  if (!isObject(resolved)) return { schema: resolved, nullable: true };
  if (Array.isArray(resolved.type)) {
    const types = resolved.type.filter((type) => type !== 'null');
    const nullable = types.length < resolved.type.length;
    return { schema: { ...resolved, type: types.length === 1 ? types[0] : types }, nullable };
  }
  const choices = resolved.oneOf ?? resolved.anyOf;
  if (Array.isArray(choices)) {
    const real = choices.filter((choice) => !(isObject(choice) && choice.type === 'null'));
    if (real.length === 1) {
      const inner = nonNull(document, real[0]);
      return { schema: inner.schema, nullable: inner.nullable || real.length < choices.length };
    }
  }
  return { schema: resolved, nullable: resolved.nullable === true };
}

/** The properties a schema declares, through allOf. */
export function propertiesOf(document: Json, schema: unknown, depth = 0): Json {
  const resolved = resolveRef(document, schema);
  if (!isObject(resolved) || depth > 10) return {};
  const own = isObject(resolved.properties) ? resolved.properties : {};
  const inherited = Array.isArray(resolved.allOf) ? resolved.allOf.map((part) => propertiesOf(document, part, depth + 1)) : [];
  return Object.assign({}, ...inherited, own) as Json;
}

function requiredOf(document: Json, schema: unknown): Set<string> {
  const resolved = resolveRef(document, schema);
  if (!isObject(resolved)) return new Set();
  const own = Array.isArray(resolved.required) ? resolved.required.filter((name): name is string => typeof name === 'string') : [];
  const inherited = Array.isArray(resolved.allOf) ? resolved.allOf.flatMap((part) => [...requiredOf(document, part)]) : [];
  return new Set([...own, ...inherited]);
}

/** The scalar type a schema names, or undefined when it is no single scalar type. */
export function scalarType(schema: unknown): ColumnType | undefined {
  if (!isObject(schema)) return undefined;
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date-time') return 'timestamptz';
      if (schema.format === 'date') return 'date';
      return 'text';
    case 'integer':
      return 'bigint';
    case 'number':
      return 'double';
    case 'boolean':
      return 'boolean';
    default:
      return undefined;
  }
}

export const isArray = (schema: unknown): boolean =>
  isObject(schema) && (schema.type === 'array' || (schema.type === undefined && 'items' in schema));

interface Walk {
  document: Json;
  columns: Column[];
  /** Arrays found, for child tables (only at the top level's walk). */
  arrays: Array<{ path: string[]; items: unknown }> | undefined;
}

function walk(state: Walk, schema: unknown, path: string[], required: boolean, depth: number): void {
  const requiredNames = requiredOf(state.document, schema);
  for (const [field, property] of Object.entries(propertiesOf(state.document, schema))) {
    const at = [...path, field];
    const { schema: inner, nullable } = nonNull(state.document, property);
    const isRequired = required && requiredNames.has(field) && !nullable;
    if (isArray(inner) && state.arrays) {
      state.arrays.push({ path: at, items: (inner as Json).items });
      continue;
    }
    const type = scalarType(inner);
    const nested = type === undefined && depth < MAX_DEPTH && !isArray(inner) ? propertiesOf(state.document, inner) : {};
    if (Object.keys(nested).length > 0) walk(state, inner, at, isRequired, depth + 1);
    else state.columns.push({ name: columnName(at), path: at, type: type ?? 'json', required: isRequired });
  }
}

/** `['address', 'postalCode']` → `address__postal_code`. */
export function columnName(path: readonly string[]): string {
  return path.map(snakeCase).join('__');
}

/**
 * The tables of one collection's records: `table` with a column per published field (flattened),
 * and a child table per array. A schema that declares no properties gives no columns (the caller
 * decides what that means).
 */
export function tableShape(document: Json, recordSchema: unknown, table: string): TableShape {
  const state: Walk = { document, columns: [], arrays: [] };
  walk(state, nonNull(document, recordSchema).schema, [], true, 0);
  const children = (state.arrays ?? []).map(({ path, items }): ChildTable => {
    const name = `${table}__${columnName(path)}`;
    const element = nonNull(document, items).schema;
    const type = scalarType(element);
    if (type !== undefined) return { name, path, element: { kind: 'scalar', type } };
    const nested: Walk = { document, columns: [], arrays: undefined };
    if (!isArray(element)) walk(nested, element, [], true, 1);
    if (nested.columns.length === 0) return { name, path, element: { kind: 'scalar', type: 'json' } };
    return { name, path, element: { kind: 'object', columns: nested.columns } };
  });
  return { name: table, columns: state.columns, children };
}

/** A field's value in a record by its path (undefined when any step is missing or not an object). */
export function valueAt(record: unknown, path: readonly string[]): unknown {
  let value = record;
  for (const step of path) {
    if (!isObject(value)) return undefined;
    value = value[step];
  }
  return value;
}

/** The column of a record's fields the description does not publish (unpublishedOf), as JSON: a sync table's and a Parquet file's. */
export const UNPUBLISHED = '_unpublished';

/** In a path given to heldFields: each element of a list (`['attachments', ITEMS, 'targetId']`). */
export const ITEMS = '[]';

/** Where columns hold a record's values, as a tree of field names: `whole` where one holds all below. */
export interface HeldFields {
  whole: boolean;
  fields: Map<string, HeldFields>;
}

/** The tree of `paths` (each a field path; ITEMS for a list's elements), built once for many records. */
export function heldFields(paths: ReadonlyArray<readonly string[]>): HeldFields {
  const root: HeldFields = { whole: false, fields: new Map() };
  for (const path of paths) {
    let node = root;
    for (const step of path) {
      let next = node.fields.get(step);
      if (next === undefined) node.fields.set(step, (next = { whole: false, fields: new Map() }));
      node = next;
    }
    node.whole = true;
  }
  return root;
}

/**
 * The parts of `value` that no column of `held` holds, nested as sent (a list's elements as a list
 * of theirs, `{}` for one with none), or undefined when there are none: a record's fields the
 * description does not publish, kept beside its columns so that nothing the service sent is lost.
 * One walk of the record (measured: filtering the paths at each field cost a 20,000-record sync ~30%
 * more CPU).
 */
export function unpublishedOf(value: unknown, held: HeldFields): unknown {
  // Held whole (a column, a JSON column, a child table), or null: nothing more to keep.
  if (held.whole || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = held.fields.get(ITEMS);
    if (items === undefined) return value;
    const rests = value.map((item) => unpublishedOf(item, items));
    return rests.some((rest) => rest !== undefined) ? rests.map((rest) => rest ?? {}) : undefined;
  }
  // A value where an object was published: kept whole, as no column holds it.
  if (!isObject(value)) return value;
  // No prototype: a field named `__proto__` (JSON.parse makes it an own field) is kept as a field.
  let rest: Json | undefined;
  for (const field of Object.keys(value)) {
    const inner = value[field];
    const below = held.fields.get(field);
    const fieldRest = below === undefined ? inner : unpublishedOf(inner, below);
    if (fieldRest !== undefined) (rest ??= Object.create(null) as Json)[field] = fieldRest;
  }
  return rest;
}
