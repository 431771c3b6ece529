// A Secret Service of the test's own: a private D-Bus daemon with gnome-keyring on it, so a test can
// lock the keychain half-way through a command, or restart it, without disturbing other test files
// that use the session's keyring at the same time. Needs dbus-daemon, dbus-send and
// gnome-keyring-daemon (installed wherever APPRAISAL_TEST_KEYRING=1).
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../helpers/env.js';

const run = promisify(execFile);
const PASSWORD = 'appraisal-private-test';

export interface PrivateKeyring {
  /** For runCli: the private bus (every other variable is inherited). */
  env: Record<string, string>;
  /** Lock the login collection, as a screen lock would: reads and writes fail until unlocked. */
  lock(): Promise<void>;
  /** Unlock by restarting the daemon with the password (its items are on disk). */
  unlock(): Promise<void>;
  /** The secret stored for `account` under the service appraisal-cli, or null. */
  read(account: string): Promise<string | null>;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

export async function startPrivateKeyring(): Promise<PrivateKeyring> {
  const dir = mkdtempSync(join(tmpdir(), 'appraisal-keyring-'));
  const runtime = join(dir, 'run');
  const data = join(dir, 'data');
  mkdirSync(runtime, { mode: 0o700 });
  mkdirSync(data, { mode: 0o700 });
  const address = `unix:path=${join(dir, 'bus')}`;
  const env: Record<string, string> = { DBUS_SESSION_BUS_ADDRESS: address };
  const childEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: address, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: data };

  const bus = spawn('dbus-daemon', ['--session', '--nofork', `--address=${address}`, '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: childEnv,
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('dbus-daemon did not start')), 10_000);
    bus.once('error', reject);
    bus.stdout!.once('data', () => {
      clearTimeout(timer);
      resolve();
    });
  });

  const send = (args: string[]) => run('dbus-send', ['--session', '--print-reply', ...args], { env: childEnv, timeout: 10_000 });
  let daemon: ChildProcess | undefined;
  const startDaemon = async () => {
    daemon = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: childEnv,
    });
    daemon.stdin!.end(PASSWORD);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { stdout } = await send([
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      ]);
      if (/boolean true/.test(stdout)) return;
      if (Date.now() > deadline) throw new Error('gnome-keyring-daemon did not register on the private bus');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await startDaemon();

  const stopDaemon = async () => {
    if (!daemon) return;
    const current = daemon;
    daemon = undefined;
    current.kill('SIGTERM');
    await exited(current);
  };

  return {
    env,
    async lock() {
      await send([
        '--dest=org.freedesktop.secrets',
        '/org/freedesktop/secrets',
        'org.freedesktop.Secret.Service.Lock',
        'array:objpath:/org/freedesktop/secrets/collection/login',
      ]);
    },
    async unlock() {
      await stopDaemon();
      await startDaemon();
    },
    async read(account) {
      const script = `import { AsyncEntry } from '@napi-rs/keyring';
const value = await new AsyncEntry('appraisal-cli', process.argv[1], { linux: { store: 'secret-service' } }).getPassword();
process.stdout.write(JSON.stringify(value ?? null));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, account], {
        env: childEnv,
        cwd: ROOT,
        timeout: 15_000,
      });
      return JSON.parse(stdout) as string | null;
    },
    async stop() {
      await stopDaemon();
      bus.kill('SIGTERM');
      await exited(bus);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
