// The PostgreSQL target through `pg` (bundled apart, loaded only here). The connection is read as
// libpq reads it (postgres-connection.ts). Messages name the host and port only, never the
// password. One writer per schema: a
// session advisory lock keyed by the schema's name, held until the connection closes (a killed
// sync's lock goes with its connection).
import { defaultExport } from '../../core/default-export.js';
import { formatDuration } from '../../core/duration.js';
import { ContractError, LocalEnvironmentError, NetworkError, UsageError } from '../../core/errors.js';
import type { ColumnType } from '../../core/table-shape/shape.js';
import { diskFullHint, qualified, quote, settled, type ColumnSpec, type Database, type Dialect, type Param } from './database.js';
import { connect, connectError, connectionConfig, UNREACHABLE, type ConnectionConfig } from './postgres-connection.js';
import { privilegeHint } from './postgres-privileges.js';
import { catalogTables } from './tables.js';
import { postgresHost } from './target.js';

type Env = Readonly<Record<string, string | undefined>>;

const TYPES: Readonly<Record<ColumnType, string>> = {
  text: 'text',
  timestamptz: 'timestamp with time zone',
  date: 'date',
  bigint: 'bigint',
  double: 'double precision',
  boolean: 'boolean',
  json: 'jsonb',
};
const FROM_DATA_TYPE = new Map<string, ColumnType>(Object.entries(TYPES).map(([type, name]) => [name, type as ColumnType]));

export const POSTGRES_DIALECT: Dialect = {
  name: 'postgres',
  defaultSchema: 'public',
  existingSchemaAndTable:
    'SELECT (SELECT count(*) FROM pg_namespace WHERE nspname = $1) AS schemas, ' +
    '(SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename = $2) AS states',
  schemaSpelling: undefined,
  typeName: (type) => TYPES[type],
  typeOf: (dataType) => FROM_DATA_TYPE.get(dataType.toLowerCase()),
  jsonElements: (param) => `jsonb_array_elements(CAST(${param} AS jsonb)) AS r`,
  epochMs: (expression) => `CAST(floor(extract(epoch from ${expression}) * 1000) AS bigint)`,
  maxNameBytes: 63,
};

/** The advisory lock's first key: "apsy", so it does not meet another program's locks keyed by one number. */
const LOCK_CLASS = 0x61707379;

/**
 * An INSERT of rows sent as one array parameter per column, each typed as its column
 * (`unnest($1::text[], $2::bigint[], …)`): the values travel as text inside the array literal
 * (node-postgres quotes every element and escapes its quotes and backslashes), so they stay exact.
 * Measured on 20 batches of 1,000 properties (19 columns), one transaction each: the statements
 * took ~320 ms in all, as COPY FROM STDIN did (pg-copy-streams), against ~460 ms for the rows as one
 * JSON parameter unpacked by the server (the way before; a parameter per cell was 6-10x slower
 * still). COPY would add a dependency, its own text escaping and, for the upsert of changed rows, a
 * staging table, for nothing measurable.
 */
function insertSql(table: string, columns: readonly ColumnSpec[], conflict: string): string {
  const names = columns.map((column) => quote(column.name)).join(', ');
  const arrays = columns.map((column, index) => `CAST($${index + 1} AS ${POSTGRES_DIALECT.typeName(column.type)}[])`);
  return `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays.join(', ')})${conflict}`;
}

/** The rows' cells, column by column. */
function columnArrays(width: number, rows: readonly Param[][]): Param[][] {
  return Array.from({ length: width }, (_, index) => rows.map((row) => row[index] ?? null));
}

/** `meanwhile`: work of the caller's run while the connection is made (as openDuckDB's). */
const JSON_NUL = /(?:^|[^\\])(?:\\\\)*\\u0000/;

/**
 * PostgreSQL's text (and jsonb) cannot hold U+0000, which JSON can carry and DuckDB keeps: refused by
 * record and column before the batch is sent (exit 9, nothing of it written), where PostgreSQL's
 * "invalid byte sequence for encoding UTF8: 0x00" named neither.
 */
function refuseNul(table: string, columns: ReadonlyArray<ColumnSpec>, rows: ReadonlyArray<readonly Param[]>): void {
  const key = columns.findIndex((column) => column.name === 'id' || column.name === 'parent_id');
  // In a JSON cell, as its escape (jsonb refuses \u0000 too): one not itself escaped (`\\u0000` is text).
  const holdsNul = (cell: Param, index: number) =>
    typeof cell === 'string' && (cell.includes('\u0000') || (columns[index]?.type === 'json' && JSON_NUL.test(cell)));
  for (const row of rows) {
    const at = row.findIndex(holdsNul);
    if (at < 0) continue;
    const record = key >= 0 ? ` of record ${String(row[key])}` : '';
    throw new ContractError(
      `${table.replaceAll('"', '')}.${columns[at]!.name}${record} holds a NUL character (U+0000), which PostgreSQL cannot store: nothing of this batch was written`,
      { hint: 'sync it into DuckDB (--to duckdb:PATH), which keeps it, or have the service stop sending it' },
    );
  }
}

export async function openPostgres(url: string, env: Env, meanwhile?: () => Promise<void>): Promise<Database> {
  const shown = `postgres at ${postgresHost(url, env)}`;
  let config: ConnectionConfig;
  try {
    config = await connectionConfig(url, env);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // Not `shown`: where a URL cannot be read, its host and port are not known either.
    throw new UsageError(`--to: the URL cannot be read as a PostgreSQL URL (${(error as Error).message.slice(0, 80)})`, {
      hint: 'write it postgres://USER@HOST:PORT/DATABASE, as psql reads it',
      cause: error,
    });
  }
  const pg = defaultExport(await import('pg')) as typeof import('pg');
  const connecting = connect(pg, config);
  connecting.catch(() => undefined);
  const alongside = await settled(meanwhile);
  let client: import('pg').Client;
  try {
    client = await connecting;
  } catch (error) {
    throw connectError(shown, config, error);
  }
  if (alongside.failed) {
    await client.end().catch(() => undefined);
    throw alongside.error;
  }
  /** A statement's failure as the CLI says it; `sql`, the statement, names what a missing privilege refused. */
  const failed = (error: unknown, sql: string): never => {
    const code = (error as { code?: string }).code;
    if (code && UNREACHABLE.has(code)) throw new NetworkError(`${shown}: the connection was lost (${code})`, { cause: error });
    const message = (error as Error).message ?? '';
    const hint = diskFullHint(message, code) ?? (code === '42501' ? privilegeHint(message, sql, config.user) : undefined);
    throw new LocalEnvironmentError(`${shown}: ${(error as Error).message}`, { hint, cause: error });
  };
  const database: Database = {
    dialect: POSTGRES_DIALECT,
    shown,
    async query(sql, params) {
      const result = await client.query(sql, params ? [...params] : undefined).catch((error: unknown) => failed(error, sql));
      return result.rows as Array<Record<string, unknown>>;
    },
    async run(sql, params) {
      await client.query(sql, params ? ([...params] as Param[]) : undefined).catch((error: unknown) => failed(error, sql));
    },
    async insert(table, columns, rows, conflict) {
      refuseNul(table, columns, rows);
      const sql = insertSql(table, columns, conflict);
      await client.query(sql, columnArrays(columns.length, rows)).catch((error: unknown) => failed(error, sql));
    },
    append: (schema, table, columns, rows) => database.insert(qualified(schema, table), columns, rows, ''),
    tables: (schema, names) => catalogTables(database, schema, names),
    async transaction(work) {
      await database.run('BEGIN');
      try {
        const result = await work();
        await database.run('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    async lock(schema) {
      const [row] = await database.query('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [String(LOCK_CLASS), schema]);
      return row?.locked === true;
    },
    // The session holding the lock, from pg_locks (a two-key advisory lock: classid, objid, objsubid
    // 2) and pg_stat_activity, whose details a role sees for its own sessions only. A sync's
    // connection says `appraisal sync`; one idle for long may be a pooler's in transaction mode,
    // which keeps a lock after the sync that took it has ended (docs/SYNC.md).
    async lockHolder(schema) {
      const rows = await database
        .query(
          'SELECT l.pid, a.application_name AS app, host(a.client_addr) AS addr, a.state, ' +
            'CAST(floor(extract(epoch from now() - a.state_change) * 1000) AS bigint) AS for_ms ' +
            "FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted " +
            'AND l.classid = CAST(CAST($1 AS integer) AS oid) AND l.objid = CAST(hashtext($2) AS oid) AND l.objsubid = 2 LIMIT 1',
          [String(LOCK_CLASS), schema],
        )
        .catch(() => []);
      const row = rows[0];
      if (row === undefined) return undefined;
      // Others' text (an application name): bounded here, made safe for a terminal where stderr is written.
      const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value.slice(0, 60) : undefined);
      const app = text(row.app);
      const addr = text(row.addr);
      const state = text(row.state);
      const since = row.for_ms === null || row.for_ms === undefined ? undefined : formatDuration(Number(row.for_ms));
      return [
        `pid ${String(row.pid)}`,
        app || addr ? `${app ?? 'a session'}${addr ? ` from ${addr}` : ''}` : undefined,
        state ? `${state}${since ? ` for ${since}` : ''}` : undefined,
      ]
        .filter((part) => part !== undefined)
        .join(', ');
    },
    async close() {
      await client.end().catch(() => undefined);
    },
  };
  return database;
}
