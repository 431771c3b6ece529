// `appraisal sql STATEMENT`: one SQL statement over the database sync keeps, its rows through the
// run's one pipe (table, json, ndjson, csv, parquet; --out, --fields), streamed chunk by chunk, so
// that ops staff can query what they synced with nothing else installed. DuckDB files only: a
// PostgreSQL target has psql.
import type { DuckDBResult } from '@duckdb/node-api';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { readDataFile, readStdin, refuseSharedStdin } from '../../core/record-input/index.js';
import { writeRecords, type View } from '../../output/index.js';
import { checkSchemaName, parseTarget } from '../sync/public.js';
import { openForQuery, type QueryDatabase } from './open.js';
import { resultSchema } from './values.js';
import { RowStream } from './stream.js';

export interface SqlFlags {
  to?: string;
  schema?: string;
}

const TABLES = 'the tables are properties, assignments, clients, contacts, files, their child tables and _appraisal_sync';

/**
 * Where a missing table may be: the schemas that hold sync's state, when the one read has none
 * (`sync --schema acme`, then `sql` without it).
 */
async function elsewhereHint(database: QueryDatabase, schema: string): Promise<string> {
  const found = await database.connection
    .runAndReadAll("SELECT DISTINCT schema_name FROM duckdb_tables() WHERE table_name = '_appraisal_sync' ORDER BY 1")
    .then((reader) => reader.getRowObjectsJson().map((row) => String(row.schema_name)))
    .catch(() => [] as string[]);
  if (found.length === 0 || found.some((name) => name.toLowerCase() === schema.toLowerCase())) return `${TABLES}; SHOW TABLES lists them`;
  return `sync wrote this file's tables into schema ${found.join(', ')}: add --schema ${found[0]}`;
}

/** DuckDB's error for a statement, as one line: the statement is the user's to correct (exit 2). */
async function statementError(error: unknown, database: QueryDatabase, schema: string): Promise<UsageError> {
  const message = ((error as Error).message ?? String(error)).split('\n')[0]!.replace(/^Failed to extract statements: /, '');
  if (/read-only mode/i.test(message))
    return new UsageError(`sql: ${message}`, { hint: 'sql only reads: the tables are written by appraisal sync' });
  if (/disabled by configuration|locked/i.test(message))
    return new UsageError(`sql: ${message}`, { hint: "sql reads the database's own tables: no other file, URL or setting" });
  if (/^Catalog Error/i.test(message)) return new UsageError(`sql: ${message}`, { hint: await elsewhereHint(database, schema) });
  return new UsageError(`sql: ${message}`);
}

/** The statement as given, or read from stdin (`-`) or a file (`@report.sql`), as --data reads its record. */
async function statementOf(ctx: Context, given: string): Promise<string> {
  if (given === '-') {
    refuseSharedStdin(ctx, 'sql -');
    return readStdin(
      ctx,
      ctx.io.stdin,
      'sql -',
      'pipe the statement in (appraisal sql - < report.sql), or give it as appraisal sql @report.sql',
    );
  }
  if (given.startsWith('@') && given.length > 1) return readDataFile(ctx, given.slice(1), `sql ${given.slice(0, 200)}`);
  return given;
}

export async function runSql(ctx: Context, args: readonly string[], flags: SqlFlags): Promise<void> {
  const statement = await statementOf(ctx, args[0] ?? '');
  if (statement.trim() === '')
    throw new UsageError('sql needs a statement', {
      hint: 'e.g. appraisal sql "SELECT status, count(*) FROM assignments GROUP BY status"',
    });
  const target = parseTarget(flags.to, ctx.cwd, ctx.env);
  if (target.kind !== 'duckdb')
    throw new UsageError(`sql reads a DuckDB file; ${target.shown} is PostgreSQL`, { hint: 'query it with psql and the same URL' });
  if (flags.schema !== undefined) checkSchemaName(flags.schema);
  await ctx.output.ready();

  const database = await openForQuery(target.path, target.shown, flags.schema);
  const stop = () => database.connection.interrupt();
  ctx.signal.addEventListener('abort', stop, { once: true });
  let stream: RowStream | undefined;
  try {
    let result: DuckDBResult;
    try {
      const statements = await database.connection.extractStatements(statement);
      if (statements.count !== 1)
        throw new UsageError(`sql runs one statement at a time; this text holds ${statements.count}`, {
          hint: 'run each on its own (a trailing semicolon is fine)',
        });
      result = await (await statements.prepare(0)).stream();
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw await statementError(error, database, flags.schema ?? 'main');
    }
    stream = new RowStream(database, result);
    const names = stream.names;
    const twice = names.find((name, index) => names.indexOf(name) !== index);
    if (twice !== undefined)
      throw new UsageError(`sql: the result has two columns named ${twice}`, { hint: 'give each its own name (… AS name)' });
    const view: View = {
      label: 'rows',
      singular: 'row',
      columns: names,
      recordColumns: names,
      recordSchema: resultSchema(database.duckdb, names, result.columnTypes()),
    };
    try {
      // Chunks of 2,048 rows, each handed over whole: stdout gets a write per chunk, not per row.
      await writeRecords(ctx, stream.rows(ctx.globals.maxItems), view, { bursts: true });
    } catch (error) {
      // DuckDB fails a statement while its rows are read, too (a division by zero in a later chunk).
      if (error instanceof Error && /^[A-Za-z ]+ Error: /.test(error.message))
        throw await statementError(error, database, flags.schema ?? 'main');
      throw error;
    }
  } finally {
    ctx.signal.removeEventListener('abort', stop);
    await stream?.end();
    database.close();
  }
}
