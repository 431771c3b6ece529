// A private PostgreSQL cluster for the tests that sync into one: Debian's binaries (kept off PATH in
// /usr/lib/postgresql/*/bin), `initdb` in a temp directory as an unprivileged user (the tests run as
// root, which PostgreSQL refuses: the `postgres` user the Debian package makes, else `nobody`), a
// free loopback port, password authentication over TCP (so PGPASSWORD, URLs and ~/.pgpass are
// really exercised), fsync off (a killed client is what the tests kill, never the server). One per
// test file: started in beforeAll, stopped in afterAll. `psql` is the reader that is not ours.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { waitFor } from './wait.js';

export interface PostgresCluster {
  port: number;
  user: string;
  password: string;
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
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))) : [];
  if (versions.length === 0)
    throw new Error('PostgreSQL is not installed (apt-get install postgresql): /usr/lib/postgresql/*/bin/initdb not found');
  return join(root, versions.sort((a, b) => Number(b) - Number(a))[0]!, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The user the cluster runs as: this one unless root, then `postgres` (Debian's) or `nobody`. */
function runner(): { uid: number; gid: number; name: string } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { uid, gid, name };
    } catch {
      // no such user: try the next
    }
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'appraisal-pg-'));
  const data = join(dir, 'data');
  const user = 'appraisal';
  const password = `pw-${Math.random().toString(36).slice(2, 12)}`;
  const as = runner();
  mkdirSync(data);
  writeFileSync(join(dir, 'pwfile'), `${password}\n`);
  if (as) for (const path of [dir, data, join(dir, 'pwfile')]) chownSync(path, as.uid, as.gid);
  chmodSync(dir, 0o700);
  const asRunner = (file: string, args: string[]): [string, string[]] =>
    as ? ['setpriv', [`--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups', '--', file, ...args]] : [file, args];
  const [initFile, initArgs] = asRunner(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    user,
    '--pwfile',
    join(dir, 'pwfile'),
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  execFileSync(initFile, initArgs, { stdio: 'pipe', cwd: dir });
  const port = await freePort();
  const [file, args] = asRunner(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=60',
  ]);
  const child: ChildProcess = spawn(file, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString('utf8')).slice(-4000)));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const env = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5' };
  const psql = (sql: string, database = 'postgres') =>
    execFileSync(
      join(bin, 'psql'),
      ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', database, '-c', sql],
      {
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ).trimEnd();
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}: ${log}`);
      try {
        psql('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    'the private PostgreSQL cluster to accept connections',
    60_000,
  );
  const url = (database = 'postgres') => `postgres://${user}:${password}@127.0.0.1:${port}/${database}`;
  return {
    port,
    user,
    password,
    url,
    urlWithoutPassword: (database = 'postgres') => `postgres://${user}@127.0.0.1:${port}/${database}`,
    psql,
    createDatabase: (name) => void psql(`CREATE DATABASE "${name}"`),
    stop: async () => {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null) {
        const exited = new Promise<void>((done) => child.once('exit', () => done()));
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
