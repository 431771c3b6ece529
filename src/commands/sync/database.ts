// What sync needs of a database, the same for DuckDB and PostgreSQL: statements with `$n`
// parameters (every value sent as text and cast in the SQL, so both read it the same way),
// transactions, and the dialect's names for the column types of core/table-shape. The two
// implementations are duckdb.ts and postgres.ts, each loaded (with its driver) only when chosen.
import type { ColumnType } from '../../core/table-shape/shape.js';

export interface ColumnSpec {
  name: string;
  type: ColumnType;
}

/** A statement parameter: text, or SQL NULL. */
export type Param = string | null;

export interface Dialect {
  name: 'duckdb' | 'postgres';
  /** The schema tables go to when --schema is not given. */
  defaultSchema: string;
  /**
   * Where `CREATE … IF NOT EXISTS` asks for the privilege to create before it looks whether the
   * object is there (PostgreSQL), the query that looks first (tables.ts ensureSchemaAndState): with
   * `$1` the schema and `$2` a table, one row of `schemas` and `states` counts, read from catalogs
   * every role sees. Undefined where there are no such privileges (DuckDB).
   */
  existingSchemaAndTable: string | undefined;
  /**
   * Where a schema's name is one name whatever its case (DuckDB: `--schema Acme` is schema `acme`),
   * the query for how the database spells the one given as `$1`: one row `name`, none when there is
   * no such schema. Undefined where case makes another name (PostgreSQL, whose names sync quotes).
   */
  schemaSpelling: string | undefined;
  typeName(type: ColumnType): string;
  /** A type as information_schema.columns.data_type spells it, as ours (undefined: none of ours). */
  typeOf(dataType: string): ColumnType | undefined;
  /** A FROM item `r` of the elements of a JSON array given as the text parameter `param`. */
  jsonElements(param: string): string;
  /** SQL giving a timestamptz expression as milliseconds since the epoch (a bigint). */
  epochMs(expression: string): string;
  /**
   * The longest name the database keeps whole, in bytes (PostgreSQL: 63, longer ones it cuts with a
   * notice); undefined where there is no such bound (DuckDB).
   */
  maxNameBytes: number | undefined;
}

/** A table already in the database: its columns (name → data type, in the table's order) and primary key. */
export interface ExistingTable {
  columns: Map<string, string>;
  key: string[];
}

export interface Database {
  readonly dialect: Dialect;
  /** Where it is, for messages (`appraisal.duckdb`, `postgres at db:5432`): never a password. */
  readonly shown: string;
  query(sql: string, params?: readonly Param[]): Promise<Array<Record<string, unknown>>>;
  run(sql: string, params?: readonly Param[]): Promise<void>;
  /**
   * Insert rows of text cells into `table` (qualified), each cast to its column's type, `conflict`
   * (an `ON CONFLICT …` clause, or '') after them. In the caller's transaction.
   */
  insert(table: string, columns: readonly ColumnSpec[], rows: readonly Param[][], conflict: string): Promise<void>;
  /**
   * Insert rows none of whose keys is in `schema.table` (new records, replaced child rows), as insert
   * does, by the quickest way the store has. In the caller's transaction.
   */
  append(schema: string, table: string, columns: readonly ColumnSpec[], rows: readonly Param[][]): Promise<void>;
  /** Those of `names` that are tables (or views) of `schema`, as they are: read before anything is written. */
  tables(schema: string, names: readonly string[]): Promise<Map<string, ExistingTable>>;
  /** One transaction: committed when `work` resolves, rolled back when it throws. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Hold the one-writer lock of this schema for the connection's life; false when another holds it. */
  lock(schema: string): Promise<boolean>;
  /**
   * Who holds the lock `lock` did not get, as far as the database shows it (`pid 4711, appraisal
   * sync from 10.0.0.5, idle for 42m`), for the refusal; undefined when it shows nothing. Only where
   * a lock can be held by another connection (PostgreSQL; DuckDB's file lock refuses the open).
   */
  lockHolder?(schema: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** `"name"`, with quotes doubled: every identifier sync writes goes through here. */
export function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

export function qualified(schema: string, table: string): string {
  return `${quote(schema)}.${quote(table)}`;
}

/** Run `work` (when given) and say how it ended, for an opening that must finish its own part first. */
export async function settled(work: (() => Promise<void>) | undefined): Promise<{ failed: false } | { failed: true; error: unknown }> {
  try {
    await work?.();
    return { failed: false };
  } catch (error) {
    return { failed: true, error };
  }
}

/**
 * What to do after a write the disk had no room for (DuckDB's file or WAL, PostgreSQL's server):
 * every batch committed before it is kept, so the same command goes on from there.
 */
export function diskFullHint(message: string, code?: string): string | undefined {
  if (code !== '53100' && !/No space left on device|disk full/i.test(message)) return undefined;
  return 'the disk is full: free some space (or choose another --to), then run the same command: every batch committed before this is kept and the run goes on from there';
}
