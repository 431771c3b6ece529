// The parts of watch --forward-to, in process: signatures as the `standardwebhooks` library makes and
// checks them, the secret format, the retry schedule, the outbox log (torn lines, compaction, ids
// just done not taken twice, bodies read back from disk) and the forwarder's ordering with a fake
// client (never two of one record at once, nothing passes the oldest event with one in flight) and
// a clock that moves an attempt at a time (when --retry-for runs out for events behind a failing one).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboundAnswer, OutboundClient } from '../../../../src/core/http/outbound.js';
import { deadLetterFile } from '../../../../src/commands/watch/forward/dead-letter.js';
import { Forwarder } from '../../../../src/commands/watch/forward/forwarder.js';
import { Outbox } from '../../../../src/commands/watch/forward/outbox.js';
import { retryDelay, verdictOf } from '../../../../src/commands/watch/forward/schedule.js';
import { newSecret, secretKey } from '../../../../src/commands/watch/forward/secrets.js';
import { webhookHeaders, webhookId } from '../../../../src/commands/watch/forward/signature.js';
import { tempDir } from '../../../helpers/temp.js';
import { waitFor } from '../../../helpers/wait.js';

const answer = (status: number, retryAfterMs?: number): OutboundAnswer => ({ kind: 'answer', status, retryAfterMs, location: undefined });

describe('signatures', () => {
  it('are what standardwebhooks signs, one entry per secret, each verifying alone', () => {
    const secrets = [newSecret(), newSecret()];
    const body = '{"type":"created","family":"props","id":"é東京","record":{"n":1},"observedAt":"2026-01-01T00:00:00.000Z"}';
    const now = Date.now();
    const headers = webhookHeaders(
      secrets.map((secret) => secretKey(secret)!),
      'msg_1',
      now,
      body,
    );
    const signatures = headers['webhook-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    for (const [i, secret] of secrets.entries()) {
      const hook = new Webhook(secret);
      expect(hook.sign('msg_1', new Date(Math.floor(now / 1000) * 1000), body)).toBe(signatures[i]);
      expect(() => hook.verify(body, headers)).not.toThrow();
    }
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now / 1000)));
  });

  it('ids: the same change the same id; another type, version, record or poll another', () => {
    const change = { family: 'props', scope: null, id: 'a', type: 'updated', version: '2026-01-01T00:00:00Z', poll: 3 };
    expect(webhookId(change)).toBe(webhookId({ ...change }));
    const others = [{ type: 'created' }, { version: 'x' }, { id: 'b' }, { poll: 4 }, { scope: 'client:1' }].map((diff) =>
      webhookId({ ...change, ...diff }),
    );
    expect(new Set([webhookId(change), ...others]).size).toBe(6);
  });

  it('secrets: whsec_ and the base64 of 16 to 256 bytes; anything else is no secret', () => {
    expect(secretKey(newSecret())).toHaveLength(32);
    for (const bad of [
      '',
      'whsec_',
      'whsec_abc',
      `whsec_${Buffer.alloc(8).toString('base64')}`,
      `sk_${Buffer.alloc(32).toString('base64')}`,
    ]) {
      expect(secretKey(bad), bad).toBeUndefined();
    }
  });
});

describe('the retry schedule', () => {
  it('retries 408/409/425/429/5xx and failures, dead-letters other 4xx and 3xx, stops on 410 and TLS failures', () => {
    expect([200, 204, 299].map((s) => verdictOf(answer(s)))).toEqual(['delivered', 'delivered', 'delivered']);
    expect([408, 409, 425, 429, 500, 503].map((s) => verdictOf(answer(s)))).toEqual(Array(6).fill('retry'));
    expect([301, 302, 400, 401, 404, 422].map((s) => verdictOf(answer(s)))).toEqual(Array(6).fill('dead-letter'));
    expect(verdictOf(answer(410))).toBe('gone');
    expect(verdictOf({ kind: 'failure', reason: 'timed out', message: 'x', retryable: true, tls: undefined })).toBe('retry');
    // A TLS failure does not pass by waiting; other failures the shared client calls final (a DNS name
    // not found) are retried, as before.
    for (const tls of ['untrusted', 'name', 'validity', 'handshake'] as const) {
      expect(verdictOf({ kind: 'failure', reason: 'a TLS error', message: 'x', retryable: false, tls })).toBe('tls');
    }
    expect(verdictOf({ kind: 'failure', reason: 'a DNS failure', message: 'x', retryable: false, tls: undefined })).toBe('retry');
  });

  it('grows with jitter, capped, scaled to a short --retry-for; Retry-After wins', () => {
    const day = 24 * 3_600_000;
    expect(retryDelay(1, undefined, day, () => 0)).toBe(500);
    expect(retryDelay(1, undefined, day, () => 1)).toBe(1_000);
    expect(retryDelay(4, undefined, day, () => 1)).toBe(8_000);
    expect(retryDelay(30, undefined, day, () => 1)).toBe(300_000);
    expect(retryDelay(1, undefined, 10_000, () => 1)).toBe(100);
    expect(retryDelay(30, undefined, 10_000, () => 1)).toBe(1_000);
    expect(retryDelay(2, 7_000, day, () => 1)).toBe(7_000);
  });
});

describe('the outbox', () => {
  it('keeps what waits across a reopen, drops a torn last line, and does not take a just-done id twice', async () => {
    const path = join(tempDir('outbox-'), 'props.state.outbox');
    const box = await Outbox.open(path);
    const a = box.add('msg_a', 'rec 1', '{"n":"a"}')!;
    const b = box.add('msg_b', 'rec-2', '{"n":"b"}')!;
    box.add('msg_c', 'rec-3', '{"n":"c"}');
    expect(box.add('msg_a', 'rec 1', '{"n":"a2"}')).toBeUndefined();
    a.firstAttemptAt = 1_000;
    a.attempts = 2;
    box.tried(a);
    box.done(b);
    await box.close();
    appendFileSync(path, 'A msg_torn rec-4 {"n":'); // a crash in the middle of a write

    const again = await Outbox.open(path);
    expect([...again.entries()].map((e) => [e.id, e.key, e.attempts, e.firstAttemptAt])).toEqual([
      ['msg_a', 'rec 1', 2, 1_000],
      ['msg_c', 'rec-3', 0, undefined],
    ]);
    // Done before any state save: the poll that finds it again must not send it again.
    expect(again.add('msg_b', 'rec-2', '{"n":"b"}')).toBeUndefined();
    const c = [...again.entries()][1]!;
    c.body = undefined; // read back from the file
    expect(await again.body(c)).toBe('{"n":"c"}');
    await again.stateSaved();
    // After a state save, a done id is a new event again (a later change can have it only by its poll).
    expect(again.add('msg_b', 'rec-2', '{"n":"b"}')).toBeDefined();
    for (const entry of [...again.entries()]) again.done(entry);
    await again.stateSaved();
    await again.close();
    expect(readFileSync(path, 'utf8')).toBe('appraisal-watch-outbox 1\n');
  });

  it("keeps when an event's --retry-for window opened across reopens and their compaction", async () => {
    const path = join(tempDir('outbox-'), 'props.state.outbox');
    const box = await Outbox.open(path);
    const a = box.add('msg_a', 'rec-1', '{"n":"a"}')!;
    Object.assign(a, { firstAttemptAt: 2_000, retryFrom: 1_500, attempts: 1 });
    box.tried(a);
    const b = box.add('msg_b', 'rec-2', '{"n":"b"}')!;
    Object.assign(b, { firstAttemptAt: 3_000, attempts: 2 });
    box.tried(b);
    await box.close();
    expect(readFileSync(path, 'utf8')).toContain('T msg_a 2000 1 1500\nA msg_b');
    for (let reopen = 0; reopen < 2; reopen++) {
      const again = await Outbox.open(path);
      expect([...again.entries()].map((e) => [e.id, e.firstAttemptAt, e.retryFrom, e.attempts])).toEqual([
        ['msg_a', 2_000, 1_500, 1],
        ['msg_b', 3_000, undefined, 2],
      ]);
      await again.close();
    }
    writeFileSync(path, 'appraisal-watch-outbox 1\nA msg_a rec-1 {}\nT msg_a 2000 1 soon\n', { mode: 0o600 });
    await expect(Outbox.open(path)).rejects.toThrow(`the outbox ${path} is damaged at line 3: an attempt line with an unreadable window`);
  });

  it('takes a done id again when it is requeued (a dead letter redelivered), and keeps it waiting across reopens', async () => {
    const path = join(tempDir('outbox-'), 'props.state.outbox');
    const box = await Outbox.open(path);
    box.done(box.add('msg_a', 'rec-1', '{"n":"a"}')!);
    expect(box.add('msg_a', 'rec-1', '{"n":"a"}')).toBeUndefined();
    const requeued = box.requeue('msg_a', 'rec-1', '{"n":"a"}')!;
    expect(requeued).toMatchObject({ id: 'msg_a', attempts: 0, firstAttemptAt: undefined });
    expect(box.requeue('msg_a', 'rec-1', '{"n":"a"}')).toBeUndefined(); // waiting already
    await box.close();
    // The log holds A, D, then A again: it waits, and still after the reopen's compaction.
    for (let reopen = 0; reopen < 2; reopen++) {
      const again = await Outbox.open(path);
      expect([...again.entries()].map((e) => e.id)).toEqual(['msg_a']);
      await again.close();
    }
  });

  it('refuses a damaged log with what to do (exit 2), never half-reads it', async () => {
    const path = join(tempDir('outbox-'), 'x.outbox');
    writeFileSync(path, 'appraisal-watch-outbox 1\nZ what\n', { mode: 0o600 });
    await expect(Outbox.open(path)).rejects.toThrow(`the outbox ${path} is damaged at line 2: unknown line "Z what"`);
    writeFileSync(path, 'something else\n', { mode: 0o600 });
    await expect(Outbox.open(path)).rejects.toThrow('it is not an appraisal watch outbox');
  });
});

describe('the dead-letter file', () => {
  it('starts a letter on a line of its own after a last line a crash cut short', async () => {
    const path = join(tempDir('dead-'), 'dead.ndjson');
    writeFileSync(path, '{"webhookId":"msg_', { mode: 0o600 });
    const file = deadLetterFile(path);
    const letter = { webhookId: 'msg_a', status: 400, error: '400', attempts: 1, firstAttemptAt: 'x', deadLetteredAt: 'y' };
    await file.write(letter, '{"id":"a"}');
    await file.write({ ...letter, webhookId: 'msg_b' }, '{"id":"b"}');
    await file.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines[0]).toBe('{"webhookId":"msg_');
    expect(lines.slice(1).map((line) => (line === '' ? '' : (JSON.parse(line) as { webhookId: string }).webhookId))).toEqual([
      'msg_a',
      'msg_b',
      '',
    ]);
  });
});

/** A client whose answers the test scripts, recording what is in flight. */
function fakeClient(script: (id: string, n: number) => OutboundAnswer | Promise<OutboundAnswer>) {
  const sent: string[] = [];
  const inFlight = new Set<string>();
  let most = 0;
  const client: OutboundClient = {
    async post(_url, body, headers) {
      const id = headers['webhook-id']!;
      sent.push(id);
      inFlight.add(body);
      most = Math.max(most, inFlight.size);
      const keyOf = (text: string) => (JSON.parse(text) as { key: string }).key;
      const sameRecord = [...inFlight].filter((other) => keyOf(other) === keyOf(body));
      expect(sameRecord, 'two events of one record in flight').toHaveLength(1);
      try {
        await new Promise((resolve) => setTimeout(resolve, 2));
        return await script(id, sent.length - 1);
      } finally {
        inFlight.delete(body);
      }
    },
    close: async () => {},
  };
  return { client, sent, most: () => most };
}

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((file) => file.close()));
});

async function forwarder(
  client: OutboundClient,
  options: { concurrency: number; retryForMs?: number; print?: (lines: string) => Promise<void>; now?: () => number },
) {
  const dir = tempDir('forwarder-');
  const outbox = await Outbox.open(join(dir, 'outbox'));
  const deadLetters = deadLetterFile(join(dir, 'dead.ndjson'));
  // Closed after the test, as the watch closes them (start.ts): a handle left to the GC is a warning.
  opened.push(outbox, deadLetters);
  const delivered: string[] = [];
  const dead: string[] = [];
  const errors: unknown[] = [];
  const secret = newSecret();
  const forward = new Forwarder({
    outbox,
    deadLetters,
    client,
    url: new URL('http://127.0.0.1:9/x'),
    keys: [secretKey(secret)!],
    retryForMs: options.retryForMs ?? 60_000,
    concurrency: options.concurrency,
    now: options.now ?? (() => Date.now()),
    random: () => 0,
    signal: new AbortController().signal,
    report: { delivered: (e) => delivered.push(e.id), retrying: () => {}, deadLettered: (e) => dead.push(e.id) },
    print: options.print ?? (async () => {}),
    onFatal: (error) => errors.push(error),
  });
  return { forward, delivered, dead, errors, dir, outbox, secret };
}

describe('the forwarder', () => {
  it('prints each delivered event once, in order; while stdout is full no new attempt starts; signed as at its attempt', async () => {
    const { client, sent } = fakeClient(() => answer(200));
    const headers: Array<Record<string, string>> = [];
    const recording: OutboundClient = {
      post: (url, body, h, signal) => (headers.push(h), client.post(url, body, h, signal)),
      close: client.close,
    };
    let release: () => void = () => {};
    const full = new Promise<void>((resolve) => (release = resolve));
    let stdoutFull = true;
    const printed: string[] = [];
    const print = (lines: string) => {
      printed.push(lines);
      return stdoutFull ? full : Promise.resolve();
    };
    const { forward, secret } = await forwarder(recording, { concurrency: 1, print });
    const bodies = [0, 1, 2, 3].map((i) => JSON.stringify({ key: `r${i}` }));
    forward.start();
    for (const [i, body] of bodies.entries()) forward.enqueue(`msg_${i}`, `r${i}`, body);
    // Two lines printed: the second event was delivered and the loop had its turn after it.
    await waitFor(() => printed.join('').split('\n').length > 2, 'two printed lines');
    expect(sent).toEqual(['msg_0', 'msg_1']);
    stdoutFull = false;
    release();
    await forward.drain();
    await forward.stop();
    expect(sent).toEqual(['msg_0', 'msg_1', 'msg_2', 'msg_3']);
    expect(printed.join('')).toBe(bodies.map((body) => `${body}\n`).join(''));
    // Signed ahead of their attempt or not, every request verifies.
    const hook = new Webhook(secret);
    for (const [i, h] of headers.entries()) {
      expect(h['webhook-id']).toBe(`msg_${i}`);
      expect(() => hook.verify(bodies[i]!, h)).not.toThrow();
    }
  });

  it('with --forward-concurrency 3: others go side by side, one record never twice at once nor out of order', async () => {
    const { client, most } = fakeClient(() => answer(200));
    const { forward, delivered } = await forwarder(client, { concurrency: 3 });
    const events = ['r1', 'r2', 'r1', 'r3', 'r1', 'r2', 'r4'].map((key, i) => ({ id: `msg_${i}`, key }));
    forward.start();
    for (const event of events) forward.enqueue(event.id, event.key, JSON.stringify({ key: event.key, i: event.id }));
    await forward.drain();
    await forward.stop();
    expect(delivered.sort()).toEqual(events.map((e) => e.id).sort());
    for (const key of ['r1', 'r2']) {
      const mine = events.filter((e) => e.key === key).map((e) => e.id);
      expect(delivered.filter((id) => mine.includes(id))).toEqual(mine);
    }
    expect(most()).toBeGreaterThan(1);
    expect(most()).toBeLessThanOrEqual(3);
  });

  it('one at a time: a failing event holds the others back until it is delivered; --retry-for spent: dead letter', async () => {
    const { client, sent } = fakeClient((id, n) => (id === 'msg_0' && n < 2 ? answer(503) : answer(200)));
    const { forward, delivered } = await forwarder(client, { concurrency: 1, retryForMs: 5_000 });
    forward.start();
    for (const i of [0, 1, 2]) forward.enqueue(`msg_${i}`, `r${i}`, JSON.stringify({ key: `r${i}` }));
    await forward.drain();
    expect(sent).toEqual(['msg_0', 'msg_0', 'msg_0', 'msg_1', 'msg_2']);
    expect(delivered).toEqual(['msg_0', 'msg_1', 'msg_2']);
    await forward.stop();

    const failing = fakeClient(() => answer(500));
    const spent = await forwarder(failing.client, { concurrency: 1, retryForMs: 300 });
    spent.forward.start();
    spent.forward.enqueue('msg_x', 'r', JSON.stringify({ key: 'r' }));
    await spent.forward.drain();
    await spent.forward.stop();
    expect(spent.dead).toEqual(['msg_x']);
    expect(failing.sent.length).toBeGreaterThan(1);
    const letter = JSON.parse(readFileSync(join(spent.dir, 'dead.ndjson'), 'utf8')) as { status: number; error: string; attempts: number };
    expect(letter).toMatchObject({ status: 500, error: '500 (still failing when --retry-for ran out)', attempts: failing.sent.length });
    expect(spent.forward.deadLetteredInRun).toBe(1);
  });

  it("while events are retried, the summary says why: the latest failure, the receiver's path masked", async () => {
    const failures: OutboundAnswer[] = [
      answer(503),
      {
        kind: 'failure',
        reason: 'connection refused',
        message: 'POST /x: cannot connect to http://127.0.0.1:9: connection refused',
        retryable: true,
        tls: undefined,
      },
    ];
    for (const [failure, words] of [
      [failures[0]!, '503'],
      [failures[1]!, 'cannot connect to http://127.0.0.1:9: connection refused'],
    ] as const) {
      const { client } = fakeClient(() => failure);
      const { forward } = await forwarder(client, { concurrency: 1 });
      forward.start();
      forward.enqueue('msg_0', 'r0', JSON.stringify({ key: 'r0' }));
      forward.enqueue('msg_1', 'r1', JSON.stringify({ key: 'r1' }));
      let line: string | undefined;
      await waitFor(() => (line = forward.summary())?.includes('retrying 1') === true, 'an event retried');
      expect(line).toBe(`forwarded 0, retrying 1, dead-lettered 0 (1 more waiting); last failure: ${words}`);
      await forward.stop();
    }
  });

  it('a receiver down for longer than --retry-for: what waited behind the first event gets one attempt, not a window each', async () => {
    // The clock moves 100 ms an attempt (the waits between attempts are shorter), so what is tried
    // when follows from the attempts alone: --retry-for 1000 is ten attempts' time.
    let clock = 0;
    const attempts = new Map<string, number>();
    const later: { forward?: Forwarder } = {};
    const client: OutboundClient = {
      async post(_url, _body, headers) {
        const id = headers['webhook-id']!;
        attempts.set(id, (attempts.get(id) ?? 0) + 1);
        clock += 100;
        // Found while the receiver is down (its sixth failure, at 500): a window of its own from then.
        if (clock === 500) later.forward!.enqueue('msg_2', 'r2', JSON.stringify({ key: 'r2' }));
        return answer(503);
      },
      close: async () => {},
    };
    const made = await forwarder(client, { concurrency: 1, retryForMs: 1_000, now: () => clock });
    const forward = (later.forward = made.forward);
    forward.start();
    forward.enqueue('msg_0', 'r0', JSON.stringify({ key: 'r0' }));
    forward.enqueue('msg_1', 'r1', JSON.stringify({ key: 'r1' }));
    await waitFor(() => made.dead.length === 3, 'three dead letters');
    await forward.stop();
    expect(made.dead).toEqual(['msg_0', 'msg_1', 'msg_2']);
    // msg_0 from its first attempt (0) to 1000; msg_1, queued at 0 and first tried at 1100, waited on
    // the failing receiver since 0: one attempt; msg_2 from 500: tried at 1200, 1300, 1400 and 1500.
    expect(Object.fromEntries(attempts)).toEqual({ msg_0: 11, msg_1: 1, msg_2: 4 });
    // The dead letters say when each was first tried; msg_1 and msg_2 retried from earlier.
    const letters = readFileSync(join(made.dir, 'dead.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { webhookId: string; firstAttemptAt: string; attempts: number });
    expect(letters.map((letter) => [letter.webhookId, Date.parse(letter.firstAttemptAt), letter.attempts])).toEqual([
      ['msg_0', 0, 11],
      ['msg_1', 1_100, 1],
      ['msg_2', 1_200, 4],
    ]);
  });

  it('a receiver down for longer than --retry-for: the first event is tried to the end of its window, then each behind once', async () => {
    // Time is virtual and moves only to the forwarder's next retry (its own backoff, jitter at 0), once
    // the attempt before has settled: when each attempt is made follows from the schedule alone.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 });
    try {
      const tried = new Map<string, number[]>();
      const client: OutboundClient = {
        async post(_url, _body, headers) {
          const id = headers['webhook-id']!;
          tried.set(id, [...(tried.get(id) ?? []), Date.now()]);
          return answer(500);
        },
        close: async () => {},
      };
      const made = await forwarder(client, { concurrency: 1, retryForMs: 1_000, now: () => Date.now() });
      made.forward.start();
      for (const i of [0, 1, 2, 3]) made.forward.enqueue(`msg_${i}`, `r${i}`, JSON.stringify({ key: `r${i}` }));
      const giveUp = performance.now() + 20_000;
      while (made.dead.length < 4 && performance.now() < giveUp) {
        await new Promise((resolve) => setImmediate(resolve));
        if (vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
      }
      await made.forward.stop();
      expect(made.dead).toEqual(['msg_0', 'msg_1', 'msg_2', 'msg_3']);
      // Backoff 5, 10, 20, 40, then 50 ms: the attempt after the one at 975 would be past the window,
      // so it is made at its end, 1000 (before, msg_0 was given up at 975, and msg_1 had the 25 ms left:
      // three attempts, msg_2 two).
      expect(tried.get('msg_0')!.slice(-3)).toEqual([925, 975, 1_000]);
      expect([1, 2, 3].map((i) => tried.get(`msg_${i}`))).toEqual([[1_000], [1_000], [1_000]]);
      const letters = readFileSync(join(made.dir, 'dead.ndjson'), 'utf8').trim().split('\n');
      expect(letters.map((line) => (JSON.parse(line) as { attempts: number }).attempts)).toEqual([tried.get('msg_0')!.length, 1, 1, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a receiver that answered again: the next failing event has a whole --retry-for window of its own', async () => {
    let clock = 0;
    const attempts = new Map<string, number>();
    const client: OutboundClient = {
      async post(_url, _body, headers) {
        const id = headers['webhook-id']!;
        const n = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, n);
        clock += 100;
        return answer(id === 'msg_0' && n === 3 ? 200 : 503);
      },
      close: async () => {},
    };
    const made = await forwarder(client, { concurrency: 1, retryForMs: 1_000, now: () => clock });
    made.forward.start();
    made.forward.enqueue('msg_0', 'r0', JSON.stringify({ key: 'r0' }));
    made.forward.enqueue('msg_1', 'r1', JSON.stringify({ key: 'r1' }));
    await waitFor(() => made.dead.length === 1, 'a dead letter');
    await made.forward.stop();
    expect(made.delivered).toEqual(['msg_0']);
    // msg_1 first tried at 300, after msg_0 was delivered: from 300 to 1300.
    expect(Object.fromEntries(attempts)).toEqual({ msg_0: 3, msg_1: 11 });
  });
});
