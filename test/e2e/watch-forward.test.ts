// watch --forward-to (issue 36) against `appraisal mock` and a receiver of the test's own that
// verifies every request with the `standardwebhooks` library: signed, fresh, one id per event that
// stays the same across retries; 500s and hangs retried, a receiver that is down waited for, 400 and
// redirects dead-lettered, 410 stops the watch, the second of two overlapping runs refused. Nothing
// secret (the webhook secret, the API key) in any output or request. In process (test/helpers/run.ts);
// kill -9 is in watch-forward-crash.test.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run, start, type RunResult } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { freePort, startReceiver, verify, type Receiver } from './watch-forward-receiver.js';
import { changesTo } from './watch-support.js';

const RECORDS = 5;
let mock: MockServer;
let env: Record<string, string | undefined>;
const receivers: Receiver[] = [];
/** Every run's output, checked for secrets after each test. */
const outputs: RunResult[] = [];
let secretsInPlay: string[] = [];

beforeAll(async () => {
  mock = await startMock({ records: RECORDS, seed: 11 });
  env = isolatedEnv(mock.env);
});
afterAll(async () => {
  await mock?.stop();
});
afterEach(async () => {
  // Nothing secret anywhere: not the webhook secrets, not the API key; the receiver never got the key.
  const secrets = [...secretsInPlay.flatMap((secret) => [secret, secret.slice('whsec_'.length)]), mock.adminKey];
  for (const output of outputs) for (const secret of secrets) expect(output.stdout + output.stderr).not.toContain(secret);
  for (const receiver of receivers) {
    for (const request of receiver.requests) {
      expect(request.headers['x-api-key']).toBeUndefined();
      expect(request.headers.authorization).toBeUndefined();
      expect(JSON.stringify(request.headers) + request.body).not.toContain(mock.adminKey);
    }
  }
  outputs.length = 0;
  secretsInPlay = [];
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(options: Parameters<typeof startReceiver>[0] = {}): Promise<Receiver> {
  const started = await startReceiver(options);
  receivers.push(started);
  return started;
}

async function watch(args: string[], dir: string, signal?: AbortSignal): Promise<RunResult> {
  const result = await run(['watch', 'props', '--state-file', join(dir, 'props.state'), ...args], { env, cwd: dir, signal });
  outputs.push(result);
  return result;
}

function secretOf(dir: string, name = 'props.state.webhook-secret'): string[] {
  const secrets = readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean);
  secretsInPlay.push(...secrets);
  return secrets;
}

/** Every request verified with every secret, timestamps fresh. */
function expectAllVerified(target: Receiver): void {
  expect(target.requests.length).toBeGreaterThan(0);
  for (const request of target.requests) {
    expect(
      target.secrets.map((secret) => verify(request, secret)),
      request.id,
    ).toEqual(target.secrets.map(() => undefined));
    expect(Math.abs(request.timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(request.id).toMatch(/^msg_[0-9a-f]{32}$/);
  }
}

/** The files under `dir` this process holds open (Linux: /proc/self/fd). */
function openFilesUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(join('/proc/self/fd', fd));
      return target.startsWith(`${dir}/`) ? [target] : [];
    } catch {
      return []; // closed meanwhile (the descriptor of readdir itself)
    }
  });
}

const distinct = (ids: string[]) => ids.filter((id, i) => ids.indexOf(id) === i);

describe('watch --forward-to', () => {
  it('delivers every event signed, byte for byte the line watch prints, and makes the secret file once (0600)', async () => {
    const dir = tempDir('forward-');
    const target = await receiver();
    const result = await watch(['--emit-existing', '--once', '--forward-to', target.url], dir);
    expect(result.code, result.stderr).toBe(0);
    const secretFile = join(dir, 'props.state.webhook-secret');
    target.secrets = secretOf(dir);
    expect(target.secrets).toHaveLength(1);
    expect(target.secrets[0]).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const { statSync } = await import('node:fs');
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(result.stderr).toContain(`created ${secretFile} with a new webhook secret`);
    expectAllVerified(target);
    expect(target.requests).toHaveLength(RECORDS);
    expect(distinct(target.requests.map((r) => r.id))).toHaveLength(RECORDS);
    // The body is the line watch prints, and watch printed each delivered event.
    expect(result.stdout).toBe(target.requests.map((r) => `${r.body}\n`).join(''));
    for (const request of target.requests) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^appraisal-cli\/\d+\.\d+\.\d+/);
      expect(JSON.parse(request.body)).toMatchObject({ type: 'created', family: 'props' });
    }
    expect(result.stderr).toContain(`forwarded ${RECORDS}, retrying 0, dead-lettered 0`);
    // Nothing waits: the outbox is back to its header; no dead letters were written.
    expect(readFileSync(join(dir, 'props.state.outbox'), 'utf8')).toBe('appraisal-watch-outbox 1\n');
    expect(existsSync(join(dir, 'props.state.dead-letter.ndjson'))).toBe(false);

    // The next run uses the same secret, says nothing about making one, and has nothing to send.
    const again = await watch(['--once', '--forward-to', target.url], dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('created');
    expect(target.requests).toHaveLength(RECORDS);
  });

  it('two secrets in the file: every request carries both signatures, each valid on its own', async () => {
    const dir = tempDir('forward-');
    const secrets = ['whsec_' + Buffer.alloc(32, 1).toString('base64'), 'whsec_' + Buffer.alloc(24, 2).toString('base64')];
    secretsInPlay.push(...secrets);
    writeFileSync(join(dir, 'hooks.secret'), `${secrets.join('\n')}\n`, { mode: 0o600 });
    const target = await receiver({ secrets: [secrets[0]!] });
    const result = await watch(['--emit-existing', '--once', '--forward-to', target.url, '--forward-secret-file', 'hooks.secret'], dir);
    expect(result.code, result.stderr).toBe(0);
    expectAllVerified(target);
    for (const request of target.requests) {
      expect(request.signatures).toHaveLength(2);
      expect(verify(request, secrets[1]!)).toBeUndefined();
    }
  });

  it('500 twice, then 200: retried with the same webhook-id, fresh timestamps, in order', async () => {
    const dir = tempDir('forward-');
    const target = await receiver({ script: ({ n }) => (n < 2 ? 500 : 200) });
    const result = await watch(['--emit-existing', '--once', '--forward-to', target.url, '--retry-for', '10s', '-v'], dir);
    expect(result.code, result.stderr).toBe(0);
    target.secrets = secretOf(dir);
    expectAllVerified(target);
    const ids = target.requests.map((r) => r.id);
    expect(ids.slice(0, 3)).toEqual([ids[0], ids[0], ids[0]]);
    expect(target.requests.map((r) => r.answer)).toEqual([500, 500, ...Array(RECORDS).fill(200)]);
    expect(distinct(ids)).toHaveLength(RECORDS);
    // Delivered in the order detected: stdout's order is the receiver's.
    expect(result.stdout.split('\n').filter(Boolean)).toEqual(target.delivered().map((r) => r.body));
    expect(result.stderr).toMatch(/attempt 1 of msg_\w+ failed \(500\)/);
    expect(result.stderr).toMatch(/delivered created props \S+ \(msg_\w+\): 200 after 3 attempt\(s\)/);
  });

  it('a receiver that hangs past --forward-timeout: the attempt is cut and retried with the same id', async () => {
    const dir = tempDir('forward-');
    const target = await receiver({ script: ({ n }) => (n === 0 ? 'hang' : 200) });
    const result = await watch(
      ['--emit-existing', '--once', '--forward-to', target.url, '--forward-timeout', '300ms', '--retry-for', '10s'],
      dir,
    );
    expect(result.code, result.stderr).toBe(0);
    target.secrets = secretOf(dir);
    expectAllVerified(target);
    expect(target.requests[1]!.id).toBe(target.requests[0]!.id);
    expect(target.delivered()).toHaveLength(RECORDS);
  });

  it('a receiver that is down: events wait in the outbox, in order, and go once it is back', async () => {
    const dir = tempDir('forward-');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks`;
    const running = watch(['--emit-existing', '--once', '--forward-to', url, '--retry-for', '30s'], dir);
    const outbox = join(dir, 'props.state.outbox');
    // Refused at least once (the attempt is written down), and every event kept on disk.
    await waitFor(() => existsSync(outbox) && /^T /m.test(readFileSync(outbox, 'utf8')), 'a failed attempt in the outbox');
    await waitFor(() => (readFileSync(outbox, 'utf8').match(/^A /gm) ?? []).length === RECORDS, 'every event in the outbox');
    const kept = (readFileSync(outbox, 'utf8').match(/^A (\S+)/gm) ?? []).map((line) => line.slice(2));
    const target = await receiver({ port });
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    target.secrets = secretOf(dir);
    expectAllVerified(target);
    expect(target.delivered().map((r) => r.id)).toEqual(kept);
  });

  it('a receiver that cannot be reached: the -v lines and the dead letters say why, never with its path', async () => {
    const dir = tempDir('forward-');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks/T0k3nInThePath?sig=t0k3nInTheQuery`;
    const result = await watch(['--emit-existing', '--once', '--forward-to', url, '--retry-for', '300ms', '-v'], dir);
    expect(result.code, result.stderr).toBe(24);
    expect(result.stderr).toMatch(/attempt 1 of msg_\w+ failed \(cannot connect to http:\/\/127\.0\.0\.1:\d+: connection refused\)/);
    expect(result.stderr + result.stdout).not.toMatch(/t0k3n/i);
    const letters = readFileSync(join(dir, 'props.state.dead-letter.ndjson'), 'utf8').split('\n').filter(Boolean);
    expect(letters).toHaveLength(RECORDS);
    for (const line of letters) {
      expect(line).not.toMatch(/t0k3n/i);
      expect((JSON.parse(line) as { error: string }).error).toBe(
        `cannot connect to http://127.0.0.1:${port}: connection refused (still failing when --retry-for ran out)`,
      );
    }
  });

  it('on a terminal, the status line is erased before a delivered event is printed', async () => {
    // A mock of its own: the property made here would change what the other tests count.
    const own = await startMock({ records: 1, seed: 12 });
    try {
      const dir = tempDir('forward-');
      const target = await receiver();
      const args = ['--interval', '1s', '--forward-to', `${target.url}/hooks`];
      const running = start(['watch', 'props', '--state-file', join(dir, 'props.state'), ...args], {
        env: isolatedEnv(own.env),
        cwd: dir,
        tty: true,
      });
      // What stderr showed at the moment each stdout chunk arrived: the part after its last erase.
      const shownWithEvent: string[] = [];
      running.stdoutStream.on('data', () => shownWithEvent.push(running.stderr().split('\r\x1b[2K').at(-1)!));
      await waitFor(() => running.stderr().includes('watching properties ·'), 'the status line');
      const created = changesTo(() => own);
      const id = await created.createProperty();
      await waitFor(() => running.stdout().includes(id), 'the delivered event printed');
      running.interrupt();
      const result = await running.result;
      outputs.push(result);
      expect(result.code, result.stderr).toBe(130);
      expect(target.delivered()).toHaveLength(1);
      expect(shownWithEvent.length).toBeGreaterThan(0);
      expect(shownWithEvent.filter((text) => text.includes('watching properties ·'))).toEqual([]);
    } finally {
      await own.stop();
    }
  });

  it("a receiver that stays down: a warning says why at once, and each poll's summary the latest failure", async () => {
    const dir = tempDir('forward-');
    const port = await freePort();
    const args = ['--emit-existing', '--interval', '1s', '--forward-to', `http://127.0.0.1:${port}/hooks/T0k3nInThePath`];
    const running = start(['watch', 'props', '--state-file', join(dir, 'props.state'), ...args], { env, cwd: dir });
    const reason = `cannot connect to http://127.0.0.1:${port}: connection refused`;
    const counts = `forwarded 0, retrying 1, dead-lettered 0 (${RECORDS - 1} more waiting)`;
    await waitFor(() => running.stderr().includes(counts), "a poll's summary while retrying");
    running.interrupt();
    const result = await running.result;
    outputs.push(result);
    expect(result.code, result.stderr).toBe(130);
    const summaries = result.stderr.split('\n').filter((line) => line.startsWith(counts));
    expect(summaries.length).toBeGreaterThan(0);
    for (const line of summaries) expect(line).toBe(`${counts}; last failure: ${reason}`);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: delivering'));
    expect(warnings).toEqual([
      `warning: delivering to http://127.0.0.1:${port}/hooks/… failed (${reason}): retrying each event for up to 24h (--retry-for); they wait in ${join(dir, 'props.state.outbox')}`,
    ]);
    expect(result.stderr).not.toMatch(/t0k3n/i);
  });

  it('400: that event is dead-lettered (event, status, error, attempts), the rest delivered, --once exits 24', async () => {
    const dir = tempDir('forward-');
    const target = await receiver({ script: ({ n }) => (n === 1 ? 400 : 200) });
    // A catch hook's token in the path and the query: messages (and so logs) show neither.
    const url = `${target.url}/T0k3nInThePath?sig=t0k3nInTheQuery`;
    const result = await watch(['--emit-existing', '--once', '--forward-to', url, '-v'], dir);
    expect(result.code, result.stderr).toBe(24);
    const deadLetters = join(dir, 'props.state.dead-letter.ndjson');
    const shown = `http://127.0.0.1:${target.port}/hooks/…`;
    expect(result.stderr).toContain(`events ${shown} does not take are written to ${deadLetters}`);
    expect(result.stderr).toContain(`error: 1 event(s) could not be delivered to ${shown}: they are in ${deadLetters}`);
    expect(result.stderr + result.stdout).not.toMatch(/t0k3n|appraisal\?|T0k3n/i);
    const lines = readFileSync(deadLetters, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const letter = JSON.parse(lines[0]!) as { webhookId: string; status: number; error: string; attempts: number; event: unknown };
    expect(letter).toMatchObject({ webhookId: target.requests[1]!.id, status: 400, error: '400', attempts: 1 });
    // The event, byte for byte as it was sent.
    expect(lines[0]).toContain(`"event":${target.requests[1]!.body}}`);
    expect(target.delivered()).toHaveLength(RECORDS - 1);
    expect(result.stderr).toContain(`forwarded ${RECORDS - 1}, retrying 0, dead-lettered 1`);
  });

  it('--redeliver: once the receiver is fixed, the dead letters go out again with their own ids and bodies; the file is removed', async () => {
    const dir = tempDir('forward-');
    const target = await receiver({ script: ({ n }) => (n < 2 ? 400 : 200) });
    const first = await watch(['--emit-existing', '--once', '--forward-to', target.url], dir);
    expect(first.code, first.stderr).toBe(24);
    expect(first.stderr).toContain('fix the receiver, then run again with --redeliver');
    const deadLetters = join(dir, 'props.state.dead-letter.ndjson');
    const refused = target.requests.slice(0, 2);
    expect(readFileSync(deadLetters, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);

    target.script = () => 200;
    const again = await watch(['--once', '--forward-to', target.url, '--redeliver'], dir);
    expect(again.code, again.stderr).toBe(0);
    target.secrets = secretOf(dir);
    expectAllVerified(target);
    // The same webhook-ids (the receiver's deduplication key) and the bodies byte for byte, in order.
    const redelivered = target.requests.slice(RECORDS);
    expect(redelivered.map((r) => [r.id, r.body])).toEqual(refused.map((r) => [r.id, r.body]));
    expect(again.stdout).toBe(refused.map((r) => `${r.body}\n`).join(''));
    expect(again.stderr).toContain(`redelivering 2 dead-lettered event(s) from ${deadLetters}; the file is removed`);
    expect(again.stderr).toContain('forwarded 2, retrying 0, dead-lettered 0');
    expect(existsSync(deadLetters)).toBe(false);
    expect(readFileSync(join(dir, 'props.state.outbox'), 'utf8')).toBe('appraisal-watch-outbox 1\n');

    const nothing = await watch(['--once', '--forward-to', target.url, '--redeliver'], dir);
    expect(nothing.code, nothing.stderr).toBe(0);
    expect(nothing.stderr).toContain(`no dead letters to redeliver in ${deadLetters}`);
    expect(target.requests).toHaveLength(RECORDS + 2);
  });

  it('--redeliver refuses a file with a line that is not a dead letter of this watch, and changes nothing', async () => {
    const dir = tempDir('forward-');
    const target = await receiver({ script: ({ n }) => (n === 0 ? 400 : 200) });
    expect((await watch(['--emit-existing', '--once', '--forward-to', target.url], dir)).code).toBe(24);
    const deadLetters = join(dir, 'props.state.dead-letter.ndjson');
    const letter = readFileSync(deadLetters, 'utf8');
    target.script = () => 200;
    const sent = target.requests.length;
    const cases: Array<[string, string]> = [
      [`${letter}not json\n`, 'line 2 is not a dead letter of this watch: not JSON'],
      [
        `${letter}${letter.replace('"family":"props"', '"family":"clients"')}`,
        'line 2 is not a dead letter of this watch: an event of clients',
      ],
      [letter.replace(/"webhookId":"msg_[0-9a-f]+"/, '"webhookId":"msg_x y"'), 'line 1 is not a dead letter of this watch: no webhookId'],
    ];
    for (const [content, message] of cases) {
      writeFileSync(deadLetters, content, { mode: 0o600 });
      const result = await watch(['--once', '--forward-to', target.url, '--redeliver'], dir);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('nothing was redelivered');
      expect(readFileSync(deadLetters, 'utf8')).toBe(content);
      expect(target.requests).toHaveLength(sent);
      // The outbox opened before the refusal is closed again (in process: this process's descriptors).
      expect(openFilesUnder(dir)).toEqual([]);
    }
    // A last line cut short (no newline), even one that parses, is refused like the others, naming
    // it: removed with the file, its event was lost without a word unless a crash made it.
    for (const cut of [`${letter}{"webhookId":"msg_`, `${letter}${letter.trimEnd()}`]) {
      writeFileSync(deadLetters, cut, { mode: 0o600 });
      const torn = await watch(['--once', '--forward-to', target.url, '--redeliver'], dir);
      expect(torn.code, torn.stderr).toBe(2);
      expect(torn.stderr.split('\n').filter((line) => line.startsWith('error:'))).toEqual([
        `error: ${deadLetters} line 2 is not a dead letter of this watch: cut short (no newline at its end); nothing was redelivered`,
      ]);
      expect(torn.stderr).toContain('hint: if a watch was killed while writing it, its event still waits in the outbox');
      expect(readFileSync(deadLetters, 'utf8')).toBe(cut);
      expect(target.requests).toHaveLength(sent);
    }
    // That line removed, the rest goes, and the file with it.
    writeFileSync(deadLetters, letter, { mode: 0o600 });
    const fixed = await watch(['--once', '--forward-to', target.url, '--redeliver'], dir);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(target.requests.slice(sent).map((r) => r.body)).toEqual([target.requests[0]!.body]);
    expect(existsSync(deadLetters)).toBe(false);
    // Without --forward-to it means nothing.
    const alone = await watch(['--once', '--redeliver'], dir);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--redeliver applies only with --forward-to URL');
  });

  it('a 301 to elsewhere is not followed: elsewhere gets nothing, the event is dead-lettered, the Location masked', async () => {
    const dir = tempDir('forward-');
    const elsewhere = await receiver();
    // Where a catch hook moved to holds its token: no message and no dead letter shows it.
    const location = `${elsewhere.url}/T0k3nInThePath?sig=t0k3nInTheQuery`;
    const target = await receiver({ script: ({ n }) => (n === 0 ? { status: 301, headers: { location } } : 200) });
    const result = await watch(['--emit-existing', '--once', '--forward-to', target.url], dir);
    expect(result.code, result.stderr).toBe(24);
    expect(elsewhere.requests).toEqual([]);
    const letter = JSON.parse(readFileSync(join(dir, 'props.state.dead-letter.ndjson'), 'utf8')) as { status: number; error: string };
    expect(letter.status).toBe(301);
    expect(letter.error).toBe(`301 redirect to http://127.0.0.1:${elsewhere.port}/…: redirects are not followed`);
    expect(readFileSync(join(dir, 'props.state.dead-letter.ndjson'), 'utf8') + result.stderr).not.toMatch(/t0k3n/i);
  });

  it('410 Gone stops a watch that would run on, with a clear message; the events stay in the outbox', async () => {
    const dir = tempDir('forward-');
    const target = await receiver({ script: () => 410 });
    const result = await watch(['--emit-existing', '--interval', '1h', '--forward-to', target.url], dir);
    expect(result.code, result.stderr).toBe(24);
    expect(result.stderr).toContain(
      `error: the webhook receiver http://127.0.0.1:${target.port}/hooks/… answered 410 Gone (it takes no more events): the watch stopped`,
    );
    expect(target.requests).toHaveLength(1);
    const outbox = readFileSync(join(dir, 'props.state.outbox'), 'utf8');
    expect((outbox.match(/^A /gm) ?? []).length).toBe(RECORDS);
    // The next run (the receiver back) delivers them, the first with the id it had.
    target.script = () => 200;
    const again = await watch(['--once', '--forward-to', target.url], dir);
    expect(again.code, again.stderr).toBe(0);
    expect(target.delivered()[0]!.id).toBe(target.requests[0]!.id);
    expect(target.delivered()).toHaveLength(RECORDS);
  });

  it('two overlapping --once runs on one state file: the second exits 2 (the lock), nothing is delivered twice', async () => {
    const dir = tempDir('forward-');
    // The first request hangs until --forward-timeout cuts it: the first run holds the lock meanwhile.
    const target = await receiver({ script: ({ n }) => (n === 0 ? 'hang' : 200) });
    const args = ['--emit-existing', '--once', '--forward-to', target.url, '--forward-timeout', '1s', '--retry-for', '20s'];
    const first = watch(args, dir);
    await waitFor(() => target.requests.length === 1, 'the first run sending');
    const second = await watch(args, dir);
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toContain('is in use by another appraisal watch');
    expect(target.requests).toHaveLength(1);
    const result = await first;
    expect(result.code, result.stderr).toBe(0);
    const delivered = target.delivered().map((r) => r.id);
    expect(delivered).toHaveLength(RECORDS);
    expect(distinct(delivered)).toEqual(delivered);
  });

  it("--forward-ca-file trusts the receiver's private CA; without it the TLS failure stops the watch, the events kept", async () => {
    // The mock serves HTTPS with a CA of its own: as a receiver it answers POST /hooks with an HTTP
    // status (not a 2xx), which proves the TLS handshake; the API's CA setting is not the receiver's.
    const url = `${mock.baseUrl}/hooks`;
    const trusted = tempDir('forward-');
    const withCa = await watch(
      ['--emit-existing', '--once', '--forward-to', url, '--forward-ca-file', mock.caFile!, '--retry-for', '0'],
      trusted,
    );
    expect(withCa.code, withCa.stderr).toBe(24);
    const letters = readFileSync(join(trusted, 'props.state.dead-letter.ndjson'), 'utf8').split('\n').filter(Boolean);
    expect(letters).toHaveLength(RECORDS);
    for (const line of letters) expect((JSON.parse(line) as { status: number | null }).status).toBeGreaterThanOrEqual(400);

    // Not retried, not dead-lettered (watch-forward-tls.test.ts has the rest).
    const untrusted = tempDir('forward-');
    const without = await watch(['--emit-existing', '--once', '--forward-to', url], untrusted);
    expect(without.code, without.stderr).toBe(24);
    expect(without.stderr).toMatch(/^error: cannot reach the webhook receiver .* securely: the TLS certificate of .* is not trusted/m);
    expect(existsSync(join(untrusted, 'props.state.dead-letter.ndjson'))).toBe(false);
    expect(readFileSync(join(untrusted, 'props.state.outbox'), 'utf8').match(/^A /gm)).toHaveLength(RECORDS);
  });

  it("a secret file others can read, in a path with spaces and a quote: the hint's chmod is one a shell runs as it reads", async () => {
    const dir = tempDir('forward-');
    mkdirSync(join(dir, 'dir with spaces'));
    const file = join(dir, 'dir with spaces', "it's secret");
    const secret = `whsec_${Buffer.alloc(32, 4).toString('base64')}`;
    secretsInPlay.push(secret);
    writeFileSync(file, `${secret}\n`, { mode: 0o644 });
    const target = await receiver();
    const args = ['--emit-existing', '--once', '--forward-to', target.url, '--forward-secret-file', file];
    const open = await watch(args, dir);
    expect(open.code, open.stderr).toBe(2);
    const quoted = `'${dir}/dir with spaces/it'\\''s secret'`;
    expect(open.stderr).toContain(`hint: run \`chmod 600 ${quoted}\` if it is yours, else remove it`);
    // Pasted into a shell, the hint's command fixes that file, and the next run takes it.
    const command = /`(chmod [^`]+)`/.exec(open.stderr)![1]!;
    execFileSync('sh', ['-c', command], { cwd: dir });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await watch(args, dir);
    expect(again.code, again.stderr).toBe(0);
    expect(target.delivered()).toHaveLength(RECORDS);
  });

  it('a --forward-ca-file that is missing or not PEM, or a dead-letter file --redeliver refuses: exit 2 before any file is made', async () => {
    const notPem = join(tempDir('forward-'), 'ca.txt');
    writeFileSync(notPem, 'not a certificate\n');
    const cases: Array<[string[], string, (dir: string) => void]> = [
      [['--forward-ca-file', '/nonexistent/ca.pem'], 'error: cannot read the CA file /nonexistent/ca.pem', () => {}],
      [['--forward-ca-file', notPem], `error: the CA file ${notPem} holds no PEM certificate`, () => {}],
      [
        ['--redeliver'],
        'line 1 is not a dead letter of this watch: not JSON',
        (dir) => writeFileSync(join(dir, 'props.state.dead-letter.ndjson'), 'not json\n', { mode: 0o600 }),
      ],
    ];
    for (const [args, message, prepare] of cases) {
      const dir = tempDir('forward-');
      prepare(dir);
      const before = readdirSync(dir).sort();
      const result = await watch(['--emit-existing', '--forward-to', 'https://hooks.example.com/x', ...args], dir);
      expect(result.code, result.stderr).toBe(2);
      const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
      expect(errors, args.join(' ')).toHaveLength(1);
      expect(errors[0]).toContain(message);
      if (args[0] === '--forward-ca-file') {
        expect(result.stderr).toContain('hint: pass a readable PEM certificate with --forward-ca-file PATH');
        // Checked before the run starts: not even the "watching …" line comes first.
        expect(result.stderr).not.toContain('watching');
      }
      expect(result.stderr).not.toContain('webhook secret');
      expect(readdirSync(dir).sort(), args.join(' ')).toEqual(before);
    }
  });

  it('refuses what cannot be forwarded safely before anything is sent (exit 2)', async () => {
    const dir = tempDir('forward-');
    const cases: Array<[string[], string]> = [
      [['--forward-to', 'http://hooks.example.com/x'], 'plain http:// is allowed only to this machine'],
      [['--forward-to', 'ftp://127.0.0.1/x'], 'must be an https:// URL'],
      [['--forward-to', 'localhost:18080/hook'], 'hint: give the whole URL, scheme first: https://HOST/PATH, or http://HOST/PATH'],
      [['--forward-to', 'https://user:pw@hooks.example.com/x'], 'must not contain a user name or password'],
      [['--retry-for', '1h'], '--retry-for applies only with --forward-to URL'],
      [['--forward-to', 'https://hooks.example.com/x', '--exec', 'cat'], '--exec and --forward-to are alternatives'],
    ];
    for (const [args, message] of cases) {
      const result = await watch(['--once', ...args], dir);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
    const noState = await run(['watch', 'props', '--once', '--emit-existing', '--forward-to', 'https://hooks.example.com/x'], {
      env,
      cwd: dir,
    });
    expect(noState.code).toBe(2);
    expect(noState.stderr).toContain('--forward-to needs --state-file PATH');
    // A secret that is not one: refused, and its text never shown.
    writeFileSync(join(dir, 'bad.secret'), 'not-a-secret-at-all\n', { mode: 0o600 });
    const bad = await watch(['--once', '--forward-to', 'https://hooks.example.com/x', '--forward-secret-file', 'bad.secret'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a whsec_<base64> secret');
    expect(bad.stderr).not.toContain('not-a-secret-at-all');
    // A secret file others can read is refused.
    writeFileSync(join(dir, 'open.secret'), `whsec_${Buffer.alloc(32, 3).toString('base64')}\n`, { mode: 0o644 });
    const open = await watch(['--once', '--forward-to', 'https://hooks.example.com/x', '--forward-secret-file', 'open.secret'], dir);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('can be read by other users');
  });
});
