// DuckDB never fetches code at run time here. By default it installs and loads a "known extension"
// from extensions.duckdb.org the first time something asks for one: a SQLite file given as a
// database (sqlite_scanner), an https:// path (httpfs). That is a download of native code this
// package did not ship, and a request to a third party from a command that was only asked to write
// a file. The extensions the CLI uses (parquet, json) are built into the packaged library.
// Nor does it write files of its own choosing: by default a statement that outgrows memory spills
// to `PATH.tmp/duckdb_temp_storage_*.tmp` beside the database (`./.tmp` for an in-memory one),
// opened with O_CREAT and no O_NOFOLLOW, and unlinked after. In a directory others can write, a
// `PATH.tmp` planted there (a link, or a directory of theirs holding links by those names) had the
// spilled rows written into the files it pointed at, or left readable in the planter's directory.
// With no temp directory such a statement ends with DuckDB's "Out of Memory" instead.
// Every DuckDB instance of the CLI (sync's database, the Parquet writer's) is made with these settings.
export const DUCKDB_OFFLINE: Readonly<Record<string, string>> = {
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  temp_directory: '',
};
