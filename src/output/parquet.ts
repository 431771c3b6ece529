// The Parquet sink (`-o parquet --out FILE`, `export -o parquet`): typed columns from the published
// record schema (parquet-schema.ts), written by DuckDB, loaded only here and only then (start-up is
// measured; its native addon is resolved from node_modules, never bundled; only its built-in json and parquet code is used,
// no extension is installed or downloaded). Records stream as NDJSON into a private temp file beside
// FILE (the ndjson encoder: integers stay exact), a record's fields the description does not publish
// beside them as `_unpublished` (a JSON column, there when some record has any: no column holds
// them, and they are what the service sent); at the end DuckDB reads it with the typed columns
// and writes the Parquet temp file, which is given its final mode and renamed over FILE. A Parquet
// file is written whole: a failure leaves nothing at FILE and removes both temp files; an export
// that is resumed writes the file again.
import { chmod, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Context } from '../core/context.js';
import { DUCKDB_OFFLINE } from '../core/duckdb-offline.js';
import { syncDirectory } from '../core/atomic-file.js';
import { ContractError, LocalEnvironmentError } from '../core/errors.js';
import { createTempBeside, finalMode, type TempFile } from './atomic-out-file.js';
import { writeFailure } from './buffered-writer.js';
import { ndjsonLine } from './ndjson.js';
import { heldFields, UNPUBLISHED, unpublishedOf } from '../core/table-shape/shape.js';
import { heldPaths, parquetColumns, quoteName, type ParquetColumn, type PublishedSchema } from './parquet-schema.js';
import type { RecordSink } from './sink.js';

/** A SQL string literal. */
const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** The statement that turns the NDJSON temp file into the Parquet temp file. */
export function copyStatement(ndjson: string, parquet: string, columns: readonly ParquetColumn[] | undefined): string {
  const read = columns
    ? `read_json(${literal(ndjson)}, format = 'newline_delimited', columns = {${columns.map((c) => `${literal(c.name)}: ${literal(c.type)}`).join(', ')}})`
    : `read_json(${literal(ndjson)}, format = 'newline_delimited', records = false, columns = {'record': 'JSON'})`;
  const select = columns ? columns.map((c) => quoteName(c.name)).join(', ') : 'record';
  // USE_TMP_FILE false: DuckDB writes into the private temp file we made (its mode kept), not a file of its own.
  return `COPY (SELECT ${select} FROM ${read}) TO ${literal(parquet)} (FORMAT parquet, USE_TMP_FILE false)`;
}

async function loadDuckDb(): Promise<typeof import('@duckdb/node-api')> {
  try {
    return await import('@duckdb/node-api');
  } catch (error) {
    throw new LocalEnvironmentError(
      `-o parquet needs DuckDB (@duckdb/node-api), which this installation cannot load: ${(error as Error).message}`,
      {
        hint: 'install appraisal-cli from npm (DuckDB comes with it), or use -o ndjson',
        cause: error,
      },
    );
  }
}

/** Run `statement` in a private in-memory DuckDB that loads and installs no extension. */
async function runDuckDb(statement: string): Promise<void> {
  const { DuckDBInstance } = await loadDuckDb();
  const instance = await DuckDBInstance.create(':memory:', DUCKDB_OFFLINE);
  try {
    const connection = await instance.connect();
    try {
      await connection.run(statement);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/** The Parquet sink of the plan's `--out` file; `published`: the list operation's record schema, when bound. */
export async function openParquetSink(ctx: Context, published: PublishedSchema | undefined): Promise<RecordSink> {
  const plan = ctx.output;
  const target = (await plan.target())!;
  const out = plan.outPath!;
  const columns = parquetColumns(published, plan.fields?.paths);
  const project = plan.projection;
  // Every field is asked for (no --fields): what the typed columns cannot hold goes to `_unpublished`.
  const held = columns && published && !plan.fields ? heldFields(heldPaths(published)) : undefined;
  let unpublished = false;
  // Both temp files are private (0600, or the replaced file's narrower mode) until the rename.
  const rows: TempFile = await createTempBeside(`${target.path}.ndjson`, out, { mode: target.mode });
  let parquet: TempFile | undefined;
  const removeAll = async () => {
    await rows.remove();
    await parquet?.remove();
  };
  return {
    describe: () => out,
    begin: async () => true,
    async record(record) {
      const rest = held && unpublishedOf(record, held);
      unpublished ||= rest !== undefined;
      await rows.writer.write(ndjsonLine(rest === undefined ? project(record) : { ...project(record), [UNPUBLISHED]: rest }));
      return true;
    },
    end: async () => undefined,
    async finish() {
      try {
        await rows.writer.complete();
        parquet = await createTempBeside(target.path, out, { mode: target.mode });
        await parquet.writer.complete();
        try {
          const typed = columns && unpublished ? [...columns, { name: UNPUBLISHED, type: 'JSON' }] : columns;
          await runDuckDb(copyStatement(rows.path, parquet.path, typed));
        } catch (error) {
          const message = (error as Error).message;
          // DuckDB's own words name the field and the value that does not fit its published type.
          if (/conversion|convert|cast|malformed|json/i.test(message)) {
            throw new ContractError(`a record does not fit its published schema, so ${out} cannot be typed: ${message.split('\n')[0]}`, {
              hint: 'the service broke its published contract (--validate names the record); -o ndjson writes it as it is',
            });
          }
          throw writeFailure(out, error);
        }
        await chmod(parquet.path, finalMode(target));
        await rename(parquet.path, target.path);
        parquet.placed();
        await syncDirectory(dirname(target.path));
      } catch (error) {
        await removeAll();
        throw error;
      }
      await rows.remove();
    },
    discard: removeAll,
  };
}
