// The DuckDB floor of the sync bench (bench/sync.mjs): an NDJSON export loaded by DuckDB's own
// read_json into a new table, as a person would after `export`, in its own process (its start-up
// and DuckDB's load count, as the CLI's do). `node bench/sync-load.mjs FILE.ndjson DB.duckdb`.
import { DuckDBInstance } from '@duckdb/node-api';

const [file, database] = process.argv.slice(2);
const instance = await DuckDBInstance.create(database);
const connection = await instance.connect();
await connection.run(
  `CREATE OR REPLACE TABLE properties AS SELECT * FROM read_json('${file.replace(/'/g, "''")}', format = 'newline_delimited')`,
);
const rows = (await connection.runAndReadAll('SELECT count(*)::INT AS n FROM properties')).getRowObjectsJson()[0].n;
connection.closeSync();
instance.closeSync();
process.stdout.write(`${JSON.stringify({ rows })}\n`);
