// Why DuckDB would not open a file, read from its message in one place for both commands that open
// one (sync writes it, sql reads it): another process holds it, or it is a file of another kind.
// DuckDB says so only in words; what each command then tells the user is its own.

export type OpenFailure =
  /** Another process has it open (DuckDB names the program and its pid when it can). */
  | { kind: 'locked'; program: string | undefined; pid: number | undefined }
  /** Not a DuckDB database: a SQLite one, a CSV, an empty file. `detail`: DuckDB's words. */
  | { kind: 'foreign'; sqlite: boolean; detail: string }
  | { kind: 'other'; detail: string };

/** DuckDB's message without its `IO Error: `-style prefix, first line only. */
const detailOf = (message: string): string => message.replace(/^[A-Za-z ]+Error: /, '').split('\n')[0]!;

export function openFailure(message: string): OpenFailure {
  const lock = /Conflicting lock is held in (.*?) \(PID (\d+)\)/.exec(message);
  if (lock || /Could not set lock/i.test(message)) return { kind: 'locked', program: lock?.[1], pid: lock ? Number(lock[2]) : undefined };
  // A SQLite file: DuckDB names the extension it would read it with (never fetched here:
  // duckdb-offline.ts), or with external access off, says loading one is disabled. The extension's
  // name, not the word: a path may hold "sqlite" (/srv/sqlite-exports/…). A text file opened
  // read-only: DuckDB says it cannot launch an in-memory database.
  const sqlite = /sqlite_scanner/i.test(message);
  if (
    sqlite ||
    /Loading external extensions is disabled|not a valid DuckDB database file|in-memory database in read-only mode/i.test(message)
  )
    return { kind: 'foreign', sqlite, detail: detailOf(message) };
  return { kind: 'other', detail: detailOf(message) };
}
