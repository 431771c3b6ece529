// Where `sync` writes: `duckdb:PATH` (the embedded default, `duckdb:appraisal.duckdb` in the current
// directory) or a libpq URL (`postgres://…`, `postgresql://…`; PG* variables and ~/.pgpass fill what
// it leaves out). Checked before any request. A URL is never shown whole: only its host and port
// (and a refused scheme alone), so a password in it never reaches a message.
import { basename, isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';

export const DEFAULT_TARGET = 'duckdb:appraisal.duckdb';

export type SyncTarget =
  | { kind: 'duckdb'; path: string; shown: string }
  /** passwordInUrl: the URL itself holds the password (warned of: a command line is readable by every user of the machine). */
  | { kind: 'postgres'; url: string; shown: string; passwordInUrl: boolean };

const SCHEMES = 'duckdb:PATH, postgres://… or postgresql://…';

/** Host and port of a libpq URL, for messages (an empty host is the PGHOST/socket default). */
export function postgresHost(url: string, env: Readonly<Record<string, string | undefined>>): string {
  let host = '';
  let port = '';
  try {
    const parsed = new URL(url);
    host = decodeURIComponent(parsed.hostname);
    port = parsed.port;
  } catch {
    // A URL the driver reads its own way (a socket directory as host): the variables name it.
  }
  host ||= env.PGHOST ?? 'localhost';
  port ||= env.PGPORT ?? '5432';
  return `${host}:${port}`;
}

/** A libpq URL that holds its password: `user:password@` or a `password=` parameter. */
export function holdsPassword(url: string): boolean {
  const query = url.indexOf('?');
  if (query >= 0 && new URLSearchParams(url.slice(query + 1)).has('password')) return true;
  const authority = /^[a-z]+:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
  const at = authority.lastIndexOf('@');
  return at >= 0 && authority.slice(0, at).includes(':');
}

/**
 * The name DuckDB gives the database in a file: its base name up to the first dot (`ops.duckdb` is
 * `ops`, `.acme.db` is `acme`), with `_db` after a name of its own catalogs (`main.duckdb` is
 * `main_db`). A schema of that name cannot be told apart from it (`"ops"."properties"` is ambiguous),
 * so plan.ts refuses one before the file is made. test/e2e/sync-duckdb.test.ts holds this against
 * DuckDB's own current_database().
 */
export function duckdbCatalogName(path: string): string {
  const [name = ''] = basename(path)
    .split('.')
    .filter((part) => part !== '');
  return name === 'main' || name === 'system' || name === 'temp' ? `${name}_db` : name;
}

/**
 * The file of `duckdb:PATH`: a leading `~` is the home directory, as DuckDB's own paths read it (the
 * shell expands `~` only at the start of a word, never in `--to duckdb:~/ops.duckdb`); a relative
 * path is from the working directory.
 */
function databasePath(path: string, cwd: string, env: Readonly<Record<string, string | undefined>>): string {
  const home = env.HOME;
  if ((path === '~' || path.startsWith('~/')) && home) return join(home, path.slice(1));
  return isAbsolute(path) ? path : resolve(cwd, path);
}

export function parseTarget(raw: string | undefined, cwd: string, env: Readonly<Record<string, string | undefined>>): SyncTarget {
  const given = raw ?? DEFAULT_TARGET;
  if (given.startsWith('duckdb:')) {
    const path = given.slice('duckdb:'.length);
    if (path === '' || path === ':memory:')
      throw new UsageError(`--to ${given}: name the database file (duckdb:PATH); an in-memory database would keep nothing`);
    return { kind: 'duckdb', path: databasePath(path, cwd, env), shown: path };
  }
  if (/^postgres(ql)?:\/\//i.test(given))
    return { kind: 'postgres', url: given, shown: `postgres at ${postgresHost(given, env)}`, passwordInUrl: holdsPassword(given) };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(given)?.[1];
  if (scheme) throw new UsageError(`--to: the scheme "${scheme.slice(0, 20)}:" is not supported`, { hint: `use ${SCHEMES}` });
  // A bare path (`--to ops.duckdb`): most likely a DuckDB file named without its scheme.
  throw new UsageError(`--to ${given.slice(0, 200)}: a target starts with its kind (duckdb: or postgres://)`, {
    hint: `for a DuckDB file: --to duckdb:${given.slice(0, 200)}`,
  });
}
