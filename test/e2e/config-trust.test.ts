// Issue 26 §6, §11: the config dir and config.json decide where a stored key is sent. Another user
// who can write them rewrote a profile's base URL (and keyOrigin) to their own server and received the
// `--insecure-storage` key. Now a config dir or file that another user owns or can write is refused
// (exit 2, one line, a hint saying how to fix it), and the insecure key file records the origin it was
// stored for: a config.json rewritten to another origin gets exit 10, and the other server receives
// nothing. A FIFO at config.json's lock does not hang a config write. Runs in process (helpers/run.ts).
import { execFileSync } from 'node:child_process';
import { chownSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';

const isRoot = process.getuid?.() === 0;
let mock: MockServer;
let admin: MockAdmin;
let attacker: Server;
let attackerUrl: string;
/** Every Authorization / X-Api-Key header the attacker's server received. */
const received: string[] = [];

beforeAll(async () => {
  mock = await startMock({ records: 3 });
  admin = mockAdmin(mock);
  attacker = createServer((request, response) => {
    for (const name of ['authorization', 'x-api-key']) {
      const value = request.headers[name];
      if (typeof value === 'string') received.push(value);
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"success":true,"data":[],"pagination":{"page":1,"limit":25,"total":0,"pages":0}}');
  });
  await new Promise<void>((done) => attacker.listen(0, '127.0.0.1', done));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
  await new Promise((done) => attacker?.close(done));
});

/** A user logged in with --insecure-storage; the env then carries no key and no base URL. */
async function loggedIn(): Promise<{ env: Record<string, string | undefined>; configDir: string; config: string }> {
  const home = isolatedEnv();
  const key = await admin.createKey(['api:read'], 'config trust');
  const login = await run(['auth', 'login', '--with-key', '--insecure-storage'], {
    env: { ...home, ...mock.env, APPRAISAL_API_KEY: undefined },
    stdin: `${key.secret}\n`,
  });
  expect(login.code, login.stderr).toBe(0);
  const env = { ...home, APPRAISAL_CA_FILE: mock.caFile, APPRAISAL_API_KEY: undefined, APPRAISAL_BASE_URL: undefined };
  const works = await run(['props', 'list', '-o', 'json'], { env });
  expect(works.code, works.stderr).toBe(0);
  const configDir = home.APPRAISAL_CONFIG_DIR!;
  return { env, configDir, config: join(configDir, 'config.json') };
}

/** What the other user does: point the profile (and its key origin) at their own server. */
function redirect(config: string): void {
  const data = JSON.parse(readFileSync(config, 'utf8')) as { profiles: Record<string, Record<string, string>> };
  data.profiles.default!.baseUrl = attackerUrl;
  data.profiles.default!.keyOrigin = `${attackerUrl}`;
  writeFileSync(config, JSON.stringify(data));
}

function oneErrorLine(stderr: string): string {
  const errors = stderr.split('\n').filter((line) => line.startsWith('error: '));
  expect(errors, stderr).toHaveLength(1);
  return errors[0]!;
}

describe('a config others can write is refused, as ssh does (exit 2)', () => {
  it('a world-writable config dir: refused with a chmod hint; the other server gets nothing', async () => {
    const { env, configDir, config } = await loggedIn();
    execFileSync('chmod', ['777', configDir]);
    redirect(config);
    const result = await run(['props', 'list'], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe(`error: ${configDir} can be written by other users (mode 777); refusing to use it`);
    expect(result.stderr).toContain(`hint: run \`chmod go-w ${configDir}\``);
    expect(received).toEqual([]);
  });

  it('a group-writable config.json: refused with a chmod hint', async () => {
    const { env, config } = await loggedIn();
    execFileSync('chmod', ['664', config]);
    redirect(config);
    const result = await run(['props', 'list'], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe(`error: ${config} can be written by other users (mode 664); refusing to use it`);
    expect(result.stderr).toContain(`hint: run \`chmod go-w ${config}\``);
    expect(received).toEqual([]);
  });

  it.skipIf(!isRoot)(
    'a config dir or config.json owned by another user: refused (needs root to chown; CI and this machine run as root)',
    async () => {
      const first = await loggedIn();
      chownSync(first.configDir, 4242, 4242);
      const dirResult = await run(['props', 'list'], { env: first.env });
      expect(dirResult.code, dirResult.stderr).toBe(2);
      expect(oneErrorLine(dirResult.stderr)).toBe(`error: ${first.configDir} is owned by another user (uid 4242); refusing to use it`);
      expect(dirResult.stderr).toContain('chown');

      const second = await loggedIn();
      chownSync(second.config, 4242, 4242);
      const fileResult = await run(['props', 'list'], { env: second.env });
      expect(fileResult.code, fileResult.stderr).toBe(2);
      expect(oneErrorLine(fileResult.stderr)).toBe(`error: ${second.config} is owned by another user (uid 4242); refusing to use it`);
      expect(received).toEqual([]);
    },
  );
});

describe('the insecure key file records its origin (exit 10 elsewhere)', () => {
  it('config.json rewritten to another origin: the key is not read for it, the other server gets nothing', async () => {
    const { env, config } = await loggedIn();
    redirect(config); // the file stays ours and 0600: only its content changed
    const result = await run(['props', 'list'], { env });
    expect(result.code, result.stderr).toBe(10);
    expect(oneErrorLine(result.stderr)).toMatch(
      new RegExp(
        `^error: the key file of profile "default" \\(.*default\\.key\\) was stored for ${new URL(mock.baseUrl).origin}; refusing to send it to ${attackerUrl}$`,
      ),
    );
    expect(received).toEqual([]);
  });
});

describe('a FIFO at the config lock does not hang a config write (exit 2)', () => {
  it('profiles use: refused at once, naming the lock', async () => {
    const { env, config } = await loggedIn();
    execFileSync('mkfifo', [`${config}.lock`]);
    const result = await run(['profiles', 'use', 'default'], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(oneErrorLine(result.stderr)).toBe(`error: ${config}.lock is a FIFO (named pipe), not a regular file; refusing to use it`);
  });
});
