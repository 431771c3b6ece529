// watch --forward-to survives kill -9 (issue 36): a spawned watch is killed the moment the receiver
// has a request (before the state was saved, and again after it was saved with events still
// waiting); the same command run again delivers every event not acknowledged, with the webhook-id it
// had, in order, and none twice among those acknowledged. Spawned: a killed process is what is tested.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { runCli, startCli } from '../helpers/spawn.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, verify, type Receiver } from './watch-forward-receiver.js';

const RECORDS = 5;
let mock: MockServer;
let env: Record<string, string | undefined>;
const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

beforeAll(async () => {
  // Slow pages, one record each: the poll is still running when the first event is sent.
  mock = await startMock({ records: RECORDS, seed: 5, latencyMs: 60 });
  env = isolatedEnv({ ...mock.env, APPRAISAL_WEBHOOK_SECRET: secret });
});
afterAll(async () => {
  await mock?.stop();
});

function args(dir: string, target: Receiver): string[] {
  return [
    'watch',
    'props',
    '--state-file',
    join(dir, 'props.state'),
    '--emit-existing',
    '--once',
    '--page-size',
    '1',
    '--concurrency',
    '1',
    '--forward-to',
    target.url,
    '--retry-for',
    '30s',
  ];
}

async function rerun(dir: string, target: Receiver, killedId: string): Promise<void> {
  target.script = () => 200;
  const before = target.requests.length;
  // The same command again, as a process too (as after a reboot or a supervisor's restart).
  const again = await runCli(args(dir, target), { env, cwd: dir });
  expect(again.code, again.stderr).toBe(0);
  const delivered = target.requests.slice(before);
  // The event the killed run had sent goes again first, with its id; then the rest, each once.
  expect(delivered[0]!.id).toBe(killedId);
  const ids = delivered.map((request) => request.id);
  expect(new Set(ids).size).toBe(RECORDS);
  expect(ids).toHaveLength(RECORDS);
  for (const request of target.requests) expect(verify(request, secret)).toBeUndefined();
  for (const output of [again.stdout, again.stderr]) expect(output).not.toContain(secret.slice(6));
}

describe('watch --forward-to and kill -9', () => {
  it('killed when the receiver got a request, before the state was saved: the same id again, all delivered', async () => {
    const dir = tempDir('forward-crash-');
    const target = await startReceiver();
    try {
      let killed = false;
      const cli = startCli(args(dir, target), { env, cwd: dir });
      target.script = () => {
        cli.child.kill('SIGKILL');
        killed = true;
        return 'hang';
      };
      const outcome = await cli.result;
      expect(killed).toBe(true);
      expect(outcome.signal).toBe('SIGKILL');
      expect(target.requests).toHaveLength(1);
      // The poll had not ended: no state was saved.
      expect(existsSync(join(dir, 'props.state'))).toBe(false);
      await rerun(dir, target, target.requests[0]!.id);
    } finally {
      await target.close();
    }
  });

  it('killed after the state was saved with events waiting: the outbox delivers them, same ids, in order', async () => {
    const dir = tempDir('forward-crash-');
    const target = await startReceiver({ script: () => 'hang' });
    try {
      const cli = startCli(args(dir, target), { env, cwd: dir });
      // The poll ended (state saved) while the first event's request hangs.
      await waitFor(() => existsSync(join(dir, 'props.state')), 'the state file');
      await waitFor(() => target.requests.length === 1, 'the first request');
      cli.child.kill('SIGKILL');
      await cli.result;
      const outbox = readFileSync(join(dir, 'props.state.outbox'), 'utf8');
      const kept = (outbox.match(/^A (\S+)/gm) ?? []).map((line) => line.slice(2));
      expect(kept).toHaveLength(RECORDS);
      expect(kept[0]).toBe(target.requests[0]!.id);
      const before = target.requests.length;
      await rerun(dir, target, target.requests[0]!.id);
      expect(target.requests.slice(before).map((request) => request.id)).toEqual(kept);
    } finally {
      await target.close();
    }
  });

  it('killed while --redelivering: the dead letters wait in the outbox, none lost, and go on the next run', async () => {
    const dir = tempDir('forward-crash-');
    const target = await startReceiver({ script: () => 400 });
    try {
      const refused = await runCli(args(dir, target), { env, cwd: dir });
      expect(refused.code, refused.stderr).toBe(24);
      const deadLetters = join(dir, 'props.state.dead-letter.ndjson');
      const letters = readFileSync(deadLetters, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { webhookId: string }).webhookId);
      expect(letters).toHaveLength(RECORDS);

      // Killed at the first redelivered request: the letters were moved into the outbox before it.
      let killed = false;
      const cli = startCli([...args(dir, target), '--redeliver'], { env, cwd: dir });
      target.script = () => {
        cli.child.kill('SIGKILL');
        killed = true;
        return 'hang';
      };
      expect((await cli.result).signal).toBe('SIGKILL');
      expect(killed).toBe(true);
      expect(existsSync(deadLetters)).toBe(false);
      const outbox = readFileSync(join(dir, 'props.state.outbox'), 'utf8');
      expect((outbox.match(/^A (\S+)/gm) ?? []).map((line) => line.slice(2)).slice(-RECORDS)).toEqual(letters);

      target.script = () => 200;
      const before = target.requests.length;
      const again = await runCli(args(dir, target), { env, cwd: dir });
      expect(again.code, again.stderr).toBe(0);
      // Every dead letter delivered, in their order, the killed one first again; nothing else sent.
      expect(target.requests.slice(before).map((request) => request.id)).toEqual(letters);
      expect(readFileSync(join(dir, 'props.state.outbox'), 'utf8')).toBe('appraisal-watch-outbox 1\n');
    } finally {
      await target.close();
    }
  });
});
