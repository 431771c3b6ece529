// The typed columns of a Parquet export, from the published record schema of the list operation,
// through the one type mapping of core/table-shape (string → VARCHAR, date-time → TIMESTAMPTZ, date
// → DATE, integer → BIGINT, number → DOUBLE, boolean → BOOLEAN); unlike a database table, nested
// objects stay whole as STRUCTs and arrays as LISTs. A field with no usable schema is JSON text; a
// list with no schema at all is one JSON column, `record`. --fields keeps only the paths it names.
// The paths the columns hold (heldPaths, as typeOf walks the schema) tell a record's unpublished rest.
import type { FieldPath } from '../core/output-plan.js';
import { isArray, ITEMS, nonNull, propertiesOf, scalarType, type ColumnType } from '../core/table-shape/shape.js';
import { pathTrie, type PathTrie } from './fields.js';

/** The published record schema of a list, with the document its `$ref`s point into. */
export interface PublishedSchema {
  document: Record<string, unknown>;
  schema: unknown;
}

export interface ParquetColumn {
  /** The record's own field name (a Parquet reader sees the data as the service sends it). */
  name: string;
  /** A DuckDB type: `VARCHAR`, `STRUCT("city" VARCHAR)`, `BIGINT[]`, `JSON`. */
  type: string;
}

const DUCKDB: Readonly<Record<ColumnType, string>> = {
  text: 'VARCHAR',
  timestamptz: 'TIMESTAMPTZ',
  date: 'DATE',
  bigint: 'BIGINT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  json: 'JSON',
};

/** How deep STRUCTs and LISTs nest before the rest is JSON text. */
const MAX_DEPTH = 8;

/** `name` as a DuckDB identifier. */
export const quoteName = (name: string): string => `"${name.replaceAll('"', '""')}"`;

function typeOf(document: Record<string, unknown>, schema: unknown, only: PathTrie | undefined, depth: number): string {
  const inner = nonNull(document, schema).schema;
  const scalar = scalarType(inner);
  if (scalar !== undefined) return DUCKDB[scalar];
  if (depth >= MAX_DEPTH) return 'JSON';
  if (isArray(inner)) return `${typeOf(document, (inner as { items?: unknown }).items, undefined, depth + 1)}[]`;
  const fields = fieldsOf(document, inner, only, depth);
  return fields.length === 0 ? 'JSON' : `STRUCT(${fields.map((field) => `${quoteName(field.name)} ${field.type}`).join(', ')})`;
}

/** Whether --fields names a path below this field (`attachments.targetId`) rather than the field whole. */
const reachesInto = (only: PathTrie | undefined, name: string) => only?.children.get(name)?.whole === false;

function fieldsOf(document: Record<string, unknown>, schema: unknown, only: PathTrie | undefined, depth: number): ParquetColumn[] {
  const properties = propertiesOf(document, schema);
  const names = only ? [...only.children.keys()].filter((name) => Object.hasOwn(properties, name)) : Object.keys(properties);
  // A path into an array's items: --fields' paths do not go through arrays (the records keep no
  // such field, and say so in a warning), so neither does the file: no column that is always null.
  const reachable = names.filter((name) => !(reachesInto(only, name) && isArray(nonNull(document, properties[name]).schema)));
  return reachable.map((name) => {
    const below = only?.children.get(name);
    return { name, type: typeOf(document, properties[name], below && !below.whole ? below : undefined, depth + 1) };
  });
}

/**
 * The columns of the file: every published field (or the --fields paths), typed; undefined when
 * nothing usable is published (the file is then one JSON column per record).
 */
export function parquetColumns(
  published: PublishedSchema | undefined,
  fields: readonly FieldPath[] | undefined,
): ParquetColumn[] | undefined {
  if (!published) return undefined;
  const record = nonNull(published.document, published.schema).schema;
  const columns = fieldsOf(published.document, record, fields ? pathTrie(fields) : undefined, 0);
  return columns.length === 0 ? undefined : columns;
}

/** Where the columns hold a value (typeOf's walk): a STRUCT's fields, a LIST's elements' under ITEMS. */
function pathsOf(document: Record<string, unknown>, schema: unknown, depth: number): string[][] {
  const inner = nonNull(document, schema).schema;
  if (scalarType(inner) !== undefined || depth >= MAX_DEPTH) return [[]];
  if (isArray(inner)) return pathsOf(document, (inner as { items?: unknown }).items, depth + 1).map((path) => [ITEMS, ...path]);
  const properties = propertiesOf(document, inner);
  const names = Object.keys(properties);
  if (names.length === 0) return [[]];
  return names.flatMap((name) => pathsOf(document, properties[name], depth + 1).map((path) => [name, ...path]));
}

/** The record paths every published column holds (for unpublishedOf), all fields' (no --fields). */
export function heldPaths(published: PublishedSchema): string[][] {
  const record = nonNull(published.document, published.schema).schema;
  const properties = propertiesOf(published.document, record);
  return Object.keys(properties).flatMap((name) => pathsOf(published.document, properties[name], 1).map((path) => [name, ...path]));
}
