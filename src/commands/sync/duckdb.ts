// The embedded target: a DuckDB file through @duckdb/node-api (a vendor bundle with a code cache,
// its native binding from node_modules; loaded only here, so no other command pays for it). DuckDB
// locks the file for the process that opens it: a second writer fails to open it, which is the
// one-writer rule (exit 2 naming the file and, when DuckDB says it, the holder's pid). A dry run
// opens an existing file read-only, and a missing one not at all (an in-memory database stands in).
import { existsSync } from 'node:fs';
import { DUCKDB_OFFLINE } from '../../core/duckdb-offline.js';
import { LocalEnvironmentError, UsageError } from '../../core/errors.js';
import { refuseOthersLink, refuseOthersLog, refuseSpecialFile } from '../../core/owned-file.js';
import { commandLineOf } from '../../core/process-facts.js';
import type { ColumnType } from '../../core/table-shape/shape.js';
import { diskFullHint, quote, settled, type Database, type Dialect, type ExistingTable, type Param } from './database.js';
import { openFailure } from './open-failure.js';

export type DuckDBModule = typeof import('@duckdb/node-api');

const TYPES: Readonly<Record<ColumnType, string>> = {
  text: 'VARCHAR',
  timestamptz: 'TIMESTAMP WITH TIME ZONE',
  date: 'DATE',
  bigint: 'BIGINT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  json: 'JSON',
};
const FROM_DATA_TYPE = new Map<string, ColumnType>(Object.entries(TYPES).map(([type, name]) => [name, type as ColumnType]));

export const DUCKDB_DIALECT: Dialect = {
  name: 'duckdb',
  defaultSchema: 'main',
  existingSchemaAndTable: undefined,
  schemaSpelling:
    'SELECT schema_name AS name FROM duckdb_schemas() WHERE database_name = current_database() AND lower(schema_name) = lower($1)',
  typeName: (type) => TYPES[type],
  typeOf: (dataType) => FROM_DATA_TYPE.get(dataType.toUpperCase()),
  jsonElements: (param) => `(SELECT unnest(CAST(${param} AS JSON[])) AS r) AS elements`,
  epochMs: (expression) => `epoch_ms(${expression})`,
  maxNameBytes: undefined,
};

/**
 * One thread: batches of 1,000 rows gain nothing from more, which only raise the peak RSS. DuckDB's
 * memory limit (80% of the machine): the key's index (~95 bytes a row) cannot be spilled, so a fixed
 * limit is a record count past which every commit fails (128MB: ~1.2 million properties).
 *
 * A new file is in DuckDB 1.3's storage format (1.3 or later reads it; a file there keeps its own):
 * DuckDB's default, readable by 0.10, made the checkpoint ending a run that changed rows 9-13 ms
 * where it takes 3 at 20,000 properties (24 against 11 at 200,000: CHANGELOG).
 */
const SETTINGS: Readonly<Record<string, string>> = { ...DUCKDB_OFFLINE, threads: '1', storage_compatibility_version: 'v1.3.0' };

/**
 * A time as RFC 3339 in UTC (`Z`) with at most microseconds: the appender reads it exactly as
 * CAST(… AS TIMESTAMP WITH TIME ZONE) does, whatever the session's time zone (checked).
 */
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** DuckDB's module, loaded here only (`otherwise`: what the hint offers besides the npm package). */
export async function loadDuckDB(path: string, otherwise = 'or sync into postgres://…'): Promise<DuckDBModule> {
  try {
    return await import('@duckdb/node-api');
  } catch (error) {
    throw new LocalEnvironmentError(`cannot load DuckDB for ${path}: ${(error as Error).message.split('\n')[0]}`, {
      hint: `DuckDB ships inside the npm package (@duckdb/node-api); the single executable cannot load it: install the package, ${otherwise}`,
      cause: error,
    });
  }
}

/**
 * Whether the process holding the file is another `appraisal sync` (its command line names the
 * verb after the CLI's launcher or executable), as far as this machine lets us see.
 */
function holderIsSync(pid: number): boolean | undefined {
  const words = commandLineOf(pid);
  if (words === undefined) return undefined;
  const cli = words.findIndex((word) => /(^|\/)appraisal(\.js|-[\w-]+)?$/.test(word));
  return cli >= 0 && words.slice(cli + 1).includes('sync');
}

/** DuckDB's open failure as the CLI says it: another holder (exit 2), a file it may not write (exit 2). */
function openError(shown: string, error: unknown): Error {
  const failure = openFailure((error as Error).message ?? String(error));
  if (failure.kind === 'locked') {
    const holder = failure.pid === undefined ? '' : ` (${failure.program}, pid ${failure.pid})`;
    const sync = failure.pid === undefined ? undefined : holderIsSync(failure.pid);
    if (sync === false) {
      // A DuckDB shell, a notebook or a dashboard with the file open: DuckDB lets one process have a
      // file open for writing, and no other open it at all meanwhile.
      return new UsageError(`${shown} is in use by another program${holder}`, {
        hint: 'DuckDB lets one process at a time open a database file: close it in the other program (a DuckDB shell, a notebook, a dashboard), then run this again',
      });
    }
    return new UsageError(
      `${shown} is in use by another process${holder}: ${sync ? 'another sync holds it' : 'another sync, or a program that has it open'}`,
      {
        hint: 'one sync writes a database at a time: wait for the other to finish (or stop it), then run this again',
      },
    );
  }
  // A file of something else (a CSV, a SQLite database): sync never writes over it.
  if (failure.kind === 'foreign') {
    return new UsageError(
      `${shown} is ${failure.sqlite ? 'a SQLite database, not a DuckDB one' : `not a DuckDB database: ${failure.detail}`}`,
      {
        hint: 'sync writes a DuckDB file of its own and never over another kind: choose another --to duckdb:PATH (a new name makes a new database)',
      },
    );
  }
  return new LocalEnvironmentError(`cannot open ${shown} for writing: ${failure.detail}`, {
    hint: 'check that the file and its directory exist and are writable by this user, or choose another --to duckdb:PATH',
    cause: error,
  });
}

/**
 * `meanwhile`: work of the caller's run while DuckDB opens the file on a thread of its own (the open
 * takes ~40 ms whatever the file); the database is returned only when both are done, and closed
 * again when `meanwhile` fails (an open failure is the one reported when both fail).
 */
export async function openDuckDB(
  path: string,
  shown: string,
  options: { readOnly: boolean; meanwhile?: () => Promise<void> },
): Promise<Database> {
  const duckdb = await loadDuckDB(shown);
  // DuckDB opens the file and writes its log beside it (PATH.wal) through whatever is there: a link
  // another user planted in a directory both can write would have it write into the linked file.
  // And it replays a log it finds, a dry run's read-only open too: another user's would be run here.
  if (!options.readOnly) await refuseOthersLink(path, shown);
  await refuseOthersLog(`${path}.wal`, `${shown}.wal`);
  await refuseSpecialFile(path, shown);
  await refuseSpecialFile(`${path}.wal`, `${shown}.wal`);
  const missing = !existsSync(path);
  const creating =
    options.readOnly && missing
      ? duckdb.DuckDBInstance.create(':memory:', DUCKDB_OFFLINE)
      : duckdb.DuckDBInstance.create(path, { ...SETTINGS, ...(options.readOnly ? { access_mode: 'READ_ONLY' } : {}) });
  creating.catch(() => undefined);
  const alongside = await settled(options.meanwhile);
  let instance: InstanceType<DuckDBModule['DuckDBInstance']>;
  try {
    instance = await creating;
  } catch (error) {
    throw openError(shown, error);
  }
  if (alongside.failed) {
    instance.closeSync();
    throw alongside.error;
  }
  const connection = await instance.connect();
  const values = (params: readonly Param[] | undefined) => (params ? [...params] : undefined);
  // The temporary staging table of each column list (insert), made on first use.
  const staged = new Map<string, string>();
  const failed = (error: unknown): never => {
    const message = (error as Error).message.split('\n')[0] ?? '';
    throw new LocalEnvironmentError(`${shown}: ${message}`, { hint: diskFullHint(message), cause: error });
  };
  // A table's columns as DuckDB would answer `SELECT *` (names and types in the table's order),
  // from a prepared statement that never runs: ~2 ms where information_schema.columns took ~20.
  const describe = async (schema: string, table: string): Promise<Map<string, string>> => {
    const statement = await connection.prepare(`SELECT * FROM ${quote(schema)}.${quote(table)} LIMIT 0`).catch(failed);
    try {
      const columns = new Map<string, string>();
      for (let index = 0; index < statement.columnCount; index++) {
        const type = statement.columnType(index);
        columns.set(statement.columnName(index), type.alias ?? String(type));
      }
      return columns;
    } finally {
      statement.destroySync();
    }
  };
  // Each table's column names in the table's order (append), read on first use; a statement that
  // changes tables forgets them.
  const tableColumns = new Map<string, string[]>();
  const columnsOf = async (schema: string, table: string): Promise<string[]> => {
    const key = `${schema}.${table}`;
    let names = tableColumns.get(key);
    if (names === undefined) {
      names = [...(await describe(schema, table)).keys()];
      tableColumns.set(key, names);
    }
    return names;
  };
  const database: Database = {
    dialect: DUCKDB_DIALECT,
    shown,
    async query(sql, params) {
      const reader = await connection.runAndReadAll(sql, values(params)).catch(failed);
      return reader.getRowObjectsJson() as Array<Record<string, unknown>>;
    },
    async run(sql, params) {
      if (/^\s*(CREATE|ALTER|DROP)\b/i.test(sql)) tableColumns.clear();
      await connection.run(sql, values(params)).catch(failed);
    },
    // Rows with no key to conflict on go straight into the table through DuckDB's appender, which
    // casts each text cell to its column's type as CAST does (measured: half the time of the staging
    // table, and none of its memory, which DuckDB does not give back after a DELETE). Except for a
    // time with an offset, which the appender's cast drops: a batch with one goes through insert.
    async append(schema, table, columns, rows) {
      const times = columns.flatMap((column, index) => (column.type === 'timestamptz' ? [index] : []));
      const names = await columnsOf(schema, table);
      const at = names.map((name) => columns.findIndex((column) => column.name === name));
      const direct =
        columns.every((column) => names.includes(column.name)) &&
        rows.every((row) => times.every((index) => row[index] === null || UTC_TIME.test(row[index]!)));
      if (!direct) return database.insert(`${quote(schema)}.${quote(table)}`, columns, rows, '');
      const appender = await connection.createAppender(table, schema).catch(failed);
      try {
        for (const row of rows) {
          for (const index of at) {
            // A column sync does not write (a field the description dropped): null, as insert leaves it.
            if (index < 0 || row[index] === null) appender.appendNull();
            else appender.appendVarchar(row[index]!);
          }
          appender.endRow();
        }
        appender.closeSync();
      } catch (error) {
        // Nothing of the batch is kept: the caller's transaction is rolled back.
        try {
          appender.clear();
          appender.closeSync();
        } catch {
          // already closed by the failure
        }
        failed(error);
      }
    },
    // Appended to a temporary all-text table, then cast into the real one by one INSERT … SELECT:
    // measured ~20x faster than a VALUES list with a parameter per cell (CHANGELOG).
    async insert(table, columns, rows, conflict) {
      const key = columns.map((column) => column.name).join(',');
      let name = staged.get(key);
      if (name === undefined) {
        name = `appraisal_stage_${staged.size}`;
        await database.run(`CREATE TEMP TABLE ${quote(name)} (${columns.map((column) => `${quote(column.name)} VARCHAR`).join(', ')})`);
        staged.set(key, name);
      }
      const appender = await connection.createAppender(name, 'main', 'temp').catch(failed);
      try {
        for (const row of rows) {
          for (const cell of row) {
            if (cell === null) appender.appendNull();
            else appender.appendVarchar(cell);
          }
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
      const casts = columns.map((column) => `CAST(${quote(column.name)} AS ${DUCKDB_DIALECT.typeName(column.type)})`);
      const names = columns.map((column) => quote(column.name)).join(', ');
      await database.run(`INSERT INTO ${table} (${names}) SELECT ${casts.join(', ')} FROM temp.main.${quote(name)}${conflict}`);
      await database.run(`DELETE FROM temp.main.${quote(name)}`);
    },
    // Which of them are there and their primary keys (one query of DuckDB's own catalog functions,
    // not information_schema's views: ~15 ms where the two information_schema queries took ~30), then
    // each one's columns (describe).
    async tables(schema, names) {
      const found = new Map<string, ExistingTable>();
      if (names.length === 0) return found;
      // DuckDB's names are one whatever their case: someone's table "Properties" is sync's properties.
      const list = names.map((_, index) => `lower($${index + 2})`).join(', ');
      const here = (of: string) => `${of}.database_name = current_database() AND ${of}.schema_name = $1`;
      const rows = await database.query(
        `SELECT t.name, k.constraint_column_names AS key FROM (SELECT table_name AS name FROM duckdb_tables() d WHERE ${here('d')} ` +
          `UNION ALL SELECT view_name FROM duckdb_views() d WHERE ${here('d')}) t LEFT JOIN duckdb_constraints() k ` +
          `ON ${here('k')} AND k.table_name = t.name AND k.constraint_type = 'PRIMARY KEY' WHERE lower(t.name) IN (${list})`,
        [schema, ...names],
      );
      for (const row of rows) {
        const name = String(row.name);
        const asked = names.find((given) => given.toLowerCase() === name.toLowerCase()) ?? name;
        found.set(asked, { columns: await describe(schema, name), key: Array.isArray(row.key) ? row.key.map(String) : [] });
      }
      return found;
    },
    async transaction(work) {
      await database.run('BEGIN TRANSACTION');
      try {
        const result = await work();
        await database.run('COMMIT');
        return result;
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    lock: () => Promise.resolve(true), // the file lock taken at open is the one writer's
    // The close's checkpoint runs first on DuckDB's thread, overlapping the caller's last work (the
    // summary, the hints); one that cannot run now (read-only, a transaction left open) is the close's.
    async close() {
      await connection.run('CHECKPOINT').catch(() => undefined);
      connection.closeSync();
      instance.closeSync();
    },
  };
  return database;
}
