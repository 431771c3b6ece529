// Where `sync` writes: `duckdb:PATH` (the embedded default, `duckdb:appraisal.duckdb` in the current
// directory) or a libpq URL (`postgres://…`, `postgresql://…`; PG* variables and ~/.pgpass fill what
// it leaves out). Checked before any request, its port and query parameters too. A URL is never
// shown whole: only its host and port (and a refused scheme or parameter's name alone), so a password
// in it never reaches a message.
import { basename, isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { shellWord } from '../../core/shell-word.js';

export const DEFAULT_TARGET = 'duckdb:appraisal.duckdb';

export type SyncTarget =
  | { kind: 'duckdb'; path: string; shown: string }
  /** passwordInUrl: the URL itself holds the password (warned of: a command line is readable by every user of the machine). */
  | { kind: 'postgres'; url: string; shown: string; passwordInUrl: boolean };

const SCHEMES = 'duckdb:PATH, postgres://… or postgresql://…';

/**
 * Host and port of a libpq URL, for messages: as the connection takes them (postgres-connection.ts),
 * from `host=` and `port=` in the query, else the URL's authority, else PGHOST and PGPORT.
 */
export function postgresHost(url: string, env: Readonly<Record<string, string | undefined>>): string {
  let host = '';
  let port = '';
  try {
    const parsed = new URL(url);
    host = parsed.searchParams.get('host') || decodeURIComponent(parsed.hostname);
    port = parsed.searchParams.get('port') || parsed.port;
  } catch {
    // A URL the driver reads its own way (`user@/db`, no host): the variables name it.
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

/** A PostgreSQL URL's shape, in the hint of each refusal of one (no part of the user's URL is repeated). */
const URL_SHAPE =
  'write it postgres://USER@HOST:PORT/DATABASE, as psql reads it; a password holding / ? # @ or : is percent-encoded (%2F %3F %23 %40 %3A), or given in PGPASSWORD';

/**
 * libpq's connection parameters (PostgreSQL 18's): a URL's query may hold these and no other, as
 * psql refuses any other (a typo such as `sslmod=require` would otherwise drop the TLS it asks for).
 */
const LIBPQ_PARAMETERS = new Set(
  (
    'host hostaddr port dbname user password passfile require_auth channel_binding connect_timeout client_encoding ' +
    'options application_name fallback_application_name keepalives keepalives_idle keepalives_interval keepalives_count ' +
    'tcp_user_timeout replication gssencmode sslmode requiressl sslnegotiation sslcompression sslcert sslkey sslpassword ' +
    'sslcertmode sslrootcert sslcrl sslcrldir sslsni sslkeylogfile requirepeer ssl_min_protocol_version ssl_max_protocol_version ' +
    'min_protocol_version max_protocol_version krbsrvname gsslib gssdelegation service target_session_attrs load_balance_hosts ' +
    'scram_client_key scram_server_key oauth_issuer oauth_client_id oauth_client_secret oauth_scope'
  ).split(' '),
);

/** Those sync honours (postgres-connection.ts); any other libpq parameter is refused rather than ignored. */
const HONOURED = ['host', 'port', 'dbname', 'user', 'password', 'sslmode', 'sslrootcert'];
const HONOURED_HINT = `a postgres:// URL here takes ${HONOURED.join(', ')} (the PG* variables of each work too)`;

/** The refusal of a client certificate, in the URL or PGSSLCERT/PGSSLKEY (postgres-connection.ts). */
export function clientCertificatesRefused(): UsageError {
  return new UsageError('--to: client certificates (sslcert, sslkey, PGSSLCERT, PGSSLKEY) are not supported', {
    hint: 'authenticate with a password (PGPASSWORD or ~/.pgpass); TLS itself works with sslmode and sslrootcert',
  });
}

const validPort = (port: string) => /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535;

/**
 * A libpq URL's host part and query, refused (exit 2) where libpq would refuse them or sync would
 * not honour them: a port that is no port number, several hosts, a parameter libpq does not know or
 * sync does not take. Parameter names are shown, never their values.
 */
function checkPostgresUrl(url: string, flag: string): void {
  const authority = /^[a-z]+:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostPort.includes(',')) throw new UsageError(`${flag}: a URL naming several hosts is not supported: name one`, { hint: URL_SHAPE });
  const port = hostPort.startsWith('[') ? hostPort.slice(hostPort.indexOf(']') + 1).replace(/^:/, '') : hostPort.split(':')[1];
  if (port !== undefined && port !== '' && !validPort(port))
    throw new UsageError(`${flag}: the URL's port is not a number from 1 to 65535`, { hint: URL_SHAPE });
  const query = url.indexOf('?');
  if (query < 0) return;
  for (const [name, value] of new URLSearchParams(url.slice(query + 1).split('#')[0])) {
    const shown = `"${name.slice(0, 40).replace(/[^\x21-\x7e]/g, '?')}"`;
    if (!LIBPQ_PARAMETERS.has(name))
      throw new UsageError(`${flag}: the URL's parameter ${shown} is not one libpq knows`, { hint: HONOURED_HINT });
    if (['sslcert', 'sslkey', 'sslpassword', 'sslcertmode'].includes(name)) throw clientCertificatesRefused();
    if (!HONOURED.includes(name))
      throw new UsageError(`${flag}: the URL's parameter ${shown} is not supported by sync`, { hint: HONOURED_HINT });
    if (name === 'host' && value.includes(','))
      throw new UsageError(`${flag}: a URL naming several hosts is not supported: name one`, { hint: URL_SHAPE });
    if (name === 'port' && !validPort(value))
      throw new UsageError(`${flag}: the URL's port= is not a number from 1 to 65535`, { hint: URL_SHAPE });
  }
}

/** `flag`: the option that named the target, for messages (`mcp --sql` reads one too). */
export function parseTarget(
  raw: string | undefined,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  flag = '--to',
): SyncTarget {
  const given = raw ?? DEFAULT_TARGET;
  if (given.trim() === '')
    throw new UsageError(`${flag} is empty: name the database (duckdb:PATH, postgres://… or postgresql://…)`, {
      hint: flag === '--to' ? `without --to, sync writes ${DEFAULT_TARGET} in the current directory` : undefined,
    });
  // `duckdb://x` is a path relative to the working directory to SQLAlchemy and dlt, absolute to others: either reading surprises someone.
  if (given.startsWith('duckdb://')) {
    const name = given.slice('duckdb://'.length).replace(/^\/+/, '') || DEFAULT_TARGET.slice('duckdb:'.length);
    throw new UsageError(`${flag} ${given.slice(0, 200)}: a DuckDB file is named right after duckdb:, without //`, {
      hint: `a file in the current directory: ${flag} ${shellWord(`duckdb:${name.slice(0, 200)}`)}; an absolute path: ${flag} ${shellWord(`duckdb:/${name.slice(0, 200)}`)}`,
    });
  }
  if (given.startsWith('duckdb:')) {
    const path = given.slice('duckdb:'.length);
    if (path === '' || path === ':memory:')
      throw new UsageError(`${flag} ${given}: name the database file (duckdb:PATH); an in-memory database would keep nothing`);
    return { kind: 'duckdb', path: databasePath(path, cwd, env), shown: path };
  }
  if (/^postgres(ql)?:\/\//i.test(given)) {
    checkPostgresUrl(given, flag);
    return { kind: 'postgres', url: given, shown: `postgres at ${postgresHost(given, env)}`, passwordInUrl: holdsPassword(given) };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(given)?.[1];
  if (scheme && /^postgres(ql)?$/i.test(scheme))
    throw new UsageError(`${flag}: a PostgreSQL target is written ${scheme.toLowerCase()}://…, with two slashes`, { hint: URL_SHAPE });
  if (scheme) throw new UsageError(`${flag}: the scheme "${scheme.slice(0, 20)}:" is not supported`, { hint: `use ${SCHEMES}` });
  // A bare path (`--to ops.duckdb`): most likely a DuckDB file named without its scheme.
  throw new UsageError(`${flag} ${given.slice(0, 200)}: a target starts with its kind (duckdb: or postgres://)`, {
    hint: `for a DuckDB file: ${flag} duckdb:${given.slice(0, 200)}`,
  });
}
