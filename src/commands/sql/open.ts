// The DuckDB file `appraisal sql` reads, opened so that a statement reads its tables and nothing
// else: read-only (no statement changes the file; sync is its only writer), no extension fetched or
// loaded, no other file or URL reachable (read_csv('/etc/…'), ATTACH, COPY … TO: DuckDB refuses them
// all), and its settings locked once the search path is set, so no statement turns any of that back on.
import { existsSync } from 'node:fs';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { DUCKDB_OFFLINE } from '../../core/duckdb-offline.js';
import { LocalEnvironmentError, UsageError } from '../../core/errors.js';
import { refuseOthersLog, refuseSpecialFile } from '../../core/owned-file.js';
import { shellWord } from '../../core/shell-word.js';
import { loadDuckDB, openFailure, type DuckDBModule } from '../sync/public.js';

/**
 * What DuckDB may hold for one statement. Its default is 80% of the machine's memory; a statement
 * (an assistant's, through `appraisal mcp --sql`) that wants more fails with DuckDB's "Out of Memory"
 * (exit 2) instead of taking the machine. An organization's synced tables are tens of MiB.
 */
const MEMORY_LIMIT = '1GB';

const SETTINGS: Readonly<Record<string, string>> = {
  ...DUCKDB_OFFLINE,
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  memory_limit: MEMORY_LIMIT,
};

export interface QueryDatabase {
  duckdb: DuckDBModule;
  connection: DuckDBConnection;
  close(): void;
}

function openError(shown: string, error: unknown): Error {
  const failure = openFailure((error as Error).message ?? String(error));
  if (failure.kind === 'locked') {
    return new UsageError(`${shown} is being written by another process${failure.pid === undefined ? '' : ` (pid ${failure.pid})`}`, {
      hint: 'DuckDB lets nobody read a file while a program (a sync, a DuckDB shell) has it open for writing: run this again when it has finished',
    });
  }
  if (failure.kind === 'foreign')
    return new UsageError(`${shown} is not a DuckDB database`, {
      hint: 'sql reads the DuckDB file appraisal sync writes (--to duckdb:PATH)',
    });
  return new LocalEnvironmentError(`cannot read ${shown}: ${failure.detail}`, { cause: error });
}

/** Open `path` (shown as `shown`) for queries, `schema` as the search path (else DuckDB's `main`). */
export async function openForQuery(path: string, shown: string, schema: string | undefined): Promise<QueryDatabase> {
  if (!existsSync(path)) {
    // The sync that makes the file this run would read: the same file and schema.
    const sync = `appraisal sync --to ${shellWord(`duckdb:${shown}`)}${schema === undefined ? '' : ` --schema ${schema}`}`;
    throw new UsageError(`no database at ${shown}`, { hint: `appraisal sync makes it (${sync}); sql reads it` });
  }
  // DuckDB replays the log beside the file (PATH.wal) into what a read-only open shows: another
  // user's there would forge every answer.
  await refuseOthersLog(`${path}.wal`, `${shown}.wal`);
  await refuseSpecialFile(path, shown);
  await refuseSpecialFile(`${path}.wal`, `${shown}.wal`);
  const duckdb = await loadDuckDB(shown, 'or query the database with the DuckDB shell');
  let instance: DuckDBInstance;
  try {
    instance = await duckdb.DuckDBInstance.create(path, SETTINGS);
  } catch (error) {
    throw openError(shown, error);
  }
  let connection: DuckDBConnection | undefined;
  try {
    connection = await instance.connect();
    if (schema !== undefined) {
      // The name passed checkSchemaName (sync/plan.ts): no quote can be in it.
      await connection.run(`SET search_path = '${schema}'`).catch((error: unknown) => {
        throw new UsageError(`--schema ${schema}: ${shown} has no such schema`, {
          hint: 'the schema sync was given (--schema NAME); without one, its tables are in main',
          cause: error,
        });
      });
    }
    await connection.run('SET lock_configuration = true');
  } catch (error) {
    connection?.closeSync();
    instance.closeSync();
    throw error;
  }
  return {
    duckdb,
    connection,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
