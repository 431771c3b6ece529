// The PostgreSQL target through `pg` (bundled apart, loaded only here). The connection is read as
// libpq reads it: the URL first, then the PG* variables of the CLI's environment (PGHOST, PGPORT,
// PGUSER, PGDATABASE, PGPASSWORD, PGSSLMODE), then the password file (PGPASSFILE or ~/.pgpass, by
// pgpass). Messages name the host and port only, never the password. One writer per schema: a
// session advisory lock keyed by the schema's name, held until the connection closes (a killed
// sync's lock goes with its connection).
import { LocalEnvironmentError, NetworkError, UsageError } from '../../core/errors.js';
import type { ColumnType } from '../../core/table-shape/shape.js';
import { qualified, quote, settled, type ColumnSpec, type Database, type Dialect, type Param } from './database.js';
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
  typeName: (type) => TYPES[type],
  typeOf: (dataType) => FROM_DATA_TYPE.get(dataType.toLowerCase()),
  jsonElements: (param) => `jsonb_array_elements(CAST(${param} AS jsonb)) AS r`,
  epochMs: (expression) => `CAST(floor(extract(epoch from ${expression}) * 1000) AS bigint)`,
};

/** The advisory lock's first key: "apsy", so it does not meet another program's locks keyed by one number. */
const LOCK_CLASS = 0x61707379;

interface ConnectionConfig {
  host: string;
  port: number;
  user: string;
  database: string;
  password: string | undefined;
  ssl: boolean | { rejectUnauthorized: boolean };
  [option: string]: unknown;
}

function sslOf(mode: string | undefined): ConnectionConfig['ssl'] {
  switch (mode) {
    case 'require':
    case 'prefer':
      return mode === 'require' ? { rejectUnauthorized: false } : false;
    case 'verify-ca':
    case 'verify-full':
      return { rejectUnauthorized: true };
    default:
      return false;
  }
}

/** The URL's parts, with what it leaves out taken from the PG* variables and the password file, as libpq does. */
async function connectionConfig(url: string, env: Env): Promise<ConnectionConfig> {
  const { parse } = await import('pg-connection-string');
  const given = parse(url);
  const host = given.host || env.PGHOST || 'localhost';
  const port = Number(given.port || env.PGPORT || 5432);
  const user = given.user || env.PGUSER || env.USER || env.LOGNAME || 'postgres';
  const database = given.database || env.PGDATABASE || user;
  const sslmode = new URL(url.replace(/^postgres(ql)?:/i, 'http:')).searchParams.get('sslmode') ?? env.PGSSLMODE;
  let password = given.password || env.PGPASSWORD;
  if (!password) password = await passwordFile({ host, port: String(port), database, user }, env);
  return { host, port, user, database, password, ssl: sslOf(sslmode ?? undefined) };
}

/** The password file's entry for this connection (PGPASSFILE, else ~/.pgpass; ignored unless 0600, as libpq). */
async function passwordFile(connection: Record<string, string>, env: Env): Promise<string | undefined> {
  const helper = await import('pgpass/lib/helper.js');
  const { stat } = await import('node:fs/promises');
  const { createReadStream } = await import('node:fs');
  const file = helper.getFileName(env);
  const stats = await stat(file).catch(() => undefined);
  if (!stats || !helper.usePgPass(stats, file)) return undefined;
  return new Promise((done) => helper.getPassword(connection, createReadStream(file), (password) => done(password || undefined)));
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'ENOENT']);

/** A connection failure as the CLI says it: unreachable (exit 3) or refused by the server (exit 2). */
function connectError(shown: string, config: ConnectionConfig, error: unknown): Error {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message ?? String(error);
  if ((code && UNREACHABLE.has(code)) || /timeout|terminated unexpectedly/i.test(message)) {
    return new NetworkError(`cannot reach ${shown}: ${code ?? message}`, {
      hint: 'check the host and port in --to (or PGHOST/PGPORT) and that the server is running and accepts TCP connections',
      cause: error,
    });
  }
  const hint =
    code === '28P01' || code === '28000'
      ? `check the user and password: in the URL, PGUSER/PGPASSWORD, or ${'~/.pgpass'} (mode 0600)`
      : code === '3D000'
        ? `create the database first (createdb ${config.database}), or name another in the URL`
        : undefined;
  return new LocalEnvironmentError(`${shown} refused the connection as user ${config.user}: ${message}`, { hint, cause: error });
}

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
export async function openPostgres(url: string, env: Env, meanwhile?: () => Promise<void>): Promise<Database> {
  const shown = `postgres at ${postgresHost(url, env)}`;
  let config: ConnectionConfig;
  try {
    config = await connectionConfig(url, env);
  } catch (error) {
    throw new UsageError(`--to: ${shown}: the URL cannot be read (${(error as Error).message.slice(0, 80)})`, { cause: error });
  }
  const pg = (await import('pg')) as unknown as { default?: typeof import('pg') } & typeof import('pg');
  const { Client } = pg.default ?? pg;
  const client = new Client({ ...config, connectionTimeoutMillis: 15_000, application_name: 'appraisal sync' });
  // A connection lost while idle is reported here; the statement waiting on it fails on its own.
  client.on('error', () => undefined);
  const connecting = client.connect();
  connecting.catch(() => undefined);
  const alongside = await settled(meanwhile);
  try {
    await connecting;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw connectError(shown, config, error);
  }
  if (alongside.failed) {
    await client.end().catch(() => undefined);
    throw alongside.error;
  }
  const failed = (error: unknown): never => {
    const code = (error as { code?: string }).code;
    if (code && UNREACHABLE.has(code)) throw new NetworkError(`${shown}: the connection was lost (${code})`, { cause: error });
    throw new LocalEnvironmentError(`${shown}: ${(error as Error).message}`, { cause: error });
  };
  const database: Database = {
    dialect: POSTGRES_DIALECT,
    shown,
    async query(sql, params) {
      const result = await client.query(sql, params ? [...params] : undefined).catch(failed);
      return result.rows as Array<Record<string, unknown>>;
    },
    async run(sql, params) {
      await client.query(sql, params ? ([...params] as Param[]) : undefined).catch(failed);
    },
    async insert(table, columns, rows, conflict) {
      await client.query(insertSql(table, columns, conflict), columnArrays(columns.length, rows)).catch(failed);
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
    async close() {
      await client.end().catch(() => undefined);
    },
  };
  return database;
}
