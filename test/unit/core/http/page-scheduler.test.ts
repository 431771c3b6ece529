// page-scheduler.ts alone: which pages are started when (order, the concurrency window, prefetch,
// the announced page count, --max-items), with a fake start that only records what was asked.
import { describe, expect, it } from 'vitest';
import { concurrencyWindow, DEFAULT_CONCURRENCY, PageScheduler, type SchedulePlan } from '../../../../src/core/http/page-scheduler.js';

function scheduler(plan: Partial<SchedulePlan<string>> = {}) {
  const startedPages: number[] = [];
  const made = new PageScheduler<string>({
    first: 1,
    firstRecords: 25,
    last: 10,
    limit: 25,
    concurrency: 3,
    maxItems: undefined,
    start: (page) => {
      startedPages.push(page);
      return Promise.resolve(`page ${page}`);
    },
    ...plan,
  });
  return { made, startedPages };
}

describe('page scheduler', () => {
  it('keeps the pages after the one consumed on their way, in order, never more than the window', async () => {
    const { made, startedPages } = scheduler({ concurrency: 3 });
    made.topUp(1, 0);
    // Page 1 is being consumed: pages 2 and 3 are fetched ahead.
    expect(startedPages).toEqual([2, 3]);
    // Topping up again before anything was consumed starts nothing more.
    made.topUp(1, 0);
    expect(startedPages).toEqual([2, 3]);
    made.consumed(1);
    made.topUp(2, 25);
    expect(startedPages).toEqual([2, 3, 4]);
    expect(await made.take(2)).toBe('page 2');
    expect(made.started).toEqual([3, 4]);
  });

  it('with a window of one fetches a page only when it is to be consumed', () => {
    const { made, startedPages } = scheduler({ concurrency: 1 });
    made.topUp(1, 0);
    expect(startedPages).toEqual([]);
    made.consumed(1);
    made.topUp(2, 25);
    expect(startedPages).toEqual([2]);
  });

  it('starts no page past the count the first page announced', () => {
    const { made, startedPages } = scheduler({ last: 3, concurrency: 8 });
    made.topUp(1, 0);
    expect(startedPages).toEqual([2, 3]);
    for (let page = 2; page <= 3; page++) {
      made.consumed(page - 1);
      made.topUp(page, 25 * (page - 1));
      expect(made.take(page)).toBeDefined();
    }
    made.topUp(4, 75);
    expect(startedPages).toEqual([2, 3]);
    expect(made.take(4)).toBeUndefined();
  });

  it('a one-page collection starts nothing', () => {
    const { made, startedPages } = scheduler({ last: 1 });
    made.topUp(1, 0);
    expect(startedPages).toEqual([]);
  });

  it('under --max-items starts no page the records already on their way make unnecessary', () => {
    // 60 records wanted, 25 a page: the first page and two more hold enough (as paginate's test
    // "stops at maxItems without over-fetching" sees on the wire: 3 pages requested).
    const { made, startedPages } = scheduler({ maxItems: 60, concurrency: 8 });
    made.topUp(1, 0);
    expect(startedPages).toEqual([2, 3]);
    made.consumed(1);
    made.topUp(2, 25);
    expect(startedPages).toEqual([2, 3]);
  });

  it('starts nothing when the first page already holds --max-items records', () => {
    const { made, startedPages } = scheduler({ maxItems: 10, concurrency: 8 });
    made.topUp(1, 0);
    expect(startedPages).toEqual([]);
    expect(made.take(2)).toBeUndefined();
  });

  it('counts a short first page as what it holds, and a page not yet arrived as a full one', () => {
    // The first page holds 5 records (of 25): 30 wanted needs pages 2 (25 expected), and no more.
    const { made, startedPages } = scheduler({ firstRecords: 5, maxItems: 30, concurrency: 8 });
    made.topUp(1, 0);
    expect(startedPages).toEqual([2]);
    made.consumed(1);
    // 5 consumed, page 2 still on its way (25 expected): nothing more.
    made.topUp(2, 5);
    expect(startedPages).toEqual([2]);
    made.take(2);
    made.consumed(2);
    // Page 2 gave fewer than 25 (a duplicate dropped): 29 consumed, one more page is needed.
    made.topUp(3, 29);
    expect(startedPages).toEqual([2, 3]);
  });

  it('after a resume starts from the page after the one read first', () => {
    const { made, startedPages } = scheduler({ first: 5, concurrency: 3 });
    made.topUp(5, 100);
    expect(startedPages).toEqual([6, 7]);
  });

  it('takes each page once', async () => {
    const { made } = scheduler();
    made.topUp(1, 0);
    expect(await made.take(2)).toBe('page 2');
    expect(made.take(2)).toBeUndefined();
  });

  it('reads --concurrency as a whole number of at least one page', () => {
    expect(concurrencyWindow(undefined)).toBe(DEFAULT_CONCURRENCY);
    expect(DEFAULT_CONCURRENCY).toBe(4);
    expect(concurrencyWindow(0)).toBe(1);
    expect(concurrencyWindow(-3)).toBe(1);
    expect(concurrencyWindow(2.7)).toBe(2);
    expect(concurrencyWindow(16)).toBe(16);
  });
});
