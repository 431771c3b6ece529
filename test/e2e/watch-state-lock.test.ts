// Issue 26 §15 (and §1 for the state file): two `watch --exec` runs on one state file (overlapping
// cron runs) both ran the hook for the same event. Now the run lock beside the state file is held for
// the whole watch: a second run is refused at once (exit 2, naming the pid) and runs no hook; once the
// first ends the lock is gone. A FIFO planted as the state file is refused, never waited on.
// Runs in process (test/helpers/run.ts) against the mock.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InterruptedError } from '../../src/core/errors.js';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  mock = await startMock({ records: 5 });
  env = { ...isolatedEnv(), ...mock.env };
});
afterAll(async () => {
  await mock?.stop();
});

describe('one watch per state file', () => {
  it('a second watch --exec on the same state file is refused while the first runs (exit 2), and runs no hook', async () => {
    const dir = tempDir('watch-lock-');
    const state = join(dir, 'props.state');
    const lock = join(dir, '.props.state.lock');
    const hooks = join(dir, 'hooks.log');
    const args = ['watch', 'props', '--state-file', state, '--interval', '1m', '--emit-existing', '--exec', `cat >> ${hooks}`];
    const stop = new AbortController();
    const first = run(args, { env, cwd: dir, signal: stop.signal });
    // The first run has its baseline (its hook ran for the existing records) and holds the lock.
    const lines = () => (existsSync(hooks) ? readFileSync(hooks, 'utf8').split('\n').filter(Boolean).length : 0);
    await vi.waitFor(() => expect(lines() === 5 && existsSync(lock)).toBe(true), { timeout: 30_000 });
    const handled = readFileSync(hooks, 'utf8');

    const second = await run(args, { env, cwd: dir });
    expect(second.code, second.stderr).toBe(2);
    const errors = second.stderr.split('\n').filter((line) => line.startsWith('error: '));
    expect(errors).toEqual([`error: state file ${state} is in use by another appraisal watch (pid ${process.pid})`]);
    expect(second.stderr).toContain(`hint: one watch per state file: wait for it to finish; if none is running, remove ${lock}`);
    expect(readFileSync(hooks, 'utf8')).toBe(handled);

    stop.abort(new InterruptedError());
    expect((await first).code).toBe(130);
    expect(existsSync(lock)).toBe(false);
  });

  it('a FIFO planted as the state file is refused at once (exit 2)', async () => {
    const dir = tempDir('watch-lock-');
    const state = join(dir, 'props.state');
    execFileSync('mkfifo', [state]);
    const result = await run(['watch', 'props', '--state-file', state, '--once'], { env, cwd: dir });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`error: ${state} is a FIFO (named pipe), not a regular file; refusing to use it`);
    expect(existsSync(join(dir, '.props.state.lock'))).toBe(false);
  });
});
