// What `appraisal sql` (commands/sql/) takes from sync, the command whose database it reads: the
// target as --to names it, the schema names sync accepts, and DuckDB's module, loaded lazily here.
export { DEFAULT_TARGET, parseTarget } from './target.js';
export { SCHEMA_NAME } from './plan.js';
export { loadDuckDB, type DuckDBModule } from './duckdb.js';
