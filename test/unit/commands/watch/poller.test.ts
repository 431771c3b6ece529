import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  InterruptedError,
  LocalEnvironmentError,
  NetworkError,
  ServiceUnavailableError,
} from '../../../../src/core/errors.js';
import { watchFamily } from '../../../../src/commands/watch/families.js';
import { pollOnce, runWatch } from '../../../../src/commands/watch/poller.js';
import { newState } from '../../../../src/commands/watch/state.js';
import { harness, options, summary, T0 } from './fakes.js';

const iso = (ms: number) => new Date(ms).toISOString();
const unavailable = (retryAfterMs?: number) =>
  new ServiceUnavailableError('service unavailable', { status: 503, method: 'GET', path: '/api/properties', retryAfterMs });

describe('pollOnce', () => {
  it('records a silent baseline, then reports exactly the creates, updates and deletes made between polls', async () => {
    const h = harness();
    const s = h.service;
    s.create('a');
    s.create('b');
    s.create('c');
    const state = newState('props', null);
    await pollOnce(state, options(), h.deps);
    expect(h.events).toEqual([]);
    expect([...state.seen.keys()]).toEqual(['a', 'b', 'c']);
    expect(state.polls).toBe(1);

    h.clock.advance(1000);
    s.update('a', { name: 'A2' });
    s.delete('b');
    s.create('d');
    h.clock.advance(1000);
    await pollOnce(state, options(), h.deps);
    expect(summary(h.events)).toEqual(['updated a', 'created d', 'deleted b']);
    expect(h.events[0]).toEqual({ type: 'updated', family: 'props', id: 'a', record: s.records.get('a'), observedAt: iso(T0 + 2000) });
    expect(h.events[2]).toMatchObject({ type: 'deleted', id: 'b', record: null });

    // Nothing changed: nothing more, however many polls.
    for (let i = 0; i < 5; i++) await pollOnce(state, options(), h.deps);
    expect(h.events).toHaveLength(3);
  });

  it('uses updatedSince once a mark can be trusted, and a full pass every --full-every polls', async () => {
    const h = harness();
    h.service.create('a');
    h.service.create('b');
    const state = newState('props', null);
    const opts = options({ fullEvery: 3 });
    for (let i = 0; i < 7; i++) {
      if (i === 2) h.service.delete('a');
      await pollOnce(state, opts, h.deps);
      h.clock.advance(1000);
    }
    // 1 baseline (full), 2 full (no mark yet), 3-4 incremental, 5 full, 6-7 incremental.
    expect(h.service.queries.map((q) => (q.updatedSince === undefined ? 'full' : 'since'))).toEqual([
      'full',
      'full',
      'since',
      'since',
      'full',
      'since',
      'since',
    ]);
    expect(h.service.queries[2]!.updatedSince).toBe(iso(T0));
    // The deletion shows up at the next full pass.
    expect(summary(h.events)).toEqual(['deleted a']);
    expect(state.lastFullPoll).toBe(5);
  });

  it('reads the whole collection every poll for a family without updatedSince', async () => {
    const h = harness();
    h.service.create('a');
    const family = { ...watchFamily('props'), updatedSince: false };
    const state = newState('props', null);
    for (let i = 0; i < 4; i++) await pollOnce(state, options({ family }), h.deps);
    expect(h.service.queries.every((q) => q.updatedSince === undefined)).toBe(true);
  });

  it('does not lose an update made to an earlier page while a pass is running', async () => {
    const h = harness();
    const s = h.service;
    for (const id of ['a', 'b', 'c', 'd']) s.create(id);
    const state = newState('props', null);
    const opts = options({ fullEvery: 100 });
    await pollOnce(state, opts, h.deps);
    h.clock.advance(1000);
    await pollOnce(state, opts, h.deps);
    h.clock.advance(1000);
    // During the next (incremental) pass: page 1 (a, b) is already read when a changes, then d.
    s.onPage = (page) => {
      if (page !== 1) return;
      s.onPage = undefined;
      s.update('a', { name: 'A2' });
      h.clock.advance(5);
      s.update('d', { name: 'D2' });
    };
    await pollOnce(state, opts, h.deps);
    expect(summary(h.events)).toEqual(['updated d']);
    h.clock.advance(1000);
    await pollOnce(state, opts, h.deps);
    expect(h.service.queries.at(-1)!.updatedSince).toBeDefined();
    expect(summary(h.events)).toEqual(['updated d', 'updated a']);
    // And the overlap is not reported again.
    await pollOnce(state, opts, h.deps);
    expect(summary(h.events)).toEqual(['updated d', 'updated a']);
  });

  it('queries the mark inclusively: a record updated in the same millisecond as the mark is reported once', async () => {
    const h = harness();
    const s = h.service;
    s.create('e');
    const state = newState('props', null);
    const opts = options({ baseline: { emitExisting: true, since: undefined } });
    for (let i = 0; i < 3; i++) await pollOnce(state, opts, h.deps); // the clock does not move
    expect(state.mark).toBe(iso(T0));
    s.create('f'); // same millisecond as the mark
    await pollOnce(state, opts, h.deps);
    await pollOnce(state, opts, h.deps);
    expect(h.service.queries.at(-1)!.updatedSince).toBe(iso(T0));
    expect(summary(h.events)).toEqual(['created e', 'created f']);
  });

  it('ignores a stale copy and a repeat of a version it has seen', async () => {
    const h = harness();
    const s = h.service;
    s.create('a');
    const state = newState('props', null);
    await pollOnce(state, options(), h.deps);
    h.clock.advance(1000);
    s.update('a');
    await pollOnce(state, options(), h.deps);
    // The service hands out an older copy (a lagging replica): not an update.
    s.records.set('a', { ...s.records.get('a')!, updatedAt: iso(T0) });
    await pollOnce(state, options(), h.deps);
    expect(summary(h.events)).toEqual(['updated a']);
  });

  it('confirms a deletion with a GET: a record that only slipped between pages is not reported deleted', async () => {
    const h = harness();
    const s = h.service;
    s.create('a');
    s.create('b');
    const state = newState('props', null);
    await pollOnce(state, options(), h.deps);
    h.clock.advance(1000);
    s.hidden.add('b');
    await pollOnce(state, options(), h.deps);
    expect(h.events).toEqual([]);
    expect(s.gets).toEqual(['/api/properties/b']);
    // Still hidden from the list but changed: the GET reports it.
    h.clock.advance(1000);
    s.update('b');
    await pollOnce(state, options({ fullEvery: 1 }), h.deps);
    expect(summary(h.events)).toEqual(['updated b']);
  });

  it('keeps the mark in place after a pass that saw the collection shift', async () => {
    const h = harness();
    const s = h.service;
    for (const id of ['a', 'b', 'c']) s.create(id);
    const state = newState('props', null);
    await pollOnce(state, options(), h.deps);
    h.clock.advance(1000);
    await pollOnce(state, options(), h.deps);
    const mark = state.mark;
    h.clock.advance(1000);
    s.update('c');
    h.clock.advance(1000);
    s.onPage = (page) => {
      if (page === 1) s.create('z'); // total changes between pages
    };
    const result = await pollOnce(state, options(), h.deps);
    expect(result.clean).toBe(false);
    expect(state.mark).toBe(mark);
    expect(h.debug).toEqual([`poll 3: total changed; the mark stays at ${mark}`]);
  });

  it('lists contacts under their client and confirms deletions at /api/contacts/{id}', async () => {
    const h = harness();
    h.service.create('k');
    const state = newState('contacts', 'client:c1');
    const opts = options({ family: watchFamily('contacts'), parentId: 'c1' });
    await pollOnce(state, opts, h.deps);
    h.service.delete('k');
    await pollOnce(state, opts, h.deps);
    expect(h.service.lists[0]!.path).toBe('/api/clients/c1/contacts');
    expect(h.service.gets).toEqual(['/api/contacts/k']);
    expect(h.events).toMatchObject([{ type: 'deleted', family: 'contacts', id: 'k' }]);
  });

  describe('the mark and the service clock (issue 26 §13)', () => {
    /** The service's clock `offsetMs` off the harness's, as its Date header would tell (measured on demand). */
    const serviceAt = (h: ReturnType<typeof harness>, offsetMs: number) => {
      let measured = false;
      h.deps.serviceTime = {
        now: () => (measured ? h.clock.now() + offsetMs : undefined),
        measure: async () => {
          measured = true;
          return h.clock.now() + offsetMs;
        },
      };
    };

    it('a mark later than the service clock is dropped with a warning; the whole read reports the change and rebuilds the mark', async () => {
      const h = harness();
      serviceAt(h, 0);
      h.service.create('a');
      h.service.create('b');
      const state = newState('props', null);
      await pollOnce(state, options(), h.deps);
      h.clock.advance(1000);
      await pollOnce(state, options(), h.deps);
      expect(state.mark).toBe(iso(T0));
      state.mark = '2099-01-01T00:00:00.000Z';
      state.latest = '2099-01-01T00:00:00.000Z';
      h.clock.advance(1000);
      h.service.update('a', { name: 'A2' });
      await pollOnce(state, options(), h.deps);
      expect(h.service.queries.at(-1)).toEqual({});
      expect(summary(h.events)).toEqual(['updated a']);
      expect(h.warnings).toEqual([
        `the watch state's mark 2099-01-01T00:00:00.000Z is later than the service's clock (now ${iso(T0 + 2000)}): reading the whole collection, and the mark starts again from it`,
      ]);
      expect(state.latest).toBe(iso(T0 + 2000));
      // The next poll is whole again (no mark yet), the one after incremental from the rebuilt mark.
      await pollOnce(state, options(), h.deps);
      await pollOnce(state, options(), h.deps);
      expect(h.service.queries.at(-1)).toEqual({ updatedSince: iso(T0 + 2000) });
      expect(h.warnings).toHaveLength(1);
    });

    it('a mark within a few seconds of the service clock is kept; a service that sends no Date header is checked against this machine', async () => {
      const h = harness();
      serviceAt(h, -3_000);
      h.service.create('a');
      const state = newState('props', null);
      await pollOnce(state, options(), h.deps);
      await pollOnce(state, options(), h.deps);
      expect(state.mark).toBe(iso(T0));
      await pollOnce(state, options(), h.deps);
      expect(h.warnings).toEqual([]);
      expect(h.service.queries.at(-1)).toEqual({ updatedSince: iso(T0) });

      const local = harness();
      local.service.create('a');
      const kept = newState('props', null);
      await pollOnce(kept, options(), local.deps);
      kept.mark = iso(T0 + 3_600_000);
      await pollOnce(kept, options(), local.deps);
      expect(local.warnings).toEqual([expect.stringContaining(`is later than the service's clock (now ${iso(T0)})`)]);
    });

    it('a record stamped ahead of the service clock cannot carry the mark into the future', async () => {
      const h = harness();
      serviceAt(h, 0);
      h.service.create('a');
      const state = newState('props', null);
      await pollOnce(state, options(), h.deps);
      // Stamped by a clock that ran years ahead.
      h.service.records.set('a', { ...h.service.records.get('a')!, updatedAt: '2030-01-01T00:00:00.000Z' });
      h.clock.advance(1000);
      await pollOnce(state, options(), h.deps);
      expect(summary(h.events)).toEqual(['updated a']);
      expect(state.latest).toBe(iso(T0 + 1000));
      await pollOnce(state, options(), h.deps);
      expect(state.mark).toBe(iso(T0 + 1000));
      expect(h.warnings).toEqual([]);
    });
  });
});

describe('first poll', () => {
  it('with --emit-existing reports every record as created', async () => {
    const h = harness();
    h.service.create('a');
    h.service.create('b');
    await runWatch(newState('props', null), options({ once: true, baseline: { emitExisting: true, since: undefined } }), h.deps);
    expect(summary(h.events)).toEqual(['created a', 'created b']);
  });

  it('with --since reports records updated since then: created if also created since, else updated', async () => {
    const h = harness();
    const s = h.service;
    s.create('old');
    s.create('touched');
    h.clock.advance(60_000);
    const since = iso(h.clock.now());
    s.update('touched');
    s.create('new');
    await runWatch(newState('props', null), options({ once: true, baseline: { emitExisting: false, since } }), h.deps);
    expect(summary(h.events)).toEqual(['updated touched', 'created new']);
  });

  it('without either, says it recorded a baseline', async () => {
    const h = harness();
    h.service.create('a');
    await runWatch(newState('props', null), options({ once: true }), h.deps);
    expect(h.events).toEqual([]);
    expect(h.notices).toEqual(['first poll: 1 properties recorded as the baseline; changes after it are emitted']);
  });
});

describe('runWatch', () => {
  it('never starts polls closer than --interval, measured from the start of the previous poll', async () => {
    const h = harness();
    h.service.create('a');
    h.service.create('b');
    h.service.create('c');
    h.service.onPage = () => h.clock.advance(150); // each page takes a while
    await runWatch(newState('props', null), options({ intervalMs: 1000, maxPolls: 4 }), h.deps);
    const starts = h.service.lists.map((l) => l.at);
    expect(starts).toHaveLength(4);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBe(1000);
    expect(h.clock.sleeps.every((ms) => ms < 1000)).toBe(true);
  });

  it('rides out 429/5xx and network failures: backs off (Retry-After first), warns, resumes without repeating events', async () => {
    const h = harness();
    const s = h.service;
    s.pageSize = 2;
    for (const id of ['a', 'b', 'c', 'd']) s.create(id);
    const state = newState('props', null);
    let sleeps = 0;
    h.clock.onSleep = () => {
      if (++sleeps !== 1) return;
      h.clock.advance(10);
      s.update('a');
      s.create('e');
      // The next poll fails on its second page, twice, then the network drops once.
      s.failures.push(
        { error: unavailable(5_000), page: 2 },
        { error: unavailable(undefined), page: 2 },
        { error: new NetworkError('socket hang up'), page: 2 },
      );
    };
    const result = await runWatch(state, options({ intervalMs: 1000, maxPolls: 2 }), h.deps);
    expect(result).toEqual({ polls: 2, events: 2 });
    expect(summary(h.events)).toEqual(['updated a', 'created e']);
    expect(h.warnings).toHaveLength(3);
    expect(h.warnings[0]).toBe('polling properties failed (503); trying again in 5.3s');
    expect(h.notices.at(-1)).toBe('polling properties works again (after 3 failed attempts)');
    // Retry-After 5 s (+ jitter); then exponential (equal jitter: 1.5 s, 3 s).
    expect(h.clock.sleeps.slice(1)).toEqual([5_250, 1_500, 3_000]);
  });

  it('with --once, a failed poll is the error, state saved', async () => {
    const h = harness();
    h.service.create('a');
    h.service.failures.push({ error: unavailable(1_000) });
    await expect(runWatch(newState('props', null), options({ once: true }), h.deps)).rejects.toThrow(ServiceUnavailableError);
    expect(h.store.saves).toBe(1);
  });

  it('stops on 401 with the error, keeping what was delivered', async () => {
    const h = harness();
    const s = h.service;
    for (const id of ['a', 'b', 'c']) s.create(id);
    const state = newState('props', null);
    await pollOnce(state, options(), h.deps);
    h.clock.advance(1000);
    s.create('d');
    s.update('a');
    s.failures.push({ error: new AuthenticationError('revoked', { status: 401, method: 'GET', path: '/api/properties' }), page: 2 });
    await expect(runWatch(state, options(), h.deps)).rejects.toThrow(AuthenticationError);
    expect(summary(h.events)).toEqual(['updated a']);
    const saved = h.store.load();
    expect(saved.seen.get('a')).toBe(s.records.get('a')!.updatedAt);
    expect(saved.polls).toBe(1);
  });

  it('stops when the sink fails, with the state saved up to the event before; a restart resumes from that event', async () => {
    const h = harness();
    const s = h.service;
    s.create('a');
    await pollOnce(newState('props', null), options(), h.deps);
    h.clock.advance(1000);
    for (const id of ['x', 'y', 'z']) s.create(id);
    const handled: string[] = [];
    h.deps.sink = async (event) => {
      if (event.id === 'y') throw new LocalEnvironmentError('--exec command exited with code 1');
      handled.push(event.id);
    };
    await expect(runWatch(h.store.load(), options({ savePerEvent: true }), h.deps)).rejects.toThrow(LocalEnvironmentError);
    expect(handled).toEqual(['x']);
    const saved = h.store.load();
    expect([...saved.seen.keys()].sort()).toEqual(['a', 'x']);
    expect(saved.polls).toBe(1);

    h.deps.sink = async (event) => {
      handled.push(event.id);
    };
    await runWatch(saved, options({ once: true }), h.deps);
    expect(handled).toEqual(['x', 'y', 'z']);
  });

  it('after a kill, a restart from the state file reports each change once: no repeats, no gaps', async () => {
    const h = harness();
    const s = h.service;
    for (const id of ['a', 'b', 'c']) s.create(id);
    let step = 0;
    h.clock.onSleep = () => {
      step++;
      h.clock.advance(10);
      s.create(`n${step}`);
      if (step === 2) {
        s.update('a');
        s.delete('b'); // poll 3 is incremental: found by the full poll after the restart
      }
    };
    await runWatch(newState('props', null), options({ maxPolls: 3, fullEvery: 2 }), h.deps);
    // Killed here (after a saved poll); more changes happen while it is down.
    h.clock.onSleep = undefined;
    h.clock.advance(10_000);
    s.update('c');
    s.create('m');
    s.delete('n1');
    await runWatch(h.store.load(), options({ maxPolls: 3, fullEvery: 2 }), h.deps);
    expect(summary(h.events)).toEqual(['created n1', 'updated a', 'created n2', 'updated c', 'created m', 'deleted b', 'deleted n1']);
  });

  it('Ctrl-C while sleeping: saves and throws InterruptedError', async () => {
    const h = harness();
    h.service.create('a');
    h.clock.onSleep = () => h.controller.abort();
    await expect(runWatch(newState('props', null), options(), h.deps)).rejects.toThrow(InterruptedError);
    expect(h.store.load().polls).toBe(1);
  });

  it('Ctrl-C during a pass: saves what was delivered and throws InterruptedError, not the abort error', async () => {
    const h = harness();
    const s = h.service;
    for (const id of ['a', 'b', 'c']) s.create(id);
    s.onPage = (page) => {
      if (page === 1) h.controller.abort();
    };
    await expect(
      runWatch(newState('props', null), options({ baseline: { emitExisting: true, since: undefined } }), h.deps),
    ).rejects.toThrow(InterruptedError);
    expect(summary(h.events)).toEqual(['created a', 'created b']);
    expect([...h.store.load().seen.keys()]).toEqual(['a', 'b']);
  });

  it('reports its status after each poll', async () => {
    const h = harness();
    h.service.create('a');
    const statuses: unknown[] = [];
    h.deps.onStatus = (status) => statuses.push(status);
    await runWatch(newState('props', null), options({ intervalMs: 30_000, maxPolls: 2 }), h.deps);
    expect(statuses).toEqual([{ label: 'properties', lastPollAt: T0, nextPollAt: T0 + 30_000, events: 0, retrying: false }]);
  });
});
