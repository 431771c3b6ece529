// A private PostgreSQL cluster for the sync bench (bench/sync.mjs), started as the tests start theirs
// (test/helpers/postgres.ts): Debian's binaries, initdb as an unprivileged user when run as root, a
// free loopback port, password authentication, fsync off. Undefined when PostgreSQL is not installed.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { track } from './lib/proc.mjs';

function bin() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  return versions.length === 0 ? undefined : join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

export async function startCluster() {
  const dir = bin();
  if (!dir) return undefined;
  const root = mkdtempSync(join(tmpdir(), 'appraisal-bench-pg-'));
  const data = join(root, 'data');
  mkdirSync(data);
  const user = 'bench';
  const password = `pw${Math.random().toString(36).slice(2, 10)}`;
  writeFileSync(join(root, 'pwfile'), `${password}\n`);
  let wrap = (file, args) => [file, args];
  if (process.getuid() === 0) {
    const name = ['postgres', 'nobody'].find((candidate) => {
      try {
        execFileSync('id', ['-u', candidate], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    });
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }));
    for (const path of [root, data, join(root, 'pwfile')]) chownSync(path, uid, gid);
    wrap = (file, args) => ['setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', file, ...args]];
  }
  execFileSync(
    ...wrap(join(dir, 'initdb'), [
      '-D',
      data,
      '-U',
      user,
      '--pwfile',
      join(root, 'pwfile'),
      '--auth-host=scram-sha-256',
      '--auth-local=trust',
      '--no-sync',
    ]),
    { stdio: 'ignore', cwd: root },
  );
  const port = await freePort();
  const child = spawn(
    ...wrap(join(dir, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      root,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
    ]),
    { cwd: root, stdio: 'ignore' },
  );
  track(child);
  const env = { ...process.env, PGPASSWORD: password };
  const psqlArgs = ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', 'postgres'];
  const psql = (sql) =>
    execFileSync(join(dir, 'psql'), [...psqlArgs, '-c', sql], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  for (let i = 0; ; i++) {
    try {
      psql('SELECT 1');
      break;
    } catch (error) {
      if (i > 300) throw error;
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${port}/postgres`,
    psql,
    psqlCommand: [join(dir, 'psql'), ...psqlArgs],
    env,
    stop: async () => {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGINT');
      await exited;
      rmSync(root, { recursive: true, force: true });
    },
  };
}
