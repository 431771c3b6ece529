import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import type { ApiRecord, ClientSettings, PaginateOptions, PaginateSummary } from '../../../../src/core/api-client.js';
import { ContractError, InterruptedError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { SMALL_HEAP_FROM_RECORDS } from '../../../../src/core/http/paginate.js';
import { type TestServer, closedAfterEach, json, rejection } from './helpers.js';

interface Served {
  page: number;
  limit: number;
  total: number;
  pages: number;
  items: unknown[];
}

interface CollectionOptions {
  defaultLimit?: number;
  maxLimit?: number;
  /** Milliseconds before answering a page. */
  delay?: (page: number) => number;
  /** Change the envelope before it is sent (or return something else entirely). */
  alter?: (served: Served) => unknown;
  /** Called after each page is computed (mutate the record list to simulate concurrent writes). */
  after?: (page: number) => void;
}

interface Collection {
  server: TestServer;
  records: Array<Record<string, unknown>>;
  /** Requests currently being answered, and the most at once. */
  maxConcurrent(): number;
  pagesRequested(): number[];
  limitsRequested(): Array<string | null>;
  aborted(): number;
  /** Pages whose answer was written in full. */
  answered(): number;
  /** A request to /ping and back: once it is answered, the server has read what was sent before it. */
  roundTrip(): Promise<void>;
}

const started = closedAfterEach();

function makeRecords(count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => ({
    id: `id-${String(i + 1).padStart(5, '0')}`,
    name: `Record ${i + 1}`,
    extra: { n: i },
  }));
}

async function collection(count: number, options: CollectionOptions = {}): Promise<Collection> {
  const records = makeRecords(count);
  let active = 0;
  let most = 0;
  let aborted = 0;
  let answered = 0;
  const pages: number[] = [];
  const limits: Array<string | null> = [];
  const server = await started.serve(async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/ping') return json(res, 200, {});
    active++;
    most = Math.max(most, active);
    let done = false;
    res.on('close', () => {
      active--;
      if (!done) aborted++;
    });
    const url = new URL(req.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? '1');
    limits.push(url.searchParams.get('limit'));
    pages.push(page);
    const asked = url.searchParams.get('limit');
    const limit = Math.min(asked === null ? (options.defaultLimit ?? 25) : Number(asked), options.maxLimit ?? 100);
    const served: Served = {
      page,
      limit,
      total: records.length,
      pages: Math.ceil(records.length / limit),
      items: records.slice((page - 1) * limit, page * limit),
    };
    options.after?.(page);
    const wait = options.delay?.(page) ?? 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (res.destroyed) return;
    const body = options.alter
      ? options.alter(served)
      : { items: served.items, pagination: { page, limit, total: served.total, pages: served.pages } };
    done = true;
    res.once('finish', () => answered++);
    json(res, 200, body);
  });
  return {
    server,
    records,
    maxConcurrent: () => most,
    pagesRequested: () => pages,
    limitsRequested: () => limits,
    aborted: () => aborted,
    answered: () => answered,
    roundTrip: async () => void (await (await fetch(`${server.url}/ping`)).arrayBuffer()),
  };
}

function envelope(served: Served, changes: Partial<Served> = {}): unknown {
  const s = { ...served, ...changes };
  return { items: s.items, pagination: { page: s.page, limit: s.limit, total: s.total, pages: s.pages } };
}

async function drain(
  generator: AsyncGenerator<ApiRecord, PaginateSummary, undefined>,
): Promise<{ records: ApiRecord[]; summary: PaginateSummary }> {
  const records: ApiRecord[] = [];
  for (;;) {
    const step = await generator.next();
    if (step.done) return { records, summary: step.value };
    records.push(step.value);
  }
}

function client(c: Collection, verbose = false, settings: Partial<ClientSettings> = {}) {
  const made = started.client(c.server.url, settings, { verbose });
  return made;
}

function list(c: Collection, options: PaginateOptions = {}, settings: Partial<ClientSettings> = {}) {
  const made = client(c, false, settings);
  return { ...made, generator: made.client.paginate('/api/things', options) };
}

describe('paginate', () => {
  it('yields every record in order under concurrency with random per-page delays', async () => {
    const c = await collection(1000, { delay: () => Math.floor(Math.random() * 15) });
    const progress: Array<{ fetched: number; total: number | undefined }> = [];
    const { generator, io } = list(c, { concurrency: 4, onProgress: (p) => progress.push(p) });
    const { records, summary } = await drain(generator);
    expect(records.map((r) => r.id)).toEqual(c.records.map((r) => r.id));
    expect(records[3]).toEqual(c.records[3]);
    expect(summary).toEqual({ count: 1000, total: 1000, duplicatesDropped: 0, warnings: [] });
    expect(c.maxConcurrent()).toBeLessThanOrEqual(4);
    expect(c.maxConcurrent()).toBeGreaterThan(1);
    expect(c.pagesRequested().sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(progress.at(-1)).toEqual({ fetched: 1000, total: 1000 });
    expect(progress.map((p) => p.fetched)).toEqual([...progress.map((p) => p.fetched)].sort((a, b) => a - b));
    expect(io.stderr()).toBe('');
  });

  it('fetches one page at a time with concurrency 1', async () => {
    const c = await collection(100, { delay: () => 3 });
    const { generator } = list(c, { concurrency: 1 });
    const { records } = await drain(generator);
    expect(records).toHaveLength(100);
    expect(c.maxConcurrent()).toBe(1);
  });

  it('does not run ahead of a slow consumer by more than the window', async () => {
    const c = await collection(1000);
    const { generator } = list(c, { concurrency: 3 });
    await generator.next();
    // Page 1 plus the window ahead of it: pages 2 and 3 — and no more once they have arrived (an
    // arrival is the only thing besides the consumer that could start another page).
    await expect.poll(() => c.answered(), { timeout: 10_000 }).toBe(3);
    await c.roundTrip(); // the client has read the answers written before this one
    await c.roundTrip(); // and the server has read any request the client sent on reading them
    expect([...c.pagesRequested()].sort()).toEqual([1, 2, 3]);
    await generator.return(undefined as never);
  });

  it('stops at maxItems without over-fetching', async () => {
    const c = await collection(1000);
    const { generator } = list(c, { maxItems: 60, concurrency: 8 });
    const { records, summary } = await drain(generator);
    expect(records.map((r) => r.id)).toEqual(c.records.slice(0, 60).map((r) => r.id));
    expect(summary.count).toBe(60);
    expect(summary.warnings).toEqual([]);
    expect(c.pagesRequested().length).toBe(3);
  });

  it('stops inside the first page when maxItems is small', async () => {
    const c = await collection(1000);
    const { generator } = list(c, { maxItems: 10 });
    const { records } = await drain(generator);
    expect(records).toHaveLength(10);
    expect(c.pagesRequested()).toEqual([1]);
  });

  it('fetches only the page asked for with --page, sending limit', async () => {
    const c = await collection(1000);
    const { generator } = list(c, { page: 3, pageSize: 50, query: { q: 'x' } });
    const { records, summary } = await drain(generator);
    expect(records.map((r) => r.id)).toEqual(c.records.slice(100, 150).map((r) => r.id));
    expect(summary.count).toBe(50);
    expect(c.server.requests.map((r) => r.url)).toEqual(['/api/things?q=x&page=3&limit=50']);
  });

  it('uses the page size the service answered with when it clamps the limit', async () => {
    const c = await collection(450, { maxLimit: 100 });
    const { generator } = list(c, { pageSize: 500 });
    const { records, summary } = await drain(generator);
    expect(records.map((r) => r.id)).toEqual(c.records.map((r) => r.id));
    expect(summary.count).toBe(450);
    expect(c.limitsRequested()[0]).toBe('500');
    expect(c.limitsRequested().slice(1)).toEqual(['100', '100', '100', '100']);
  });

  it('handles an empty collection', async () => {
    const c = await collection(0);
    const { generator } = list(c);
    const { records, summary } = await drain(generator);
    expect(records).toEqual([]);
    expect(summary).toEqual({ count: 0, total: 0, duplicatesDropped: 0, warnings: [] });
    expect(c.pagesRequested()).toEqual([1]);
  });

  it('fails when a page answers with the wrong page number', async () => {
    const c = await collection(100, { alter: (s) => envelope(s, { page: s.page === 3 ? 1 : s.page }) });
    const { generator } = list(c);
    const error = await rejection(drain(generator));
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain('asked for page 3');
  });

  it('fails when total changes mid-way even if the final count matches (a record may have been skipped), or warns with allowPartial', async () => {
    const c = await collection(100, { alter: (s) => envelope(s, { total: s.page === 2 ? 101 : 100 }) });
    const strict = list(c, { concurrency: 1 });
    const error = await rejection(drain(strict.generator));
    expect(error).toBeInstanceOf(ContractError);
    expect(exitCodeFor(error)).toBe(9);
    expect(error.message).toContain('changed while it was read (total 100 at first, 101 on page 2, 100 at the end)');

    const { generator, io } = list(c, { concurrency: 1, allowPartial: true });
    const { records, summary } = await drain(generator);
    expect(records).toHaveLength(100);
    expect(summary.total).toBe(100);
    expect(summary.warnings).toHaveLength(3);
    expect(summary.warnings[0]).toContain('changed while it was read');
    expect(summary.warnings[2]).toContain('(accepted with --allow-partial)');
    // Printing is the caller's job (once, from the summary).
    expect(io.stderr()).toBe('');
  });

  it('a record deleted behind the read position shifts another past it unseen: exit 9, not a clean export', async () => {
    let deleted = false;
    const c = await collection(100, {
      after: (page) => {
        if (page === 2 && !deleted) {
          deleted = true;
          c.records.splice(0, 1);
        }
      },
    });
    const error = await rejection(drain(list(c, { concurrency: 1 }).generator));
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain('total 100 at first, 99 on page 3)');
  });

  it('fails an export that ends short of total (exit 9), or warns with allowPartial', async () => {
    const c = await collection(100, { alter: (s) => envelope(s, { items: s.page === 2 ? s.items.slice(1) : s.items }) });
    const strict = list(c);
    const error = await rejection(drain(strict.generator));
    expect(error).toBeInstanceOf(ContractError);
    expect(exitCodeFor(error)).toBe(9);
    expect(error.message).toContain('incomplete read: got 99 of 100 records');

    const lenient = list(c, { allowPartial: true });
    const { records, summary } = await drain(lenient.generator);
    expect(records).toHaveLength(99);
    expect(summary.warnings.join('\n')).toContain('incomplete read: got 99 of 100 records');
    expect(summary.warnings.join('\n')).toContain('accepted with --allow-partial');
  });

  it('drops duplicate ids, counts and warns (a record inserted mid-export shifts pages)', async () => {
    let inserted = false;
    const c = await collection(100, {
      after: (page) => {
        if (page === 1 && !inserted) {
          inserted = true;
          c.records.unshift({ id: 'id-new', name: 'inserted' });
        }
      },
    });
    const { generator, io } = list(c, { concurrency: 1, allowPartial: true });
    const { records, summary } = await drain(generator);
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    expect(summary.duplicatesDropped).toBe(1);
    // The shift also pushed the last record onto a page the plan (from page 1) did not include.
    expect(summary.count).toBe(99);
    expect(summary.total).toBe(101);
    expect(summary.warnings.join('\n')).toContain('incomplete read: got 99 of 101 records from /api/things (1 duplicate(s) dropped)');
    expect(summary.warnings.some((w) => w.includes('duplicate'))).toBe(true);
    expect(summary.warnings.join('\n')).toContain('first: id-00025 on page 2');
    expect(io.stderr()).toBe('');
  });

  it('fails on a record without an id, naming the page', async () => {
    const c = await collection(60, {
      alter: (s) => envelope(s, { items: s.page === 2 ? s.items.map((item, i) => (i === 4 ? { name: 'no id' } : item)) : s.items }),
    });
    const { generator } = list(c);
    const error = await rejection(drain(generator));
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain('page 2 of /api/things');
    expect(error.message).toContain('item 5');
  });

  it.each([
    ['not an object', () => 'hello'],
    ['an array', () => []],
    ['items missing', (s: Served) => ({ pagination: { page: s.page, limit: s.limit, total: s.total, pages: s.pages } })],
    ['pagination missing', (s: Served) => ({ items: s.items })],
    ['negative total', (s: Served) => envelope(s, { total: -1 })],
    ['fractional pages', (s: Served) => envelope(s, { pages: 1.5 })],
    ['string page', (s: Served) => ({ items: s.items, pagination: { page: '1', limit: s.limit, total: s.total, pages: s.pages } })],
  ])('fails on a malformed envelope: %s', async (_name, alter) => {
    const c = await collection(10, { alter });
    const { generator } = list(c);
    const error = await rejection(drain(generator));
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain('page 1 of /api/things');
  });

  it('keeps unknown record fields and tolerates extra envelope keys', async () => {
    const c = await collection(3, { alter: (s) => ({ ...(envelope(s) as object), links: { next: null } }) });
    const { generator } = list(c);
    const { records } = await drain(generator);
    expect(records[0]).toEqual({ id: 'id-00001', name: 'Record 1', extra: { n: 0 } });
  });

  it('cancels in-flight pages cleanly when the consumer breaks early', async () => {
    // The server holds pages 2-4 for a minute: breaking out must abort them, not wait for them.
    const c = await collection(1000, { delay: (page) => (page === 1 ? 0 : 60_000) });
    const { generator } = list(c, { concurrency: 4 });
    const seen: string[] = [];
    const started = Date.now();
    for await (const record of generator) {
      seen.push(record.id);
      // Let pages 2-4 reach the server, then walk away.
      if (seen.length === 1) await expect.poll(() => c.pagesRequested().length, { timeout: 10_000 }).toBe(4);
      if (seen.length === 3) break;
    }
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(c.pagesRequested().sort()).toEqual([1, 2, 3, 4]);
    await expect.poll(() => c.aborted(), { timeout: 10_000 }).toBe(3);
  });

  it('stops with InterruptedError when the process signal aborts mid-export', async () => {
    const c = await collection(1000, { delay: (page) => (page === 1 ? 0 : 200) });
    const { generator, abort } = list(c);
    const draining = rejection(drain(generator));
    // Mid-export: once page 2 (delayed) has been asked for.
    await expect.poll(() => c.pagesRequested().length, { timeout: 30_000 }).toBeGreaterThan(1);
    abort.abort();
    const error = await draining;
    expect(error).toBeInstanceOf(InterruptedError);
  });

  it('asks the process for a small heap once, before a read of 50,000 records or more, and not for a shorter one', async () => {
    const c = await collection(SMALL_HEAP_FROM_RECORDS);
    const firstRecord = async (options: PaginateOptions): Promise<number> => {
      const favourSmallHeap = vi.fn();
      const { generator } = list(c, options, { favourSmallHeap });
      // Decided on the first page, before its first record is handed out.
      expect((await generator.next()).done).toBe(false);
      await generator.return(undefined as never);
      return favourSmallHeap.mock.calls.length;
    };
    expect(SMALL_HEAP_FROM_RECORDS).toBe(50_000);
    expect(await firstRecord({})).toBe(1);
    expect(await firstRecord({ maxItems: SMALL_HEAP_FROM_RECORDS - 1 })).toBe(0);
    c.records.pop();
    expect(await firstRecord({})).toBe(0);
    // A client given nothing to ask (a test, a nested run) reads a long collection all the same.
    const { generator } = list(c);
    expect((await generator.next()).done).toBe(false);
    await generator.return(undefined as never);
  });
});

describe('paginate: many in flight on one signal', () => {
  /** The Node warnings emitted while `work` runs (a leak warning comes a tick after its listener). */
  async function warningsDuring(work: () => Promise<void>): Promise<string[]> {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      await work();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    return warnings;
  }

  it('--concurrency 64 raises no leak warning', async () => {
    const c = await collection(3000, { delay: () => 20 });
    const warnings = await warningsDuring(async () => {
      const { generator } = list(c, { concurrency: 64 });
      expect((await drain(generator)).records).toHaveLength(3000);
    });
    expect(c.maxConcurrent()).toBeGreaterThan(10);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('20 lists under one caller signal (a child family, a list per parent) raise no leak warning', async () => {
    const c = await collection(50, { delay: () => 20 });
    const caller = new AbortController();
    const { client: api } = client(c);
    const warnings = await warningsDuring(async () => {
      const lists = Array.from({ length: 20 }, () => drain(api.paginate('/api/things', { concurrency: 1, signal: caller.signal })));
      for (const { records } of await Promise.all(lists)) expect(records).toHaveLength(50);
    });
    expect(c.maxConcurrent()).toBeGreaterThan(10);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
