// What `appraisal sql` (commands/sql/) takes from sync, the command whose database it reads: the
// target as --to names it, the schema names sync accepts, DuckDB's module (loaded lazily here) and
// the reading of why DuckDB would not open a file.
export { DEFAULT_TARGET, parseTarget } from './target.js';
export { checkSchemaName } from './plan.js';
export { loadDuckDB, type DuckDBModule } from './duckdb.js';
export { openFailure } from './open-failure.js';
