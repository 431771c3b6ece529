// The tables one family is kept in, and how an existing database is brought to them. The family's
// table holds the published fields (core/table-shape), primary key `id`, the fields the description
// does not publish (one JSON column, so nothing the service sends is lost) and the two bookkeeping
// columns; each array field is a child table keyed by (parent_id, position), an object element's
// unpublished fields in a JSON column of its own. Evolution only ever
// adds: a field the description gains is a new nullable column (old rows null); a column the
// description no longer has stays. A column whose type differs from what the description now says,
// or a table someone else made that cannot hold the family (no primary key on id), refuses the
// family before anything is written to it: one error naming the column, both types and what to do.
import { ContractError, UsageError } from '../../core/errors.js';
import { UNPUBLISHED, type ColumnType, type TableShape } from '../../core/table-shape/shape.js';
import { qualified, quote, type ColumnSpec, type Database, type ExistingTable } from './database.js';

export type { ColumnSpec };

export interface TableSpec {
  name: string;
  columns: readonly ColumnSpec[];
  /** The primary key's columns. */
  key: readonly string[];
}

export const SYNCED_AT = '_synced_at';
export const DELETED_AT = '_deleted_at';
export const STATE_TABLE = '_appraisal_sync';

/**
 * Two fields of the published schema whose snake_case names are one column (`parcelNumber` and
 * `parcel_number`, or a field `_syncedAt` and the bookkeeping column): refused by name, before the
 * database would refuse the table with its own words. Not renamed: a field added later could take a
 * renamed column's name, and two fields' values would mix.
 */
function refuseSharedNames(
  where: string,
  what: 'column' | 'table',
  names: ReadonlyArray<{ name: string; path?: readonly string[] }>,
): void {
  const seen = new Map<string, string>();
  for (const { name, path } of names) {
    const field = path && path.length > 0 ? path.join('.') : `sync's own ${name}`;
    const first = seen.get(name);
    if (first !== undefined) {
      const shared = what === 'column' ? `column, ${where}.${name}` : `table, ${name}`;
      throw new ContractError(`the published schema gives ${first} and ${field} the same ${shared}: nothing was written for ${where}`, {
        hint: "sync cannot keep both: `appraisal export` keeps every field as sent; tell the service's owners",
      });
    }
    seen.set(name, field);
  }
}

/** The family's table and its child tables, as sync wants them. */
export function familyTables(shape: TableShape): { main: TableSpec; children: TableSpec[] } {
  refuseSharedNames(shape.name, 'column', [...shape.columns, ...[UNPUBLISHED, SYNCED_AT, DELETED_AT].map((name) => ({ name }))]);
  refuseSharedNames(shape.name, 'table', shape.children);
  for (const child of shape.children) {
    if (child.element.kind !== 'object') continue;
    refuseSharedNames(child.name, 'column', [
      ...child.element.columns,
      ...['parent_id', 'position', UNPUBLISHED].map((name) => ({ name })),
    ]);
  }
  const main: TableSpec = {
    name: shape.name,
    columns: [
      ...shape.columns.map(({ name, type }) => ({ name, type })),
      { name: UNPUBLISHED, type: 'json' },
      { name: SYNCED_AT, type: 'timestamptz' },
      { name: DELETED_AT, type: 'timestamptz' },
    ],
    key: ['id'],
  };
  const children = shape.children.map((child): TableSpec => ({
    name: child.name,
    columns: [
      { name: 'parent_id', type: 'text' },
      { name: 'position', type: 'bigint' },
      ...(child.element.kind === 'scalar'
        ? [{ name: 'value', type: child.element.type }]
        : [...child.element.columns.map(({ name, type }) => ({ name, type })), { name: UNPUBLISHED, type: 'json' as const }]),
    ],
    key: ['parent_id', 'position'],
  }));
  return { main, children };
}

/** What one table needs before rows are written: created, or columns added. */
export interface TableChange {
  spec: TableSpec;
  create: boolean;
  add: readonly ColumnSpec[];
}

/**
 * The tables of `names` as PostgreSQL's catalogs describe them (two queries): PostgreSQL's way
 * (Database.tables); DuckDB reads its own catalog quicker (duckdb.ts). The columns from
 * information_schema (which shows a table's columns to a role with any right on it); the primary
 * keys from pg_catalog, which every role reads: information_schema shows a constraint only to a role
 * that may change the table, so to a role with SELECT alone (a dry run's) every key looked missing.
 */
export async function catalogTables(db: Database, schema: string, names: readonly string[]): Promise<Map<string, ExistingTable>> {
  const found = new Map<string, ExistingTable>();
  if (names.length === 0) return found;
  const list = names.map((_, index) => `$${index + 2}`).join(', ');
  const columns = await db.query(
    `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name IN (${list}) ORDER BY table_name, ordinal_position`,
    [schema, ...names],
  );
  for (const row of columns) {
    const table = String(row.table_name);
    if (!found.has(table)) found.set(table, { columns: new Map(), key: [] });
    found.get(table)!.columns.set(String(row.column_name), String(row.data_type));
  }
  const keys = await db.query(
    'SELECT t.relname AS table_name, a.attname AS column_name FROM pg_constraint c ' +
      'JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace ' +
      'CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, position) ' +
      'JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ' +
      `WHERE c.contype = 'p' AND n.nspname = $1 AND t.relname IN (${list}) ORDER BY t.relname, k.position`,
    [schema, ...names],
  );
  for (const row of keys) found.get(String(row.table_name))?.key.push(String(row.column_name));
  return found;
}

const WHAT_TO_DO =
  'sync never changes or drops a column: rename or drop it yourself (ALTER TABLE …) and run again, or sync into another --schema';

/**
 * A published name longer than the database keeps (PostgreSQL: 63 bytes) is the contract error
 * (exit 9): PostgreSQL cuts it, so the catalog never shows the name asked for and every run after
 * the first tried to add the column again ("already exists"). Names that meet after snake_case are
 * refused where the tables are made (familyTables).
 */
function checkNameLengths(db: Database, specs: readonly TableSpec[]): void {
  const max = db.dialect.maxNameBytes;
  if (max === undefined) return;
  const shown = (name: string) => (name.length > 70 ? `${name.slice(0, 70)}…` : name);
  for (const spec of specs) {
    const long = [spec.name, ...spec.columns.map((column) => column.name)].find((name) => Buffer.byteLength(name) > max);
    if (long === undefined) continue;
    throw new ContractError(
      `the published schema makes the name ${shown(long)} (table ${shown(spec.name)}), longer than the ${max} bytes the database keeps of a name: no rows were written`,
      { hint: 'report it to the service; meanwhile leave that family out of this sync' },
    );
  }
}

/**
 * The changes each table needs, read before anything is written. Throws (exit 2) when an existing
 * table cannot take the family's rows, (exit 9) when a published name is longer than the database keeps.
 */
export async function planTables(db: Database, schema: string, specs: readonly TableSpec[]): Promise<TableChange[]> {
  checkNameLengths(db, specs);
  const existing = await db.tables(
    schema,
    specs.map((spec) => spec.name),
  );
  return specs.map((spec) => {
    const table = existing.get(spec.name);
    if (!table) return { spec, create: true, add: [] };
    const where = `${schema}.${spec.name}`;
    for (const column of spec.columns) {
      const dataType = table.columns.get(column.name);
      if (dataType === undefined) continue;
      const wanted = db.dialect.typeName(column.type);
      const has = db.dialect.typeOf(dataType);
      // A JSON column holds any value (written as JSON); any other type must be the one described.
      if (has === column.type || has === 'json') continue;
      throw new UsageError(
        `column ${where}.${column.name} is ${dataType} in ${db.shown}, but the published schema now makes it ${wanted}: nothing was written for ${spec.name}`,
        { hint: WHAT_TO_DO },
      );
    }
    if (table.key.join(',') !== spec.key.join(',')) {
      throw new UsageError(
        `table ${where} in ${db.shown} was not made by sync: its primary key is ${table.key.length > 0 ? `(${table.key.join(', ')})` : 'missing'}, sync needs (${spec.key.join(', ')}); nothing was written for it`,
        { hint: 'sync never drops a table: rename or drop it yourself, or sync into another --schema' },
      );
    }
    return { spec, create: false, add: spec.columns.filter((column) => !table.columns.has(column.name)) };
  });
}

/** Create the tables and add the columns the plan says (in the caller's transaction). */
export async function applyTables(db: Database, schema: string, changes: readonly TableChange[]): Promise<void> {
  for (const { spec, create, add } of changes) {
    const table = qualified(schema, spec.name);
    if (create) {
      const columns = spec.columns.map((column) => `${quote(column.name)} ${db.dialect.typeName(column.type)}`);
      await db.run(`CREATE TABLE ${table} (${columns.join(', ')}, PRIMARY KEY (${spec.key.map(quote).join(', ')}))`);
    }
    for (const column of add) await db.run(`ALTER TABLE ${table} ADD COLUMN ${quote(column.name)} ${db.dialect.typeName(column.type)}`);
  }
}

/**
 * The schema's name as the database spells it, where its case makes no other name (DuckDB): a run
 * given `--schema Acme` for the schema `acme` an earlier run made reads and writes that one, and the
 * catalog, which compares names as spelled, finds its tables. The name as given otherwise.
 */
export async function schemaAsSpelled(db: Database, schema: string): Promise<string> {
  const ask = db.dialect.schemaSpelling;
  if (ask === undefined || schema === db.dialect.defaultSchema) return schema;
  const [row] = await db.query(ask, [schema]);
  return row === undefined ? schema : String(row.name);
}

/**
 * The schema (unless the dialect's default) and the state table, made where missing: the first thing
 * a writing run does. PostgreSQL checks the privilege to create before it looks whether the object
 * is there, so `CREATE … IF NOT EXISTS` of a schema or a table that exists is refused to a role that
 * may not create one: a role an administrator gave a schema of its own (CREATE SCHEMA acme
 * AUTHORIZATION ops) but no CREATE on the database, or rights on the tables alone. There the catalog
 * is asked first (one query, the dialect's) and only what is missing is made; DuckDB's file has no
 * such privileges.
 */
export async function ensureSchemaAndState(db: Database, schema: string): Promise<void> {
  let schemaThere = schema === db.dialect.defaultSchema;
  let stateThere = false;
  const lookFirst = db.dialect.existingSchemaAndTable;
  if (lookFirst !== undefined) {
    const [row] = await db.query(lookFirst, [schema, STATE_TABLE]);
    schemaThere ||= Number(row?.schemas) > 0;
    stateThere = Number(row?.states) > 0;
  }
  if (!schemaThere) await db.run(`CREATE SCHEMA IF NOT EXISTS ${quote(schema)}`);
  if (!stateThere) await ensureStateTable(db, schema);
}

/** The state table: one row per family (sync's own). */
async function ensureStateTable(db: Database, schema: string): Promise<void> {
  const t = (type: ColumnType) => db.dialect.typeName(type);
  await db.run(
    `CREATE TABLE IF NOT EXISTS ${qualified(schema, STATE_TABLE)} (family ${t('text')} PRIMARY KEY, origin ${t('text')} NOT NULL, ` +
      `watermark ${t('timestamptz')}, last_full_at ${t('timestamptz')}, records ${t('bigint')} NOT NULL, cli_version ${t('text')} NOT NULL, ` +
      `synced_at ${t('timestamptz')} NOT NULL)`,
  );
}
