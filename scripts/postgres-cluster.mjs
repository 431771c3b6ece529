// A private PostgreSQL cluster, the one way the tests (test/helpers/postgres.ts) and the sync bench
// (bench/sync-cluster.mjs) start theirs: Debian's binaries (kept off PATH in
// /usr/lib/postgresql/*/bin), `initdb` in a temp directory as an unprivileged user (when run as
// root, which PostgreSQL refuses: the `postgres` user the Debian package makes, else `nobody`), a
// free loopback port, password authentication over TCP (so PGPASSWORD, URLs and ~/.pgpass are
// really exercised), fsync off (a killed client is what gets killed, never the server). `psql` is
// the reader that is not ours. Plain JavaScript, so the bench needs no build.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The newest PostgreSQL's binaries directory, or undefined when none is installed. */
export function postgresBin() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))) : [];
  return versions.length === 0 ? undefined : join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

function freePort() {
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
function runner() {
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

/**
 * Start a cluster (throws when PostgreSQL is not installed: check postgresBin() first to do without).
 * `user`: the superuser's name; `track(child)`: called with the server process (the bench's cleanup).
 * Returns its port, user, password, `url(db)`, `psqlCommand(db)` (argv, run with `env`), `psql(sql,
 * db)` (rows as lines, columns joined by `|`) and `stop()`.
 */
/**
 * `tls`: `{ certPem, keyPem, onlyUser }` turns TLS on with that certificate, and makes the role
 * `onlyUser` (when given) one the server accepts over TLS alone (pg_hba: hostssl, and hostnossl
 * rejected), as a managed server that forces TLS does.
 */
export async function startPostgresCluster({ user = 'appraisal', track, tls } = {}) {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql): /usr/lib/postgresql/*/bin/initdb not found');
  const dir = mkdtempSync(join(tmpdir(), 'appraisal-pg-'));
  const data = join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2, 12)}`;
  const as = runner();
  mkdirSync(data);
  writeFileSync(join(dir, 'pwfile'), `${password}\n`);
  if (as) for (const path of [dir, data, join(dir, 'pwfile')]) chownSync(path, as.uid, as.gid);
  chmodSync(dir, 0o700);
  const asRunner = (file, args) =>
    as ? ['setpriv', [`--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups', '--', file, ...args]] : [file, args];
  execFileSync(
    ...asRunner(join(bin, 'initdb'), [
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
    ]),
    { stdio: 'pipe', cwd: dir },
  );
  const port = await freePort();
  const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=60'];
  if (tls) {
    // The server refuses a key others can read: 0600, owned by the user it runs as.
    for (const [name, pem] of [
      ['server.crt', tls.certPem],
      ['server.key', tls.keyPem],
    ]) {
      writeFileSync(join(dir, name), pem, { mode: 0o600 });
      if (as) chownSync(join(dir, name), as.uid, as.gid);
    }
    settings.push('ssl=on', `ssl_cert_file=${join(dir, 'server.crt')}`, `ssl_key_file=${join(dir, 'server.key')}`);
    if (tls.onlyUser) {
      const hba = join(data, 'pg_hba.conf');
      const rules = [`hostssl all ${tls.onlyUser} 127.0.0.1/32 scram-sha-256`, `hostnossl all ${tls.onlyUser} all reject`];
      writeFileSync(hba, `${rules.join('\n')}\n${readFileSync(hba, 'utf8')}`);
    }
  }
  const child = spawn(
    ...asRunner(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, ...settings.flatMap((s) => ['-c', s])]),
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  track?.(child);
  let log = '';
  child.stderr.on('data', (chunk) => (log = (log + chunk.toString('utf8')).slice(-4000)));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const env = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5' };
  const psqlCommand = (database = 'postgres') => [
    join(bin, 'psql'),
    ...['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', database],
  ];
  const psql = (sql, database = 'postgres') => {
    const [file, ...args] = psqlCommand(database);
    return execFileSync(file, [...args, '-c', sql], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trimEnd();
  };
  for (const started = Date.now(); ;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}: ${log}`);
    try {
      psql('SELECT 1');
      break;
    } catch (error) {
      if (Date.now() - started > 60_000)
        throw new Error(`the private PostgreSQL cluster did not accept connections within 60 s: ${log}`, { cause: error });
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    port,
    user,
    password,
    /** The directory of the server's Unix socket (local connections are trusted). */
    socketDir: dir,
    env,
    url: (database = 'postgres') => `postgres://${user}:${password}@127.0.0.1:${port}/${database}`,
    psqlCommand,
    psql,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', () => done()));
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
