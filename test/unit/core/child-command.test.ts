// The one runner for a user's command (watch --exec, keys rotate --deliver): real shells, real
// process groups. Waits are on conditions (a line the command prints, a process gone), never on time.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTERRUPT_GRACE_MS, runChildCommand, type ChildCommand } from '../../../src/core/child-command.js';
import { processGone } from '../../helpers/processes.js';
import { tempDir } from '../../helpers/temp.js';

afterEach(() => {
  vi.useRealTimers();
});

function run(command: string, extra: Partial<ChildCommand> = {}) {
  const lines: string[] = [];
  const outcome = runChildCommand({
    command,
    input: '',
    env: { PATH: process.env.PATH },
    cwd: process.cwd(),
    output: (line) => lines.push(line),
    ...extra,
  });
  return { lines, outcome };
}

describe('runChildCommand', () => {
  it('runs through the shell with the input on stdin and the given env; its output comes back line by line', async () => {
    const { lines, outcome } = run('read line; echo "got $APPRAISAL_EVENT_ID: $line"; echo oops >&2; printf "no newline"; exit 0', {
      input: '{"id":"p1"}\n',
      env: { PATH: process.env.PATH, APPRAISAL_EVENT_ID: 'p1' },
    });
    expect(await outcome).toEqual({ ok: true });
    expect(lines).toContain('got p1: {"id":"p1"}');
    expect(lines).toContain('oops');
    expect(lines).toContain('no newline');
  });

  it('reports the exit code of a failing command, even one that never reads its stdin', async () => {
    const { outcome } = run('exit 7', { input: 'x'.repeat(1 << 20) });
    expect(await outcome).toMatchObject({ ok: false, reason: 'exited with code 7', code: 7, timedOut: false, interrupted: false });
  });

  it('at the deadline kills everything the command started (a pipeline and a background job)', async () => {
    const dir = tempDir('child-command-');
    const { outcome } = run('sleep 60 & echo $! > bg.pid; sleep 60 | sleep 60', { cwd: dir, timeoutMs: 1500 });
    expect(await outcome).toMatchObject({ ok: false, reason: 'timed out after 1.5s', timedOut: true, signal: 'SIGKILL' });
    const background = Number(readFileSync(join(dir, 'bg.pid'), 'utf8'));
    await vi.waitFor(() => expect(processGone(background)).toBe(true));
  });

  it('on Ctrl-C (its signal) sends the group SIGINT, as a terminal would, and lets the command finish cleanly', async () => {
    const controller = new AbortController();
    const { lines, outcome } = run("trap 'echo cleaned up; exit 130' INT; echo ready; while :; do sleep 1; done", {
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(lines).toContain('ready'));
    controller.abort();
    expect(await outcome).toMatchObject({ ok: false, reason: 'was interrupted', code: 130, interrupted: true });
    expect(lines).toContain('cleaned up');
  });

  it('kills a command that ignores the interrupt once the grace period is over', async () => {
    const controller = new AbortController();
    const { lines, outcome } = run("trap '' INT; echo ready; sleep 60", { signal: controller.signal });
    await vi.waitFor(() => expect(lines).toContain('ready'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    controller.abort();
    vi.advanceTimersByTime(INTERRUPT_GRACE_MS);
    expect(await outcome).toMatchObject({ ok: false, reason: 'was interrupted', signal: 'SIGKILL', interrupted: true });
  });

  it('an already interrupted run does not start its command', async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = join(tempDir('appraisal-child-'), 'started');
    const { outcome } = run(`touch ${marker}; sleep 60`, { signal: controller.signal });
    expect(await outcome).toMatchObject({ ok: false, interrupted: true, reason: 'was interrupted' });
    expect(existsSync(marker)).toBe(false);
  });
});
