// The command bundle is given a `require` that defers some Node built-ins until first use
// (src/boot/deferred-builtins.ts), and two undici files are edited at build time so they do not read
// node:http at load (scripts/undici-defer-http.mjs): ~8 ms less start-up for every short command.
// These runs of the built binary record which built-ins Node loaded, so a new top-level use that
// loads one again fails here, not only in `npm run bench`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { runCli } from '../helpers/spawn.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { mockAdmin } from '../helpers/mock-admin.js';
import { tempDir } from '../helpers/temp.js';

/** Loaded by Node for stdin's stream, which a command that does not read stdin should not create. */
const STDIN_STREAMS = 'internal/fs/streams';
const DEFERRED = ['assert', 'child_process', 'fs/promises', 'http', 'os', 'perf_hooks', 'timers/promises'];

let mock: MockServer;
let id: string;
let dir: string;
let hook: string;

beforeAll(async () => {
  mock = await startMock({ records: 20, seed: 5 });
  const admin = mockAdmin(mock);
  id = (await admin.ids('/api/properties'))[0]!;
  await admin.close();
  dir = tempDir('deferred-builtins-');
  hook = join(dir, 'record-builtins.cjs');
  // Preloaded with --require: at exit, the built-in modules Node loaded, one per line.
  writeFileSync(
    hook,
    `process.on('exit', () => require('node:fs').writeFileSync(process.env.BUILTINS_OUT, process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join('\\n')));\n`,
  );
});
afterAll(async () => {
  await mock?.stop();
});

/**
 * Run the binary with stdin read from a file (as under cron or `< file`: Node then builds stdin as a
 * file stream, which loads internal/fs/streams when, and only when, something reads process.stdin).
 */
async function run(args: string[], name: string, env: Record<string, string | undefined>, input = '') {
  const out = join(dir, `${name}.txt`);
  const stdinFile = join(dir, `${name}.stdin`);
  writeFileSync(stdinFile, input);
  const result = await runCli(args, { env: { ...env, NODE_OPTIONS: `--require=${hook}`, BUILTINS_OUT: out }, stdinFile });
  return { ...result, builtins: new Set(readFileSync(out, 'utf8').split('\n')) };
}

describe('built-ins the bundle defers', () => {
  it('`props get ID` loads none of them, nor a stream for stdin, and prints the record', async () => {
    // The second run is the one recorded: a first run in a new profile writes some state (the
    // bundled-model notice), which is allowed to load node:fs/promises.
    const env = { ...isolatedEnv(), ...mock.env };
    expect((await run(['props', 'get', id], 'first', env)).code).toBe(0);
    const result = await run(['props', 'get', id, '-o', 'json'], 'get', env);
    const builtins = result.builtins;
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(result.stdout) as { id: string }).id).toBe(id);
    // The recording itself works: what every HTTPS request needs is there.
    expect(builtins).toContain('tls');
    expect(DEFERRED.filter((name) => builtins.has(name))).toEqual([]);
    expect(builtins.has(STDIN_STREAMS)).toBe(false);
  });

  it('a command that uses one gets the real module: a 404 is named from node:http', async () => {
    const result = await run(['props', 'get', '00000000-0000-4000-8000-000000000000'], 'missing', { ...isolatedEnv(), ...mock.env });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^error: GET \/api\/properties\/0{8}-0{4}-4000-8000-0{12}: 404 Not Found — /m);
    expect(result.builtins).toContain('http');
  });

  it('a command that reads stdin still reads it', async () => {
    const property = {
      name: 'Deferred Point',
      propertyType: 'office',
      address: { line1: '1 Pier Rd', city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
    };
    const result = await run(
      ['props', 'create', '--data', '-', '-o', 'json'],
      'stdin',
      { ...isolatedEnv(), ...mock.env },
      JSON.stringify(property),
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject(property);
    expect(result.builtins).toContain(STDIN_STREAMS);
  });
});
