// The OS keychain for real: a Secret Service (gnome-keyring in a private D-Bus session, started by
// scripts/with-keyring.sh, which sets APPRAISAL_TEST_KEYRING=1). In CI these tests must run.
// The "no keychain" tests need no Secret Service and always run on Linux.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run, type RunOptions, type RunResult } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { createKey, filesContaining, filesUnder } from './credentials-support.js';
import { tempDir } from '../helpers/temp.js';

const hasKeyring = process.env.APPRAISAL_TEST_KEYRING === '1';

/**
 * In process, with the keychain behind `bus`: the native keychain reads the D-Bus address of its
 * process, not the command's environment, so this file's process (its own vitest worker, one test
 * at a time) is pointed there for the run.
 */
async function onBus(bus: string, args: string[], options: RunOptions): Promise<RunResult> {
  const before = process.env.DBUS_SESSION_BUS_ADDRESS;
  process.env.DBUS_SESSION_BUS_ADDRESS = bus;
  try {
    return await run(args, options);
  } finally {
    if (before === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = before;
  }
}
const inCI = process.env.CI === 'true';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ records: 5 });
});
afterAll(async () => {
  await mock?.stop();
});

async function keychainEntry(account: string): Promise<string | null> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  return new AsyncEntry('appraisal-cli', account, { linux: { store: 'secret-service' } }).getPassword();
}

function originKey(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

describe('keychain availability', () => {
  it.runIf(inCI)('CI runs the keychain tests (scripts/test.sh inside dbus-run-session)', () => {
    expect(hasKeyring, 'CI=true but APPRAISAL_TEST_KEYRING is not 1: run the suite with `npm test`').toBe(true);
  });
});

describe.runIf(hasKeyring)(
  `with a real Secret Service${hasKeyring ? '' : ' [skipped: no Secret Service; `npm test` runs it under dbus-run-session with gnome-keyring]'}`,
  () => {
    it('login stores the key in the keychain only; commands use it with no APPRAISAL_* set; logout removes it', async () => {
      // No APPRAISAL_CONFIG_DIR: the config goes to $XDG_CONFIG_HOME/appraisal-cli like a user's would.
      const env = isolatedEnv({ APPRAISAL_CONFIG_DIR: undefined });
      const home = env.HOME!;
      const configDir = join(env.XDG_CONFIG_HOME!, 'appraisal-cli');
      const key = await createKey(mock, { name: 'keychain', scopes: ['api:read'] });
      const account = `default@${originKey(mock.baseUrl)}`;

      const login = await run(['auth', 'login', '--with-key'], {
        env: { ...env, APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile },
        stdin: `${key.secret}\n`,
      });
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain(`with key ${key.prefix} (keychain, api:read); stored in the OS keychain`);
      expect(login.stderr).not.toContain('warning');

      expect(await keychainEntry(account)).toBe(key.secret);
      expect(filesUnder(configDir).length).toBeGreaterThan(0);
      expect(filesContaining(configDir, key.secret)).toEqual([]);
      expect(filesContaining(home, key.secret)).toEqual([]);
      const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
      expect(config.profiles.default).toMatchObject({ keyStorage: 'keychain', keyPrefix: key.prefix });

      // Nothing but HOME/XDG: base URL, CA and key all come from the profile and the keychain.
      const list = await run(['props', 'list', '-o', 'json', '--max-items', '3'], { env });
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout)).toHaveLength(3);
      expect(list.stderr).toBe('');

      const status = await run(['auth', 'status', '-o', 'json'], { env });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ source: 'keychain', keyPrefix: key.prefix, keyName: 'keychain' });

      const logout = await run(['auth', 'logout'], { env });
      expect(logout.code, logout.stderr).toBe(0);
      expect(logout.stderr).toContain(`removed key ${key.prefix}… from the OS keychain`);
      expect(await keychainEntry(account)).toBeNull();
      const after = await run(['props', 'list', '--max-items', '1'], { env });
      expect(after.code).toBe(4);
    });

    it('an origin other than the stored one is refused before the keychain or network is used', async () => {
      const env = isolatedEnv();
      const key = await createKey(mock);
      const login = await run(['auth', 'login', '--with-key', '-p', 'bound'], {
        env: { ...env, APPRAISAL_BASE_URL: mock.baseUrl, APPRAISAL_CA_FILE: mock.caFile },
        stdin: key.secret,
      });
      expect(login.code, login.stderr).toBe(0);
      const other = mock.baseUrl.replace('localhost', '127.0.0.1');
      const result = await run(['props', 'list', '-p', 'bound', '--base-url', other === mock.baseUrl ? 'https://example.invalid' : other], {
        env,
      });
      expect(result.code).toBe(10);
      expect(result.stderr).toMatch(/refusing to send it to/);
      const removed = await run(['profiles', 'remove', 'bound', '--yes'], { env });
      expect(removed.code, removed.stderr).toBe(0);
      expect(await keychainEntry(`bound@${originKey(mock.baseUrl)}`)).toBeNull();
    });
  },
);

describe.runIf(process.platform === 'linux')(
  `without a usable keychain${process.platform === 'linux' ? '' : ' [skipped: Linux only (D-Bus)]'}`,
  () => {
    it('no Secret Service: login fails fast with exit 2, naming APPRAISAL_API_KEY and --insecure-storage', async () => {
      const env = isolatedEnv();
      const key = await createKey(mock);
      const started = Date.now();
      const result = await onBus('unix:path=/nonexistent/bus', ['auth', 'login', '--with-key'], {
        env: {
          ...env,
          APPRAISAL_BASE_URL: mock.baseUrl,
          APPRAISAL_CA_FILE: mock.caFile,
          APPRAISAL_KEYRING_TIMEOUT: '2000',
        },
        stdin: key.secret,
      });
      expect(result.code).toBe(2);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.stderr).toMatch(
        /^error: could not store the key in the OS keychain; nothing was stored: the OS keychain is not available/m,
      );
      expect(result.stderr).toMatch(/^hint: .*APPRAISAL_API_KEY.*--insecure-storage/m);
      expect(result.stderr).not.toContain(key.secret);
      expect(filesContaining(env.HOME!, key.secret)).toEqual([]);
    });

    describe('a Secret Service that never answers', () => {
      let dir: string;
      let bus: Server;
      const sockets = new Set<Socket>();
      beforeAll(async () => {
        dir = tempDir('appraisal-bus-');
        // Accepts the connection and then says nothing: the D-Bus handshake never completes.
        bus = createServer((socket) => {
          sockets.add(socket);
          socket.on('error', () => {});
          socket.resume();
        });
        await new Promise<void>((resolve) => bus.listen(join(dir, 'bus'), resolve));
      });
      afterAll(async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => bus.close(() => resolve()));
        rmSync(dir, { recursive: true, force: true });
      });

      it('times out after APPRAISAL_KEYRING_TIMEOUT with a clear message, never hangs', async () => {
        const env = isolatedEnv();
        const key = await createKey(mock);
        const started = Date.now();
        const result = await onBus(`unix:path=${join(dir, 'bus')}`, ['auth', 'login', '--with-key'], {
          env: {
            ...env,
            APPRAISAL_BASE_URL: mock.baseUrl,
            APPRAISAL_CA_FILE: mock.caFile,
            APPRAISAL_KEYRING_TIMEOUT: '500',
          },
          stdin: key.secret,
          signal: AbortSignal.timeout(20_000),
        });
        expect(result.code).toBe(2);
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(result.stderr).toMatch(/keychain (did not answer: timed out after 500ms|is not available)/);
        expect(result.stderr).toMatch(/APPRAISAL_API_KEY/);
      });
    });
  },
);
