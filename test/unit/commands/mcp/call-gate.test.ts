// The bound on tool calls: so many run at once, the next wait in order, beyond the accepted number a
// call is refused at once (and never run).
import { describe, expect, it } from 'vitest';
import { CallGate } from '../../../../src/commands/mcp/call-gate.js';

describe('the tool-call gate', () => {
  it('runs at most N at once, in the order they came, and refuses beyond the accepted number', async () => {
    const gate = new CallGate(2, 5);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const call = (n: number) => async () => {
      started.push(n);
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => finish.push(resolve));
      running -= 1;
      return n;
    };
    const calls = Array.from({ length: 8 }, (_, n) => gate.run(call(n)));
    expect(calls.map((promise) => promise !== undefined)).toEqual([true, true, true, true, true, false, false, false]);
    const answered: number[] = [];
    for (const promise of calls.slice(0, 5)) void promise!.then((n) => answered.push(n));
    // Let each started call reach its wait, then let the oldest finish, until all five are answered.
    while (answered.length < 5) {
      await new Promise((resolve) => setImmediate(resolve));
      finish.shift()?.();
    }
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(answered).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    // Once answered, the room is there again.
    const later = gate.run(async () => 'again');
    await expect(later).resolves.toBe('again');
  });
});
