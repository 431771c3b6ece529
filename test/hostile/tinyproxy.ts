// A real logging HTTP proxy (Debian's tinyproxy, installed by .ci/run) on a free port, for the
// proxy tests: its log shows every request and CONNECT it relayed, so a test can prove what did and
// did not go through it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tinyproxy {
  /** `http://127.0.0.1:PORT` for HTTP_PROXY / HTTPS_PROXY. */
  url: string;
  /** The log so far. */
  log(): string;
  stop(): Promise<void>;
}

/** The tinyproxy binary, or undefined when it is not installed. */
export function tinyproxyPath(): string | undefined {
  for (const candidate of ['/usr/bin/tinyproxy', '/usr/sbin/tinyproxy']) if (existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v tinyproxy'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startTinyproxy(): Promise<Tinyproxy> {
  const binary = tinyproxyPath();
  if (binary === undefined) throw new Error('tinyproxy is not installed (apt-get install tinyproxy; .ci/run does)');
  const dir = mkdtempSync(join(tmpdir(), 'appraisal-tinyproxy-'));
  const logFile = join(dir, 'tinyproxy.log');
  writeFileSync(logFile, '');
  let child: ChildProcess | undefined;
  // A port picked free can be taken before tinyproxy binds it: try a few.
  for (let attempt = 0; attempt < 5 && child === undefined; attempt++) {
    const port = await freePort();
    const config = join(dir, 'tinyproxy.conf');
    // No ConnectPort line: CONNECT to any port is allowed. LogLevel Info logs each request and CONNECT.
    writeFileSync(
      config,
      [
        `Port ${port}`,
        'Listen 127.0.0.1',
        'Timeout 20',
        `LogFile "${logFile}"`,
        'LogLevel Info',
        'MaxClients 20',
        'Allow 127.0.0.1',
        '',
      ].join('\n'),
    );
    const started = spawn(binary, ['-d', '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let exited = false;
    started.once('exit', () => (exited = true));
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline && !(await accepts(port))) await new Promise((resolve) => setTimeout(resolve, 25));
    if (exited || Date.now() >= deadline) {
      started.kill('SIGKILL');
      continue;
    }
    child = started;
    return {
      url: `http://127.0.0.1:${port}`,
      log: () => readFileSync(logFile, 'utf8'),
      stop: () =>
        new Promise<void>((resolve) => {
          const done = () => {
            rmSync(dir, { recursive: true, force: true });
            resolve();
          };
          if (started.exitCode !== null) return done();
          started.once('exit', done);
          started.kill('SIGTERM');
        }),
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error('tinyproxy did not start');
}
