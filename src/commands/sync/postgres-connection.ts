// How `sync` connects to PostgreSQL (connectionConfig, then connect), read as libpq (psql) reads it,
// so that the URL a user already gives psql works here: the URL first, then the PG* variables of the
// CLI's environment (PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGSSLMODE, PGSSLROOTCERT), then
// the password file (PGPASSFILE or ~/.pgpass, by pgpass). The URL's query parameters it honours are
// host, port, dbname, user, password, sslmode and sslrootcert; target.ts refuses any other.
//
// TLS follows libpq's sslmode, `prefer` when none is given (libpq's default): TLS when the server
// offers it, else without, so a managed server that refuses unencrypted connections (RDS with
// rds.force_ssl, Azure) works with a bare URL, as with psql. `require` encrypts without checking the
// certificate (unless sslrootcert names a CA: then its chain is checked, as libpq does), `verify-ca`
// checks the chain, `verify-full` the chain and the host name. The CA is sslrootcert's file (URL or
// PGSSLROOTCERT), else ~/.postgresql/root.crt when it exists, else the system's roots
// (`sslrootcert=system` asks for those by name); over a Unix socket, none. The ssl parameters are taken out of the URL before
// pg-connection-string reads it: it prints a multi-line SECURITY WARNING for some modes.
// Messages name the host and port only, never the password.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { readCaFile } from '../../core/ca-file.js';
import { LocalEnvironmentError, NetworkError, UsageError } from '../../core/errors.js';
import { clientCertificatesRefused } from './target.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What `ssl` takes in pg's client config: off, or the options of the TLS connection. */
export type TlsSetting = false | ConnectionOptions;

export interface ConnectionConfig {
  host: string;
  port: number;
  user: string;
  database: string;
  password: string | undefined;
  /** The TLS settings to try in turn (libpq's prefer and allow try a second way when the first fails). */
  attempts: readonly TlsSetting[];
}

const MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
type SslMode = (typeof MODES)[number];

/** Query parameters this file reads itself (and pg-connection-string never sees). */
const SSL_PARAMETERS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'sslpassword', 'sslcrl', 'uselibpqcompat', 'ssl'];

/** The URL without its ssl parameters, and those parameters. */
function splitSslParameters(url: string): { url: string; ssl: URLSearchParams } {
  const at = url.indexOf('?');
  if (at < 0) return { url, ssl: new URLSearchParams() };
  const query = new URLSearchParams(url.slice(at + 1));
  const ssl = new URLSearchParams();
  for (const name of SSL_PARAMETERS) {
    for (const value of query.getAll(name)) ssl.append(name, value);
    query.delete(name);
  }
  const rest = query.toString();
  return { url: rest === '' ? url.slice(0, at) : `${url.slice(0, at)}?${rest}`, ssl };
}

function sslModeOf(given: string | undefined): SslMode {
  if (given === undefined || given === '') return 'prefer';
  if ((MODES as readonly string[]).includes(given)) return given as SslMode;
  throw new UsageError(`--to: sslmode "${given.slice(0, 20)}" is not one of ${MODES.join(', ')}`);
}

/** The CA to check the server's certificate with: a named file, ~/.postgresql/root.crt, or the system's roots. */
function rootCertificate(named: string | undefined, env: Env): { ca?: string } {
  const hint = 'name a readable PEM file with sslrootcert=FILE in the URL or PGSSLROOTCERT, or sslrootcert=system for the system roots';
  if (named === 'system') return {};
  if (named !== undefined && named !== '') return { ca: readCaFile(named, hint) };
  const fallback = env.HOME ? join(env.HOME, '.postgresql', 'root.crt') : undefined;
  if (fallback !== undefined && existsSync(fallback)) return { ca: readCaFile(fallback, hint) };
  return {};
}

function tlsAttempts(mode: SslMode, named: string | undefined, env: Env): TlsSetting[] {
  const unchecked: TlsSetting = { rejectUnauthorized: false };
  switch (mode) {
    case 'disable':
      return [false];
    case 'allow':
      return [false, unchecked];
    case 'prefer':
      return [unchecked, false];
    case 'require': {
      // libpq: require with a root certificate named checks the chain, as verify-ca does.
      if (named === undefined || named === '') return [unchecked];
      return [{ ...rootCertificate(named, env), rejectUnauthorized: true, checkServerIdentity: () => undefined }];
    }
    case 'verify-ca':
    case 'verify-full': {
      const chain: ConnectionOptions = { ...rootCertificate(named, env), rejectUnauthorized: true };
      return [mode === 'verify-ca' ? { ...chain, checkServerIdentity: () => undefined } : chain];
    }
  }
}

/** The URL's parts, with what it leaves out taken from the PG* variables and the password file, as libpq does. */
export async function connectionConfig(raw: string, env: Env): Promise<ConnectionConfig> {
  const { url, ssl } = splitSslParameters(raw);
  if (ssl.has('sslcert') || ssl.has('sslkey') || env.PGSSLCERT || env.PGSSLKEY) throw clientCertificatesRefused();
  const { parse } = await import('pg-connection-string');
  const given = parse(url);
  const host = given.host || env.PGHOST || 'localhost';
  const portText = given.port || env.PGPORT || '5432';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535)
    throw new UsageError(`--to: ${given.port ? "the URL's port" : 'PGPORT'} is not a number from 1 to 65535`);
  const port = Number(portText);
  const user = given.user || env.PGUSER || env.USER || env.LOGNAME || 'postgres';
  // libpq reads a dbname= parameter after the URL's path, so it wins; pg-connection-string keeps it apart.
  const database = (typeof given.dbname === 'string' && given.dbname) || given.database || env.PGDATABASE || user;
  const mode = sslModeOf(ssl.get('sslmode') ?? env.PGSSLMODE);
  // A Unix socket (a host that is a directory) has no TLS: libpq ignores sslmode there, and so does this.
  const attempts = host.startsWith('/') ? [false as const] : tlsAttempts(mode, ssl.get('sslrootcert') ?? env.PGSSLROOTCERT, env);
  let password = given.password || env.PGPASSWORD;
  if (!password) password = await passwordFile({ host, port: String(port), database, user }, env);
  return { host, port, user, database, password, attempts };
}

/** The password file's entry for this connection (PGPASSFILE, else ~/.pgpass; ignored unless 0600, as libpq). */
async function passwordFile(connection: Record<string, string>, env: Env): Promise<string | undefined> {
  const helper = await import('pgpass/lib/helper.js');
  const { stat } = await import('node:fs/promises');
  const { createReadStream } = await import('node:fs');
  const file = helper.getFileName(env);
  const stats = await stat(file).catch(() => undefined);
  if (!stats || !helper.usePgPass(stats, file)) return undefined;
  return new Promise((done) => helper.getPassword(connection, createReadStream(file), (password) => done(password || undefined)));
}

export const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'ENOENT',
]);

/** Whether a failed connection is the network's (no second TLS setting is worth trying then). */
function unreachable(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message ?? String(error);
  return (code !== undefined && UNREACHABLE.has(code)) || /timeout|terminated unexpectedly/i.test(message);
}

const CERTIFICATE_HINT =
  'name the CA that signed the server certificate with sslrootcert=FILE in the URL (or PGSSLROOTCERT), ' +
  'or encrypt without checking it with sslmode=require';

/** A connection failure as the CLI says it: unreachable (exit 3) or refused by the server (exit 2). */
export function connectError(shown: string, config: ConnectionConfig, error: unknown): Error {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message ?? String(error);
  if (unreachable(error)) {
    return new NetworkError(`cannot reach ${shown}: ${code ?? message}`, {
      hint: 'check the host and port in --to (or PGHOST/PGPORT) and that the server is running and accepts TCP connections',
      cause: error,
    });
  }
  if (
    /client password must be a (non-empty )?string/.test(message) ||
    (config.password === undefined && (code === '28P01' || code === '28000') && /password/.test(message))
  ) {
    return new LocalEnvironmentError(`${shown} asks for a password for user ${config.user} and none was given`, {
      hint: `put it in PGPASSWORD or ${'~/.pgpass'} (mode 0600)`,
      cause: error,
    });
  }
  if ((code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO|HOSTNAME|ALTNAME/.test(code)) || /certificate/i.test(message)) {
    return new LocalEnvironmentError(`${shown}: its TLS certificate was not accepted (${message})`, {
      hint: CERTIFICATE_HINT,
      cause: error,
    });
  }
  const hint =
    code === '28P01' || code === '28000'
      ? `check the user and password: in the URL, PGUSER/PGPASSWORD, or ${'~/.pgpass'} (mode 0600)`
      : code === '3D000'
        ? `create the database first (createdb ${config.database}), or name another in the URL`
        : /does not support SSL/i.test(message)
          ? 'the server offers no TLS: leave sslmode out of --to (or PGSSLMODE), or set it to prefer or disable'
          : undefined;
  return new LocalEnvironmentError(`${shown} refused the connection as user ${config.user}: ${message}`, { hint, cause: error });
}

/** A refusal that says only that the other way (with TLS or without) was the one to take. */
const TLS_REFUSAL = /does not support SSL|no encryption|SSL off|SSL on\b/i;

/**
 * A connected client: each of the connection's TLS settings in turn (libpq's prefer: TLS, then
 * without when the server refuses it). When every one fails, the failure that says why (a wrong
 * password rather than the other attempt's "no TLS here").
 */
export async function connect(pg: typeof import('pg'), config: ConnectionConfig): Promise<import('pg').Client> {
  const failures: unknown[] = [];
  for (const ssl of config.attempts) {
    const { attempts: _, password, ...settings } = config;
    // The password as a function: given as a value, an absent one would send pg to this process's own
    // PGPASSWORD and ~/.pgpass, where the CLI reads the environment it was handed (connectionConfig).
    const client = new pg.Client({
      ...settings,
      password: () => password ?? '',
      ssl,
      connectionTimeoutMillis: 15_000,
      application_name: 'appraisal sync',
    });
    // A connection lost while idle is reported here; the statement waiting on it fails on its own.
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      failures.push(error);
      if (unreachable(error)) break;
    }
  }
  throw failures.find((error) => !TLS_REFUSAL.test((error as Error).message ?? '')) ?? failures.at(-1);
}
