// `appraisal keys lease` against `appraisal mock`. Where the CLI's own process matters (the signals
// it passes on, kill -9 of it, the whole journey through the bundle) it is spawned; the rest runs
// in process (test/helpers/run.ts), still running real children. Children are small `node -e`
// scripts that report through files and wait for files, so the test waits on conditions, never on time.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { run } from '../helpers/run.js';
import { BIN, runCli, startCli, type CliResult } from '../helpers/spawn.js';
import { mockAdmin, waitFor, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { processGone } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let admin: MockAdmin;

beforeAll(async () => {
  mock = await startMock({ records: 5 });
  admin = mockAdmin(mock);
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});
beforeEach(async () => {
  await admin.clearFaults();
});

/** A private config dir, the mock's base URL and CA, its admin key, a local (non-production) target. */
function leaseEnv(extra: Record<string, string | undefined> = {}) {
  return isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'local', ...extra });
}

/** `node -e SCRIPT`: a child whose behaviour the test controls. */
const node = (script: string) => [process.execPath, '-e', script];

/** The lease prefix the CLI announced on stderr. */
function leasePrefix(stderr: string): string {
  const match = /Leased key (apk_[A-Za-z0-9]{8})/.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return match![1]!;
}

interface KeyRecord {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

async function leaseRecord(prefix: string, on: MockAdmin = admin): Promise<KeyRecord> {
  const row = await on.keyByPrefix(prefix);
  expect(row, `key ${prefix} on the service`).toBeDefined();
  const answer = await on.call('GET', `/api/keys/${row!.id}`);
  return ((answer.body as { data?: KeyRecord }).data ?? answer.body) as KeyRecord;
}

/** The key lives at most the TTL: expiresAt − createdAt, both on the service's clock. */
function expectLifetimeAtMost(record: KeyRecord, ttlMs: number): void {
  const lifetime = Date.parse(record.expiresAt!) - Date.parse(record.createdAt);
  expect(lifetime).toBeLessThanOrEqual(ttlMs);
  // The Date header has whole seconds; the request takes a moment.
  expect(lifetime).toBeGreaterThan(ttlMs - 5_000);
}

function expectNoSecretIn(result: Pick<CliResult, 'stdout' | 'stderr'>, ...secrets: string[]): void {
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

describe('keys lease: the key and its end', () => {
  it('runs CMD with a new key of exactly the scopes given, named as a lease, and revokes it when CMD succeeds', async () => {
    const dir = tempDir('lease-ok-');
    const secretFile = join(dir, 'secret');
    const script = `require('fs').writeFileSync(${JSON.stringify(secretFile)}, process.env.APPRAISAL_API_KEY); console.log('job ran with ' + process.env.APPRAISAL_API_KEY + ' at ' + process.env.APPRAISAL_BASE_URL); console.error('to stderr')`;
    const result = await runCli(
      ['keys', 'lease', '--scope', 'properties:read', '--scope', 'files:read', '--ttl', '10m', '--', ...node(script)],
      {
        env: leaseEnv(),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const prefix = leasePrefix(result.stderr);
    const secret = readFileSync(secretFile, 'utf8');
    expect(secret).toMatch(new RegExp(`^${prefix}_[A-Za-z0-9]{32}$`));
    expect(secret).not.toBe(mock.adminKey);
    // stdout is the child's, masked; stderr has the child's line too.
    expect(result.stdout).toBe(`job ran with ${prefix}… at ${mock.baseUrl}\n`);
    expect(result.stderr).toContain('to stderr\n');
    expect(result.stderr).toContain(`Revoked lease key ${prefix}`);
    expectNoSecretIn(result, secret, mock.adminKey);
    const record = await leaseRecord(prefix);
    expect(record.scopes).toEqual(['properties:read', 'files:read']);
    expect(record.name).toMatch(/^lease: .*node.*, host \S+, pid \d+$/);
    expect(record.revokedAt).not.toBeNull();
    expectLifetimeAtMost(record, 10 * 60_000);
    expect(await admin.statusWith(secret)).toBe(401);
  });

  it("exits with CMD's own code when it fails, and revokes the key all the same", async () => {
    const result = await run(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--', ...node('process.exit(3)')], {
      env: leaseEnv(),
    });
    expect(result.code, result.stderr).toBe(3);
    const prefix = leasePrefix(result.stderr);
    expect(result.stderr).toMatch(/^error: `.*` exited with code 3; its lease key apk_\w{8} was revoked$/m);
    expect((await leaseRecord(prefix)).revokedAt).not.toBeNull();
  });

  it('a CMD that cannot start exits 127, as a shell says it, with the lease revoked', async () => {
    const result = await run(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--', 'no-such-command-anywhere'], {
      env: leaseEnv(),
    });
    expect(result.code, result.stderr).toBe(127);
    expect((await leaseRecord(leasePrefix(result.stderr))).revokedAt).not.toBeNull();
  });

  it('a revoke that fails: exit 23, one line with the prefix and the exact command that revokes it — which works', async () => {
    await admin.queueFault({ path: '/api/keys/*', method: 'DELETE', fault: 'status=503', count: 1 });
    const env = leaseEnv();
    const result = await run(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--retries', '0', '--', ...node('0')], { env });
    expect(result.code, result.stderr).toBe(23);
    expect(exitProblems(result)).toEqual([]);
    const prefix = leasePrefix(result.stderr);
    const errorLine = result.stderr.split('\n').find((line) => line.startsWith('error:'))!;
    expect(errorLine).toContain(`lease key ${prefix} could not be revoked`);
    const command = /revoke it now with `([^`]+)`/.exec(errorLine)![1]!;
    expect(command).toBe(`appraisal keys revoke ${prefix} --yes`);
    expect((await leaseRecord(prefix)).revokedAt).toBeNull();
    // The command it names revokes it.
    const revoke = await run(command.split(' ').slice(1), { env });
    expect(revoke.code, revoke.stderr).toBe(0);
    expect((await leaseRecord(prefix)).revokedAt).not.toBeNull();
  });

  it('refuses a lease wider than the creating key and names the scope the service refused', async () => {
    const creator = await admin.createKey(['properties:read', 'keys:admin'], 'narrow creator');
    const result = await run(['keys', 'lease', '--scope', 'properties:read', '--scope', 'files:write', '--ttl', '5m', '--', ...node('0')], {
      env: leaseEnv({ APPRAISAL_API_KEY: creator.secret }),
    });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toMatch(
      /^error: the service refused to lease files:write: key apk_\w{8} \(the one this command uses\) does not hold it/m,
    );
    expect(result.stderr).not.toContain('Leased key');
  });

  it('counts the expiry from the service clock: a service 2 h ahead still gets a key that lives the TTL', async () => {
    // A mock of its own: its timestamps never go back once its clock went ahead.
    const ahead = await startMock({ records: 1 });
    const aheadAdmin = mockAdmin(ahead);
    try {
      await aheadAdmin.call('POST', '/__mock/clock', { offsetSeconds: 7200 });
      const result = await run(['keys', 'lease', '--scope', 'api:read', '--ttl', '10m', '--', ...node('0')], {
        env: isolatedEnv({ ...ahead.env, APPRAISAL_ENVIRONMENT: 'local' }),
      });
      expect(result.code, result.stderr).toBe(0);
      const record = await leaseRecord(leasePrefix(result.stderr), aheadAdmin);
      expect(Date.parse(record.createdAt)).toBeGreaterThan(Date.now() + 3_600_000);
      expectLifetimeAtMost(record, 10 * 60_000);
    } finally {
      await aheadAdmin.close();
      await ahead.stop();
    }
  });

  it('a production target: refused without --yes where nobody can confirm; created with --yes', async () => {
    const refused = await run(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--', ...node('0')], {
      env: leaseEnv({ APPRAISAL_ENVIRONMENT: 'production' }),
    });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/^!! PRODUCTION/m);
    expect(refused.stderr).toMatch(/^error: create a key with api:read for 5m to run .*: confirmation needed; pass --yes/m);
    expect(refused.stderr).not.toContain('Leased key');
    const confirmed = await run(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--yes', '--', ...node('0')], {
      env: leaseEnv({ APPRAISAL_ENVIRONMENT: 'production' }),
    });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect((await leaseRecord(leasePrefix(confirmed.stderr))).revokedAt).not.toBeNull();
  });
});

describe('keys lease: scopes derived from the appraisal command it runs', () => {
  const cases: Array<[string[], string[]]> = [
    [['props', 'list', '--max-items', '1', '-o', 'json'], ['properties:read']],
    [['keys', 'list', '-o', 'json'], ['keys:admin']],
    [['clients', 'delete', '00000000-0000-4000-8000-000000000000', '--yes'], ['clients:delete']],
  ];
  for (const [args, scopes] of cases) {
    it(`appraisal ${args.slice(0, 2).join(' ')} → ${scopes.join(', ')}`, async () => {
      const result = await run(['keys', 'lease', '--ttl', '5m', '--', process.execPath, 'bin/appraisal.js', ...args], {
        env: leaseEnv(),
      });
      const prefix = leasePrefix(result.stderr);
      expect(result.stderr).toContain(`from what \`appraisal ${args.slice(0, 2).join(' ')}\` calls`);
      expect((await leaseRecord(prefix)).scopes).toEqual(scopes);
      // The command ran with the lease (a 404 for the made-up client id is its own exit, passed on).
      expect(result.stderr).not.toMatch(/403|401/);
    });
  }

  it('auth status inside a lease does not warn that the lease expires (it is made to)', async () => {
    const result = await run(
      [
        'keys',
        'lease',
        '--ttl',
        '5m',
        '--scope',
        'properties:read',
        '--',
        process.execPath,
        'bin/appraisal.js',
        'auth',
        'status',
        '-o',
        'json',
      ],
      {
        env: leaseEnv(),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const prefix = leasePrefix(result.stderr);
    expect(result.stdout).toContain(prefix);
    expect(result.stderr).not.toMatch(/expires in|rotate it/);
  });

  it('CMD that is not an appraisal command needs --scope', async () => {
    const result = await run(['keys', 'lease', '--ttl', '5m', '--', 'make', 'report'], { env: leaseEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: keys lease needs --scope SCOPE/m);
  });
});

describe('keys lease: the child process', () => {
  it("the child's environment holds the lease and not the CLI's own key (/proc/PID/environ)", async () => {
    const dir = tempDir('lease-env-');
    const pidFile = join(dir, 'pid');
    const go = join(dir, 'go');
    const script = `const fs = require('fs'); fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(go)})) { clearInterval(t); } }, 20);`;
    const env = leaseEnv({ MY_COPY_OF_THE_KEY: mock.adminKey });
    const running = startCli(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--', ...node(script)], { env });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 'the child to start');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    writeFileSync(go, '');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    const prefix = leasePrefix(result.stderr);
    const leased = environ.filter((entry) => entry.startsWith('APPRAISAL_API_KEY='));
    expect(leased).toHaveLength(1);
    expect(leased[0]).toMatch(new RegExp(`^APPRAISAL_API_KEY=${prefix}_[A-Za-z0-9]{32}$`));
    expect(environ.join('\n')).not.toContain(mock.adminKey);
    expect(environ.some((entry) => entry.startsWith('MY_COPY_OF_THE_KEY='))).toBe(false);
    expect(environ).toContain(`APPRAISAL_BASE_URL=${mock.baseUrl}`);
    expect(environ).toContain(`APPRAISAL_CA_FILE=${mock.caFile}`);
  });

  // What the child finds in its parent's (the CLI's) initial environment block, and the parent's pid.
  const readParentEnviron = (out: string) =>
    `const fs = require('fs'); fs.writeFileSync(${JSON.stringify(out)}, JSON.stringify({ ppid: process.ppid, environ: fs.readFileSync('/proc/' + process.ppid + '/environ', 'latin1') }));`;
  const parentSeen = (out: string) => JSON.parse(readFileSync(out, 'utf8')) as { ppid: number; environ: string };

  it("a child reading /proc/$PPID/environ (the CLI's own) does not find the pipeline's key: the CLI cleared it", async () => {
    const out = join(tempDir('lease-ppid-'), 'seen.json');
    const result = await runCli(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--', ...node(readParentEnviron(out))], {
      env: leaseEnv(),
    });
    expect(result.code, result.stderr).toBe(0);
    const { ppid, environ } = parentSeen(out);
    // The parent is the CLI that minted the lease (its key is named after its pid)...
    expect((await leaseRecord(leasePrefix(result.stderr))).name).toMatch(new RegExp(`, pid ${ppid}$`));
    // ...its block was read (the base URL is there), and the key's value is gone from it.
    expect(environ.split('\0')).toContain(`APPRAISAL_BASE_URL=${mock.baseUrl}`);
    expect(environ).not.toContain(mock.adminKey);
    expect(environ).not.toContain(mock.adminKey.slice(13));
  });

  it('--api-key-file /dev/fd/3: the pipeline key comes through a pipe and is in no environment at all', async () => {
    const out = join(tempDir('lease-fd3-'), 'seen.json');
    // As a CI step would: `appraisal --api-key-file /dev/fd/3 … 3< <(read-the-secret)`; here the secret is
    // read from the shell's stdin, so it is in no argument and no environment either.
    const result = await runCli(
      ['--api-key-file', '/dev/fd/3', 'keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--', ...node(readParentEnviron(out))],
      {
        env: leaseEnv({ APPRAISAL_API_KEY: undefined }),
        program: ['bash', '-c', 'exec "$0" "$@" 3< <(head -n 1)', process.execPath, BIN],
        stdin: `${mock.adminKey}\n`,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect((await leaseRecord(leasePrefix(result.stderr))).revokedAt).not.toBeNull();
    const { environ } = parentSeen(out);
    expect(environ.split('\0')).toContain(`APPRAISAL_BASE_URL=${mock.baseUrl}`);
    expect(environ).not.toContain('APPRAISAL_API_KEY=');
    expect(environ).not.toContain(mock.adminKey.slice(13));
  });

  it('--api-key-file /dev/fd/3 also reads a socket there (what a Node parent passes), once', async () => {
    const status = await runCli(['--api-key-file', '/dev/fd/3', 'auth', 'status', '-o', 'json'], {
      env: leaseEnv({ APPRAISAL_API_KEY: undefined }),
      fd3: `${mock.adminKey}\n`,
    });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ source: 'api-key-file', keyPrefix: mock.adminKey.slice(0, 12) });
  });

  it('masks the secret split across many small writes, keeping the rest of the line; --no-mask passes it through', async () => {
    // One byte per write: the secret reaches the CLI in many chunks.
    const script = `const fs = require('fs'); const text = 'before ' + process.env.APPRAISAL_API_KEY + ' after\\nsecond line\\n'; for (const c of text) fs.writeSync(1, c);`;
    const masked = await run(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--', ...node(script)], { env: leaseEnv() });
    expect(masked.code, masked.stderr).toBe(0);
    const prefix = leasePrefix(masked.stderr);
    expect(masked.stdout).toBe(`before ${prefix}… after\nsecond line\n`);
    const raw = await run(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--no-mask', '--', ...node(script)], {
      env: leaseEnv(),
    });
    expect(raw.code, raw.stderr).toBe(0);
    expect(raw.stdout).toMatch(new RegExp(`^before ${leasePrefix(raw.stderr)}_[A-Za-z0-9]{32} after\\nsecond line\\n$`));
  });

  it('masks the key the lease was made with too, should CMD find it where this user keeps it', async () => {
    const dir = tempDir('lease-parent-');
    const kept = join(dir, 'kept.key');
    writeFileSync(kept, mock.adminKey);
    const script = `process.stdout.write('parent ' + require('fs').readFileSync(${JSON.stringify(kept)}, 'utf8') + ' end\\n');`;
    const result = await run(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--', ...node(script)], { env: leaseEnv() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`parent ${mock.adminKey.slice(0, 12)}… end\n`);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} to the CLI is passed to CMD; CMD's exit is the CLI's, and the key is revoked`, async () => {
      const dir = tempDir('lease-signal-');
      const ready = join(dir, 'ready');
      const script = `process.on('${signal}', () => { console.log('got ${signal}'); process.exit(${signal === 'SIGINT' ? 130 : 143}); }); require('fs').writeFileSync(${JSON.stringify(ready)}, ''); setInterval(() => {}, 1000);`;
      const running = startCli(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--', ...node(script)], { env: leaseEnv() });
      await waitFor(() => existsSync(ready), 'the child to be ready');
      running.child.kill(signal);
      const result = await running.result;
      expect(result.code, result.stderr).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(result.stdout).toBe(`got ${signal}\n`);
      const prefix = leasePrefix(result.stderr);
      expect(result.stderr).toContain(`Revoked lease key ${prefix}`);
      expect((await leaseRecord(prefix)).revokedAt).not.toBeNull();
    });
  }

  it('a CMD that ignores SIGTERM is killed after the grace period (exit 137), then the key is revoked', async () => {
    const dir = tempDir('lease-stubborn-');
    const ready = join(dir, 'ready');
    const pidFile = join(dir, 'pid');
    const script = `process.on('SIGTERM', () => console.log('ignoring SIGTERM')); const fs = require('fs'); fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); fs.writeFileSync(${JSON.stringify(ready)}, ''); setInterval(() => {}, 1000);`;
    const running = startCli(['keys', 'lease', '--scope', 'api:read', '--ttl', '5m', '--', ...node(script)], { env: leaseEnv() });
    await waitFor(() => existsSync(ready), 'the child to be ready');
    const started = Date.now();
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(137);
    // Bounded: SIGKILL came after the grace period (5 s), not never.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(result.stdout).toBe('ignoring SIGTERM\n');
    expect(processGone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    expect((await leaseRecord(leasePrefix(result.stderr))).revokedAt).not.toBeNull();
  });

  it('kill -9 of the CLI leaves the key to its TTL; keys audit reports the lease that outlived its process, keys list marks it', async () => {
    const dir = tempDir('lease-kill9-');
    const pidFile = join(dir, 'pid');
    const script = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    const env = leaseEnv();
    const running = startCli(['keys', 'lease', '--scope', 'api:read', '--ttl', '3m', '--', ...node(script)], { env });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 'the child to start');
    const prefix = leasePrefix(running.stderr());
    running.child.kill('SIGKILL');
    await running.result;
    // The child has a process group of its own: it outlives the CLI. Stop it for the test.
    const childPid = Number(readFileSync(pidFile, 'utf8'));
    process.kill(childPid, 'SIGKILL');
    await waitFor(() => processGone(childPid), 'the child to end');

    const record = await leaseRecord(prefix);
    expect(record.revokedAt).toBeNull();
    expectLifetimeAtMost(record, 3 * 60_000);

    // What reads the service afterwards is no process under test: in process.
    const audit = await run(['keys', 'audit', '-o', 'json'], { env });
    expect(audit.code, audit.stderr).toBe(0);
    const audited = (JSON.parse(audit.stdout) as Array<{ prefix: string; severity: string; findings: string[] }>).find(
      (key) => key.prefix === prefix,
    )!;
    expect(audited.severity).toBe('warning');
    expect(audited.findings[0]).toMatch(
      /^warning: lease outlived its process \(pid \d+ on \S+ is gone\); revoke it: appraisal keys revoke apk_\w{8} --yes$/,
    );

    const list = await run(['keys', 'list', '-o', 'json'], { env });
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout) as Array<{ prefix: string; lease: boolean }>;
    expect(listed.find((key) => key.prefix === prefix)?.lease).toBe(true);
    expect(listed.find((key) => key.prefix === mock.adminKey.slice(0, 12))?.lease).toBe(false);
  });
});

// The documented line with the pipeline key on file descriptor 3 (README.md, docs/KEYS.md,
// docs/CI.md), run with its arguments as the docs write them: examples.test.ts cannot run it in
// process (a descriptor of a shell's redirect), so a line that is refused (`./nightly-report.sh` is
// no appraisal command: without --scope it needs one) fails here.
const DOCS = ['README.md', 'docs/KEYS.md', 'docs/CI.md'];
const MARK = 'appraisal --api-key-file /dev/fd/3 keys lease';

/** Each documented line: where, and the arguments after `appraisal` up to the fd 3 redirect. */
function documentedLines(): Array<{ where: string; args: string[] }> {
  return DOCS.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((text, index) => {
        const at = text.indexOf(MARK);
        if (at === -1) return [];
        const command = text.slice(at, text.indexOf(' 3<', at));
        return [{ where: `${file}:${index + 1}`, args: command.split(/\s+/).slice(1) }];
      }),
  );
}

describe('the documented keys lease line with the pipeline key on fd 3', () => {
  const lines = documentedLines();

  it('is in the README, docs/KEYS.md and docs/CI.md', () => {
    expect(lines.map((line) => line.where.split(':')[0])).toEqual(expect.arrayContaining(DOCS));
  });

  it.each(lines)('$where runs the job with a lease and revokes it', async ({ args }) => {
    const dir = tempDir('lease-docs-');
    // The job the docs name: it records that it ran with a key of the service in its environment.
    const job = join(dir, 'nightly-report.sh');
    writeFileSync(job, '#!/bin/sh\nprintf "%s" "${APPRAISAL_API_KEY%_*}" > ran.txt\n');
    chmodSync(job, 0o755);
    // The pipeline key on fd 3 from a pipe, as `3< <(vault kv get …)` gives it; here read from stdin.
    const result = await runCli(args, {
      env: isolatedEnv({ ...mock.env, APPRAISAL_API_KEY: undefined, APPRAISAL_ENVIRONMENT: 'local' }),
      program: ['bash', '-c', 'exec "$0" "$@" 3< <(head -n 1)', process.execPath, BIN],
      stdin: `${mock.adminKey}\n`,
      cwd: dir,
    });
    expect(result.code, result.stderr).toBe(0);
    const prefix = /Leased key (apk_[A-Za-z0-9]{8})/.exec(result.stderr)?.[1];
    expect(prefix, result.stderr).toBeDefined();
    expect(readFileSync(join(dir, 'ran.txt'), 'utf8')).toBe(prefix);
    const record = await admin.keyByPrefix(prefix!);
    expect(record?.scopes).toEqual(['properties:read']);
    expect(record?.revokedAt).not.toBeNull();
  });
});
