// DuckDB never fetches code at run time here. By default it installs and loads a "known extension"
// from extensions.duckdb.org the first time something asks for one: a SQLite file given as a
// database (sqlite_scanner), an https:// path (httpfs). That is a download of native code this
// package did not ship, and a request to a third party from a command that was only asked to write
// a file. The extensions the CLI uses (parquet, json) are built into the packaged library.
// Every DuckDB instance of the CLI (sync's database, the Parquet writer's) is made with these settings.
export const DUCKDB_OFFLINE: Readonly<Record<string, string>> = {
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
};
