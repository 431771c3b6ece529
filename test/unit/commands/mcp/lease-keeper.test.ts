// The session's leased key kept alive (commands/mcp/lease-keeper.ts), with the clock in the test's
// hands: replaced a quarter of its life before it expires, the old key revoked once its calls had
// their time, a failed renewal tried again, and every key revoked at the end, timers cancelled.
import { describe, expect, it } from 'vitest';
import { keepLease, renewalLead, RETRY_MS, type KeeperDeps } from '../../../../src/commands/mcp/lease-keeper.js';

interface TestLease {
  secret: string;
  prefix: string;
}

/** A clock that moves only when told, and what the keeper did. */
function harness(failMints = 0) {
  let now = 0;
  let timers: Array<{ at: number; run: () => void }> = [];
  let minted = 0;
  let failures = failMints;
  const revoked: string[] = [];
  const said: string[] = [];
  const deps: KeeperDeps<TestLease> = {
    ttlMs: 3_600_000,
    graceMs: 60_000,
    async mint() {
      if (minted > 0 && failures > 0) {
        failures--;
        throw new Error('503 from the service');
      }
      minted++;
      return { secret: `secret-${minted}`, prefix: `apk_${minted}` };
    },
    async revoke(lease) {
      revoked.push(lease.prefix);
    },
    notice: (text) => said.push(text),
    warn: (text) => said.push(`warning: ${text}`),
    later(ms, run) {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return () => (timers = timers.filter((other) => other !== timer));
    },
  };
  /** Moves the clock to `to`, running each timer due on the way (and what they schedule). */
  async function advance(to: number) {
    for (;;) {
      const due = timers.filter((timer) => timer.at <= to).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((timer) => timer !== due);
      now = due.at;
      due.run();
      for (let tick = 0; tick < 5; tick++) await Promise.resolve();
    }
    now = to;
  }
  return { deps, advance, revoked, said, pending: () => timers.length };
}

describe('keepLease', () => {
  it('replaces the key before it expires and revokes the old one after its grace', async () => {
    const h = harness();
    const kept = await keepLease(h.deps);
    expect(kept.secret()).toBe('secret-1');
    const renewAt = 3_600_000 - renewalLead(3_600_000);
    expect(renewAt).toBe(3_000_000);
    await h.advance(renewAt - 1);
    expect(kept.secret()).toBe('secret-1');
    await h.advance(renewAt);
    expect(kept.secret()).toBe('secret-2');
    expect(kept.prefix()).toBe('apk_2');
    expect(h.revoked).toEqual([]);
    await h.advance(renewAt + 60_000);
    expect(h.revoked).toEqual(['apk_1']);
    await h.advance(2 * renewAt);
    expect(kept.secret()).toBe('secret-3');
    expect(h.said.filter((line) => line.includes('replaces'))).toHaveLength(2);
  });

  it('tries a failed renewal again every minute while the key still works', async () => {
    const h = harness(2);
    const kept = await keepLease(h.deps);
    await h.advance(3_000_000);
    expect(kept.secret()).toBe('secret-1');
    expect(h.said).toEqual([expect.stringMatching(/^warning: could not renew leased key apk_1 \(503 from the service\); trying again/)]);
    await h.advance(3_000_000 + 2 * RETRY_MS);
    expect(kept.secret()).toBe('secret-2');
  });

  it('revokes every key of the session at the end, the one in its grace too, and leaves no timer', async () => {
    const h = harness();
    const kept = await keepLease(h.deps);
    await h.advance(3_000_000);
    await kept.end();
    expect(h.revoked.sort()).toEqual(['apk_1', 'apk_2']);
    expect(h.pending()).toBe(0);
    await h.advance(10 * 3_600_000);
    expect(h.revoked).toHaveLength(2);
  });
});
