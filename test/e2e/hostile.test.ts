// Issue 14 against the hostile test server (test/hostile): a service that puts terminal control
// sequences in everything it says, echoes the key back in disguise and sends credentials in headers.
// Each run asserts the exit code, that no raw control byte reached stderr (or the terminal), and that
// the secret never appears in any form. In process: the CLI's own streams are what is checked (a
// pretend terminal where one is needed); two runs at once share this process's pid, as a lock sees it.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run, start, type RunResult } from '../helpers/run.js';
import { entriesOf, tempDir } from '../helpers/temp.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { waitFor } from '../helpers/wait.js';
import {
  ALL_CONTROL,
  CONTROL,
  ENCODINGS,
  RAW_CONTROL,
  echoCredential,
  json,
  page,
  record,
  serviceError,
  text,
} from '../hostile/answers.js';
import { startHostile, type HostileServer } from '../hostile/server.js';
import { screenText } from '../hostile/screen.js';

const KEY = 'apk_Hostile1_HostileS3cretHostileS3cretHost42';
const SECRET_BODY = KEY.slice(13);
const ID = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';

let server: HostileServer;

/** The CLI against the hostile server; no retries, so a failure is one request. */
function cli(args: string[], environment: Record<string, string | undefined>): Promise<RunResult> {
  return run([...args, '--retries', '0'], { env: environment });
}

function env(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return isolatedEnv({ APPRAISAL_BASE_URL: server.url, APPRAISAL_API_KEY: KEY, ...extra });
}

/** Every form of the key a test knows of must be absent. */
function expectNoSecret(output: string): void {
  for (const [name, encode] of Object.entries(ENCODINGS)) {
    expect(output, `key leaked ${name}`).not.toContain(encode(KEY));
  }
  expect(output.replace(/[\s\u200b]/g, '')).not.toContain(SECRET_BODY);
}

function expectCleanFailure(result: RunResult, code: number): void {
  expect(result.code, result.stderr).toBe(code);
  expect(exitProblems(result)).toEqual([]);
  expect(result.stderr).not.toMatch(RAW_CONTROL);
  expectNoSecret(result.stdout + result.stderr);
}

beforeAll(async () => {
  server = await startHostile();
});
afterAll(async () => {
  await server.close();
});

describe('item 2: nothing from the service reaches a terminal raw', () => {
  it('error message and request id with OSC 52, clear-screen, BEL and bare CR are shown visibly (exit 6)', async () => {
    server.on(
      'GET',
      `/api/properties/${ID}`,
      serviceError(404, { code: 'NOT_FOUND', message: `gone ${ALL_CONTROL}`, requestId: `rid-${CONTROL.osc52}` }),
    );
    const result = await cli(['props', 'get', ID], env());
    expectCleanFailure(result, 6);
    expect(result.stderr).toContain('\uFFFD]52;c;');
  });

  it('403 hint scopes from details.requiredScopes are sanitised (exit 5)', async () => {
    server.on(
      'GET',
      '/api/clients',
      serviceError(403, { code: 'FORBIDDEN', message: 'no', details: { requiredScopes: [`clients:read${CONTROL.clear}`] } }),
    );
    const result = await cli(['clients', 'list', '-o', 'json'], env());
    expectCleanFailure(result, 5);
    expect(result.stderr).toMatch(/^hint: .*clients:read\uFFFD\[2J/m);
  });

  it('a plain-text error body is sanitised (exit 8)', async () => {
    server.on('GET', '/api/assignments', text(502, `upstream broke ${ALL_CONTROL}`));
    const result = await cli(['assignments', 'list', '-o', 'json'], env());
    expectCleanFailure(result, 8);
    expect(result.stderr).toContain('upstream broke');
  });

  it('a key name in the keys revoke notice is sanitised (exit 0)', async () => {
    const keyId = 'aaaaaaaa-5d4a-4c3b-9a1f-0e6d7c8b9a10';
    server
      .on('GET', '/api/keys', page([{ id: keyId, prefix: 'apk_Revoke01', name: `evil${ALL_CONTROL}` }]))
      .on('DELETE', `/api/keys/${keyId}`, (_req, res) => void res.writeHead(204).end());
    const result = await cli(['keys', 'revoke', 'apk_Revoke01', '--yes'], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Revoked key apk_Revoke01 (evil');
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });

  it('a key name and scopes in the keys create notice are sanitised; the new secret alone on stdout (exit 0)', async () => {
    const created = 'apk_Created1_CreatedS3cretCreatedS3cretCreat42';
    // The published answer is the bare record (ApiKeyCreated), not {success, data}.
    server.on(
      'POST',
      '/api/keys',
      json(201, {
        id: 'dddddddd-5d4a-4c3b-9a1f-0e6d7c8b9a10',
        prefix: 'apk_Created1',
        name: `evil${ALL_CONTROL}`,
        scopes: [`api:read${CONTROL.clear}`],
        secret: created,
      }),
    );
    const result = await cli(['keys', 'create', '--name', 'ci bot', '--scope', 'api:read'], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${created}\n`);
    expect(result.stderr).toContain('Created key apk_Created1 (evil\uFFFD]52;c;');
    expect(result.stderr).toContain('scopes: api:read\uFFFD[2J\uFFFD[H');
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expectNoSecret(result.stdout + result.stderr);
  });

  it('the OpenAPI-load warning is sanitised; the json answer on stdout stays exact', async () => {
    server
      .on('GET', '/api/openapi.json', text(500, `spec down ${ALL_CONTROL}`))
      .on('GET', '/api/echo-data', json(200, { note: CONTROL.osc52 }));
    const result = await cli(['api', 'GET', '/api/echo-data'], env());
    // Every later command loads the description too: from now on the service publishes none.
    server.on('GET', '/api/openapi.json', serviceError(404, { code: 'NOT_FOUND', message: 'no description' }));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/warning: could not load the (OpenAPI document|service description)/);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect((JSON.parse(result.stdout) as { note: string }).note).toBe(CONTROL.osc52);
  });

  it('-o csv on a terminal shows control characters visibly; piped it stays exact', async () => {
    server.on('GET', '/api/properties', page([{ id: ID, name: `x${ALL_CONTROL}` }]));
    // --quiet: no spinner, so every escape sequence on the screen would be the service's. The
    // terminal of a 120-column xterm; what it shows is stdout and stderr, the csv's CR LF read as a line end.
    const onTerminal = await run(['props', 'list', '-o', 'csv', '--fields', 'id,name', '--quiet'], {
      env: env({ TERM: 'xterm' }),
      tty: true,
      columns: 120,
    });
    const screen = screenText(onTerminal.stdout + onTerminal.stderr);
    expect(onTerminal.code, screen).toBe(0);
    expect(screen).toContain(`${ID},x\uFFFD]52;c;`);
    expect(screen).not.toMatch(RAW_CONTROL);
    const piped = await cli(['props', 'list', '-o', 'csv', '--fields', 'id,name'], env());
    expect(piped.stdout).toContain(CONTROL.osc52);
  });

  it("smoke's table shows an ESC in a service message visibly (U+FFFD), through the same sanitiser as every table", async () => {
    // Everything else is the server's 404.
    server.on(
      'GET',
      '/api/keys/current',
      serviceError(401, { code: 'UNAUTHORIZED', message: `key refused ${ALL_CONTROL}`, requestId: `rid-${CONTROL.clear}` }),
    );
    const result = await cli(['smoke', '-o', 'json'], env());
    expectCleanFailure(result, 4);
    const row = result.stderr.split('\n').find((line) => /^credential\s+FAIL\b/.test(line));
    expect(row, result.stderr).toContain('key refused \uFFFD]52;c;cHduZWQ=\uFFFD');
    // The service's message is said once, in the row (sanitised above); nothing raw anywhere.
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(result.stderr).toMatch(/request id rid-\uFFFD\[2J\uFFFD\[H/);
  });
});

describe('item 5: child processes never inherit the key', () => {
  it('watch --exec gets no credential variable, and what it prints is redacted', async () => {
    const dir = tempDir('appraisal-hostile-exec-');
    const keyFile = join(dir, 'leak.txt');
    writeFileSync(keyFile, `${KEY}\n${ENCODINGS.urlEncoded!(KEY)}\n`);
    chmodSync(keyFile, 0o600);
    const envDump = join(dir, 'env.txt');
    server.on('GET', '/api/properties', page([{ id: ID, name: 'one', updatedAt: '2026-01-01T00:00:00.000Z' }]));
    const hook = `env > ${envDump}; cat ${keyFile}; printf 'split %s' "$(head -c 20 ${keyFile})"; printf '%s\\n' "$(tail -c +21 ${keyFile} | head -1)"`;
    const result = await cli(['watch', 'props', '--once', '--emit-existing', '--exec', hook], env({ COPY_OF_KEY: KEY }));
    expect(result.code, result.stderr).toBe(0);
    const childEnv = readFileSync(envDump, 'utf8');
    expect(childEnv).toContain(`APPRAISAL_EVENT_ID=${ID}`);
    expect(childEnv).not.toMatch(/APPRAISAL_API_KEY|COPY_OF_KEY/);
    expectNoSecret(childEnv);
    expect(result.stderr).toContain('apk_Hostile1…');
    expectNoSecret(result.stdout + result.stderr);
  });
});

describe('item 7: redaction that survives encoding', () => {
  for (const [name, encode] of Object.entries(ENCODINGS)) {
    it(`a key echoed back ${name} in an error is redacted (exit 4)`, async () => {
      server.on('GET', `/api/clients/${ID}`, echoCredential(401, encode));
      const result = await cli(['clients', 'get', ID], env());
      expectCleanFailure(result, 4);
    });
  }

  it('api -i never prints an Authorization value or a bearer token from response headers', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    server.on(
      'GET',
      '/api/headers',
      json(
        200,
        { ok: true },
        { authorization: `Bearer ${token}`, 'x-upstream-auth': `Bearer ${token}`, 'x-echo-key': ENCODINGS.urlEncoded!(KEY) },
      ),
    );
    const result = await cli(['api', 'GET', '/api/headers', '-i'], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('x-upstream-auth: Bearer …');
    expect(result.stdout + result.stderr).not.toContain(token.slice(10));
    expectNoSecret(result.stdout + result.stderr);
  });

  it('a short non-apk_ token is never echoed whole (exit 4)', async () => {
    server.on(
      'GET',
      `/api/assignments/${ID}`,
      echoCredential(401, (s) => s),
    );
    const result = await cli(['assignments', 'get', ID], env({ APPRAISAL_API_KEY: undefined, APPRAISAL_TOKEN: 'xyz9' }));
    expect(result.code, result.stderr).not.toBe(0);
    expect(result.stderr).not.toMatch(/\bxyz9\b/);
  });
});

describe('item 6: locks and files that cannot trap the user', () => {
  function login(environment: Record<string, string | undefined>): Promise<RunResult> {
    server.on(
      'GET',
      '/api/keys/current',
      record({ id: 'cccccccc-5d4a-4c3b-9a1f-0e6d7c8b9a10', prefix: 'apk_Hostile1', scopes: ['api:read'] }),
    );
    return run(['auth', 'login', '--profile', 'locked', '--base-url', server.url, '--with-key', '--insecure-storage', '--retries', '0'], {
      env: environment,
      stdin: `${KEY}\n`,
    });
  }

  it('a dangling symlink at config.json.lock is recognised as stale: auth login succeeds (it used to spin forever)', async () => {
    const environment = env({ APPRAISAL_API_KEY: undefined });
    const dir = environment.APPRAISAL_CONFIG_DIR!;
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(dir, 'no-such-target'), join(dir, 'config.json.lock'));
    const result = await login(environment);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, 'config.json'))).toBe(true);
    expect(() => lstatSync(join(dir, 'config.json.lock'))).toThrow();
    expectNoSecret(result.stdout + result.stderr);
  });

  it('a lock held by a live process: exit 2 after a bounded wait, naming the lock and what to do', async () => {
    const environment = env({ APPRAISAL_API_KEY: undefined });
    const dir = environment.APPRAISAL_CONFIG_DIR!;
    mkdirSync(dir, { recursive: true });
    // This test process is alive: its pid in a fresh lock means "held".
    writeFileSync(join(dir, 'config.json.lock'), `${process.pid}\n`);
    const result = await login(environment);
    expectCleanFailure(result, 2);
    expect(result.stderr).toMatch(
      new RegExp(`^error: .*config\\.json\\.lock is held by another appraisal process \\(pid ${process.pid}\\)`, 'm'),
    );
    expect(result.stderr).toMatch(/^hint: wait for that command to finish/m);
    // The key was stored before the profile could be saved: it is taken back, no secret stays on disk.
    expect(existsSync(join(dir, 'credentials', 'locked.key'))).toBe(false);
    expect(readFileSync(join(dir, 'config.json.lock'), 'utf8')).toBe(`${process.pid}\n`);
  });

  it('Ctrl-C while waiting for a held lock: exit 130 at once (not at the 5 s deadline), nothing written, the holder keeps its lock', async () => {
    const environment = env({ APPRAISAL_API_KEY: undefined });
    const dir = environment.APPRAISAL_CONFIG_DIR!;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const config = `${JSON.stringify({ activeProfile: 'one', profiles: { one: { baseUrl: server.url, environment: 'local' }, two: { baseUrl: server.url, environment: 'local' } } }, null, 2)}\n`;
    writeFileSync(join(dir, 'config.json'), config, { mode: 0o600 });
    writeFileSync(join(dir, 'config.json.lock'), `${process.pid}\n`);
    const running = start(['profiles', 'use', 'two'], { env: environment });
    // The condition: it says it is waiting (after 250 ms of waiting), then Ctrl-C.
    await waitFor(() => running.stderr().includes('waiting for another appraisal command'), 'the wait for the lock');
    const interruptedAt = Date.now();
    running.interrupt();
    const result = await running.result;
    const tookMs = Date.now() - interruptedAt;
    expect(exitProblems(result, { interrupted: true }), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/^error: interrupted$/m);
    expect(result.stderr).not.toContain('gave up');
    // A blocking wait only noticed the Ctrl-C at its 5 s deadline, ~4.7 s after this point.
    expect(tookMs).toBeLessThan(2_500);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(config);
    expect(readFileSync(join(dir, 'config.json.lock'), 'utf8')).toBe(`${process.pid}\n`);
    expect(entriesOf(dir).sort()).toEqual(['config.json', 'config.json.lock']);
  });

  it('a second export to the same --out while one runs: exit 2 at once naming its pid; the first ends whole, no lock left', async () => {
    // Both run in this process: the holder's pid is this process's.
    const dir = tempDir('appraisal-hostile-out-lock-');
    const out = join(dir, 'props.ndjson');
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    server.on('GET', '/api/properties', async (req, res) => {
      const number = Number(new URL(req.path, server.url).searchParams.get('page'));
      // Page 2 of the first export waits until the second one has been refused.
      if (number === 2) await held;
      json(200, { items: [{ id: `p${number}` }], pagination: { page: number, limit: 1, total: 2, pages: 2 } })(req, res);
    });
    const args = ['props', 'list', '-o', 'ndjson', '--out', out, '--page-size', '1', '--concurrency', '1', '--retries', '0'];
    const first = start(args, { env: env() });
    await waitFor(
      () => server.requests.some((request) => request.path.startsWith('/api/properties?page=2')),
      'the first export to be under way',
    );
    const second = await run(args, { env: env() });
    expectCleanFailure(second, 2);
    expect(second.stderr).toMatch(
      new RegExp(`^error: --out .*props\\.ndjson is being written by another appraisal export \\(pid ${process.pid}\\)$`, 'm'),
    );
    letGo();
    const result = await first.result;
    expect(result.code, result.stderr).toBe(0);
    expect(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual(['p1', 'p2']);
    expect(entriesOf(dir)).toEqual(['props.ndjson']);
  });

  it('--out onto a symbolic link is refused with exit 2; the link and its target are untouched', async () => {
    const dir = tempDir('appraisal-hostile-out-');
    writeFileSync(join(dir, 'precious.txt'), 'keep me');
    symlinkSync(join(dir, 'precious.txt'), join(dir, 'export.json'));
    server.on('GET', '/api/properties', page([{ id: ID, name: 'one' }]));
    const result = await cli(['props', 'list', '-o', 'json', '--out', join(dir, 'export.json')], env());
    expectCleanFailure(result, 2);
    expect(result.stderr).toMatch(/is a symbolic link to .*precious\.txt; refusing to write through it/);
    expect(readFileSync(join(dir, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(lstatSync(join(dir, 'export.json')).isSymbolicLink()).toBe(true);
  });
});

describe('item 10: messages that say what to do', () => {
  let expired: HostileServer;
  let expiredCa: string;
  beforeAll(async () => {
    // A certificate that expired yesterday, trusted through --ca-file: trust cannot fix it.
    const day = 24 * 60 * 60 * 1000;
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(Date.now() - 30 * day),
      notAfterDate: new Date(Date.now() - day),
      extensions: [
        { name: 'basicConstraints', cA: true },
        { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
      ],
    });
    expired = await startHostile({ tls: { key: pems.private, cert: pems.cert } });
    expiredCa = join(tempDir('appraisal-hostile-ca-'), 'ca.pem');
    writeFileSync(expiredCa, pems.cert);
  });
  afterAll(() => expired.close());

  const noKey = () => env({ APPRAISAL_API_KEY: undefined });

  it('--api-key-file on a missing path: exit 2, "no such file" and what to do (not ENOENT)', async () => {
    const result = await cli(['props', 'list', '--api-key-file', 'no-such-key-file'], noKey());
    expectCleanFailure(result, 2);
    expect(result.stderr).toMatch(/^error: cannot read --api-key-file no-such-key-file: no such file$/m);
    expect(result.stderr).toMatch(/^hint: check the path/m);
  });

  it('--api-key-file on a directory: exit 2, "is a directory" (not "too large to be an API key")', async () => {
    const result = await cli(['props', 'list', '--api-key-file', tempDir('appraisal-hostile-keydir-')], noKey());
    expectCleanFailure(result, 2);
    expect(result.stderr).toMatch(/is a directory/);
    expect(result.stderr).not.toMatch(/too large/);
  });

  it('http:// to an HTTPS port: exit 3 with a hint to use https://', async () => {
    const result = await cli(['props', 'list', '--base-url', `http://127.0.0.1:${expired.port}`], env());
    expectCleanFailure(result, 3);
    expect(result.stderr).toContain(`hint: if the service speaks HTTPS on this port, use https://127.0.0.1:${expired.port}`);
  });

  it('an expired certificate with --ca-file given: exit 3, the hint says renew, not "trust its CA"', async () => {
    const result = await cli(['props', 'list', '--base-url', expired.url, '--ca-file', expiredCa], env());
    expectCleanFailure(result, 3);
    expect(result.stderr).toMatch(/has expired \(CERT_HAS_EXPIRED\)/);
    expect(result.stderr).toMatch(/^hint: .*must be renewed/m);
    expect(result.stderr).not.toMatch(/trust its CA/);
  });

  it('a base URL that already ends in /api: exit 2, before any request, with the URL to use', async () => {
    const before = server.requests.length;
    const result = await cli(['props', 'list', '--base-url', `${server.url}/api/`], env());
    expectCleanFailure(result, 2);
    expect(result.stderr).toContain(`hint: drop the /api: ${server.url}`);
    expect(server.requests.length).toBe(before);
  });

  it('a proxy answering 407: exit 3 naming the proxy and how to give it credentials', async () => {
    const proxy = createNetServer((socket) => {
      socket.once('data', () =>
        socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n'),
      );
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const result = await cli(['props', 'list', '--base-url', 'https://service.invalid'], env({ HTTPS_PROXY: proxyUrl }));
      expectCleanFailure(result, 3);
      expect(result.stderr).toMatch(/wants credentials \(407 Proxy Authentication Required\)/);
      expect(result.stderr).toMatch(/^hint: put them in the proxy URL/m);
    } finally {
      proxy.close();
    }
  });

  it('-H with a control character or a non-ASCII value: exit 2 naming it (not exit 3, not "content-length")', async () => {
    const control = await cli(['api', 'GET', '/api/x', '-H', 'x-note: a\u0001b'], env());
    expectCleanFailure(control, 2);
    expect(control.stderr).toMatch(/-H x-note: the value holds a control character \(U\+0001\)/);
    const nonAscii = await cli(['api', 'GET', '/api/x', '-H', 'x-note: café'], env());
    expectCleanFailure(nonAscii, 2);
    expect(nonAscii.stderr).not.toMatch(/content-length/i);
  });

  it('APPRAISAL_BASE_URL="" counts as unset', async () => {
    const result = await cli(['props', 'list'], env({ APPRAISAL_BASE_URL: '' }));
    expectCleanFailure(result, 2);
    expect(result.stderr).toMatch(/^error: no base URL: no profile is set up/m);
  });

  it('a watch state file with a mistyped mark is refused with exit 2 before any request', async () => {
    const state = join(tempDir('appraisal-hostile-state-'), 'props.state');
    writeFileSync(
      state,
      JSON.stringify({ version: 1, family: 'props', scope: null, mark: '1', latest: '1', polls: 1, lastFullPoll: 1, seen: { a: '1' } }),
    );
    const before = server.requests.length;
    const result = await cli(['watch', 'props', '--once', '--state-file', state], env());
    expectCleanFailure(result, 2);
    expect(result.stderr).toMatch(/is not a usable watch state: mark must be null or an ISO 8601 timestamp with a zone \(got "1"\)/);
    expect(server.requests.length).toBe(before);
  });

  it('a watch state file with seen: {} beside its mark, or of the wrong shape, is refused with exit 2 before any request', async () => {
    const state = join(tempDir('appraisal-hostile-state-'), 'props.state');
    const valid = {
      version: 1,
      family: 'props',
      scope: null,
      mark: '2026-03-01T12:00:00Z',
      latest: '2026-03-01T12:00:00Z',
      polls: 4,
      lastFullPoll: 1,
      seen: { a: '2026-03-01T12:00:00Z' },
    };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ seen: {} }, /seen is empty while mark\/latest say records were seen \(truncated or edited\?\)/],
      [{ seen: [['a', '2026-03-01T12:00:00Z']] }, /seen must be an object of id → version/],
      [{ seen: { a: 7 } }, /the version of "a" in seen must be a non-empty string \(got 7\)/],
      [{ polls: '4' }, /polls must be a whole number, 0 or more \(got "4"\)/],
      [{ mark: undefined }, /mark must be null or an ISO 8601 timestamp with a zone \(it is missing\)/],
    ];
    const before = server.requests.length;
    for (const [change, message] of cases) {
      writeFileSync(state, JSON.stringify({ ...valid, ...change }));
      const result = await cli(['watch', 'props', '--once', '--state-file', state], env());
      expectCleanFailure(result, 2);
      expect(result.stderr).toMatch(new RegExp(`^error: state file .*props\\.state is not a usable watch state: ${message.source}`, 'm'));
      expect(result.stderr).toMatch(/^hint: delete it, or pass another --state-file/m);
    }
    expect(server.requests.length).toBe(before);
  });
});
