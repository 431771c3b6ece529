// A private PostgreSQL cluster for the tests that sync into one, started as scripts/postgres-cluster.mjs
// starts it (the sync bench starts its own the same way): Debian's binaries, `initdb` in a temp
// directory as an unprivileged user, a free loopback port, password authentication over TCP, fsync
// off. One per test file: started in beforeAll, stopped in afterAll. `psql` is the reader that is not
// ours. This file only gives the shared module its types.
// @ts-expect-error: a script in plain JavaScript, without type declarations
import { postgresBin as findBin, startPostgresCluster } from '../../scripts/postgres-cluster.mjs';

export interface PostgresCluster {
  port: number;
  user: string;
  password: string;
  /** The directory of the server's Unix socket (local connections are trusted). */
  socketDir: string;
  /** `postgres://user:password@127.0.0.1:port/db` */
  url(database?: string): string;
  /** The URL without the password (for PGPASSWORD / ~/.pgpass tests). */
  urlWithoutPassword(database?: string): string;
  /** psql -At: rows as lines, columns joined by `|`. */
  psql(sql: string, database?: string): string;
  createDatabase(name: string): void;
  stop(): Promise<void>;
}

/** The newest PostgreSQL's binaries directory. */
export function postgresBin(): string {
  const bin = (findBin as () => string | undefined)();
  if (bin === undefined)
    throw new Error('PostgreSQL is not installed (apt-get install postgresql): /usr/lib/postgresql/*/bin/initdb not found');
  return bin;
}

/** TLS on with this certificate; `onlyUser` a role the server accepts over TLS alone. */
export interface ClusterTls {
  certPem: string;
  keyPem: string;
  onlyUser?: string;
}

export async function startPostgres(options: { tls?: ClusterTls } = {}): Promise<PostgresCluster> {
  const cluster = (await (startPostgresCluster as (options: object) => Promise<unknown>)(options)) as Omit<
    PostgresCluster,
    'urlWithoutPassword' | 'createDatabase'
  >;
  return {
    port: cluster.port,
    socketDir: cluster.socketDir,
    user: cluster.user,
    password: cluster.password,
    url: cluster.url,
    urlWithoutPassword: (database = 'postgres') => `postgres://${cluster.user}@127.0.0.1:${cluster.port}/${database}`,
    psql: cluster.psql,
    createDatabase: (name) => void cluster.psql(`CREATE DATABASE "${name}"`),
    stop: cluster.stop,
  };
}
