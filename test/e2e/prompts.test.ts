// Issue 14 item 9: prompts end properly, on a real terminal (a pty through util-linux `script`).
// Ctrl-C → exit 130; Ctrl-D or `n` → "cancelled", exit 11; each time on a fresh line, the terminal
// back in its normal mode (icanon, echo), nothing changed on the service. The confirmation prompt
// shows the service's key name with its control characters made visible (item 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { ALL_CONTROL, RAW_CONTROL, page } from '../hostile/answers.js';
import { startHostile, type HostileServer } from '../hostile/server.js';
import { startOnPty } from '../hostile/terminal.js';

const KEY = 'apk_Prompts1_PromptS3cretPromptS3cretPromptS42';
const KEY_ID = 'bbbbbbbb-5d4a-4c3b-9a1f-0e6d7c8b9a10';

let server: HostileServer;

beforeAll(async () => {
  server = await startHostile();
  server
    .on('GET', '/api/keys', page([{ id: KEY_ID, prefix: 'apk_Target01', name: `evil${ALL_CONTROL}` }]))
    .on('DELETE', `/api/keys/${KEY_ID}`, (_req, res) => void res.writeHead(204).end());
});
afterAll(() => server.close());

const deletes = () => server.requests.filter((req) => req.method === 'DELETE').length;

/** The terminal after the run: cooked mode with echo (stty prints `icanon echo`, not `-icanon -echo`). */
function expectRestored(screen: string): void {
  expect(screen).toMatch(/STTY: icanon echo/);
}

const CONFIRM = /revoke key apk_Target01 \(evil.*\? \[y\/N\] /;

/** The screen without readline's own cursor moves (column and clear-below), which are ours. */
function serviceVisible(screen: string): string {
  return screen.split('STTY:')[0]!.replace(/\x1b\[(?:\d+G|0J)/g, '');
}

describe('item 9: the [y/N] confirmation', () => {
  const cases = [
    { name: '`n`', keys: 'n\r', code: 11, message: /^error: cancelled; nothing was changed$/m },
    { name: 'Enter (the default is no)', keys: '\r', code: 11, message: /^error: cancelled; nothing was changed$/m },
    { name: 'Ctrl-D', keys: '\x04', code: 11, message: /^error: cancelled: no answer was given/m },
    { name: 'Ctrl-C', keys: '\x03', code: 130, message: /^error: interrupted$/m },
  ];
  for (const { name, keys, code, message } of cases) {
    it(`${name} → exit ${code}, a message on its own line, terminal restored, nothing revoked`, async () => {
      const before = deletes();
      const session = startOnPty(
        ['keys', 'revoke', 'apk_Target01'],
        isolatedEnv({ APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY }),
      );
      await session.waitFor(CONFIRM);
      // The prompt shows the service's control characters visibly.
      expect(session.screen()).toContain('evil\uFFFD]52;c;');
      session.type(keys);
      const result = await session.result;
      expect(result.code, result.screen).toBe(code);
      expect(result.screen).toMatch(message);
      expect(serviceVisible(result.screen)).not.toMatch(RAW_CONTROL);
      expectRestored(result.screen);
      expect(deletes()).toBe(before);
    });
  }

  it('`y` revokes (exit 0)', async () => {
    const before = deletes();
    const session = startOnPty(['keys', 'revoke', 'apk_Target01'], isolatedEnv({ APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY }));
    await session.waitFor(CONFIRM);
    session.type('y\r');
    const result = await session.result;
    expect(result.code, result.screen).toBe(0);
    expect(deletes()).toBe(before + 1);
  });
});

describe('item 9: the hidden key prompt', () => {
  for (const { name, keys, code } of [
    { name: 'Ctrl-C after typing part of a key', keys: 'apk_Typed\x03', code: 130 },
    // As in a shell, Ctrl-D ends the input only on an empty line.
    { name: 'Ctrl-D', keys: '\x04', code: 11 },
  ]) {
    it(`${name} → exit ${code}, terminal restored (echo back on), nothing stored`, async () => {
      const env = isolatedEnv();
      const session = startOnPty(['auth', 'login', '--profile', 'p', '--base-url', server.url, '--insecure-storage'], env);
      await session.waitFor(/input is hidden\): /);
      session.type(keys);
      const result = await session.result;
      expect(result.code, result.screen).toBe(code);
      expect(result.screen).toMatch(/\n(error: (interrupted|cancelled))/);
      expect(result.screen).not.toContain('apk_Typed');
      expectRestored(result.screen);
    });
  }
});
