// Every record of a collection, in order, from pages fetched with bounded concurrency. With
// envelope.ts and collection-integrity.ts, the only code that knows the collection envelope. It reads the page count and page size from the
// service's answers (never assumed) and ties two pieces that are tested alone: page-scheduler.ts
// (which pages are on their way: in order, at most `concurrency` ahead of the consumer, none past the
// count the first page announced or that --max-items makes unnecessary) and collection-integrity.ts
// (the page asked for, pagination that makes sense, duplicates, the count against `total`, a `total`
// that changed on the way). Integrity warnings go into the summary (the generator's return value)
// and are printed by the caller, once.
import type { ApiRecord, PaginateOptions, PaginateSummary } from '../api-client.js';
import { CollectionIntegrity } from './collection-integrity.js';
import { type CollectionPage, parseCollectionPage } from './envelope.js';
import { concurrencyWindow, PageScheduler } from './page-scheduler.js';
import { DeferredJson } from './response-body.js';
import { listenForAbort } from '../shared-signal.js';

/**
 * Fetch one page's body; `limit` undefined lets the service choose. A DeferredJson is parsed when the
 * page is consumed, so pages fetched ahead wait as bytes rather than as records.
 */
export type PageFetcher = (page: number, limit: number | undefined, signal: AbortSignal) => Promise<unknown>;

/**
 * From this many records on, paging asks the runtime to favour a small heap (`favourSmallHeap`,
 * installed by the process entry, src/boot/v8-flags.ts): otherwise V8's young generation and heap
 * limits grow with a long export's allocation rate, and peak RSS with the record count (200,000
 * records: ~138 → ~91 MiB, 10,000: ~78 MiB either way). It costs ~6% of CPU, so shorter exports
 * keep V8's defaults. An import asks at its row of this number (commands/import/run-import.ts).
 */
export const SMALL_HEAP_FROM_RECORDS = 50_000;

/** What the process running the export offers paging (none in tests and nested runs, unless given). */
export interface PagingRuntime {
  /** Ask for a small heap over speed; called once, before a read of SMALL_HEAP_FROM_RECORDS or more. */
  favourSmallHeap?: (() => void) | undefined;
  /**
   * Open this many connections to the service now (http/warm-connections.ts): called while page 1
   * is on its way, for the pages fetched alongside each other once it has told how many there are.
   */
  openConnections?: ((count: number) => void) | undefined;
}

function noop(): void {}

export async function* paginate(
  fetchPage: PageFetcher,
  path: string,
  options: PaginateOptions,
  runtime: PagingRuntime = {},
): AsyncGenerator<ApiRecord, PaginateSummary, undefined> {
  const concurrency = concurrencyWindow(options.concurrency);
  const maxItems = options.maxItems;
  const resume = options.resume;
  const integrity = new CollectionIntegrity(path, resume);
  const summary = integrity.summary;
  // Ids of the page being consumed, only collected for whoever checkpoints pages.
  let pageIds: string[] | undefined;
  // Aborting this cancels every page still in flight (consumer break, error, caller's signal).
  const controller = new AbortController();
  const stopListening = options.signal ? listenForAbort(options.signal, () => controller.abort()) : undefined;
  if (options.signal?.aborted) controller.abort();

  /** Start fetching a page; the promise gives a function that parses and checks it, called when it is consumed. */
  const load = (page: number, limit: number | undefined): Promise<() => CollectionPage> => {
    const where = `page ${page} of ${path}`;
    const loaded = fetchPage(page, limit, controller.signal).then((body) => (): CollectionPage => {
      const parsed = parseCollectionPage(body instanceof DeferredJson ? body.parse() : body, where);
      integrity.checkPage(parsed, page, where);
      return parsed;
    });
    // Pages fetched ahead may fail or be cancelled before anyone awaits them.
    loaded.catch(noop);
    return loaded;
  };
  const full = (): boolean => maxItems !== undefined && summary.count >= maxItems;

  /** The records of one page that are new; stops at maxItems. */
  function* fresh(page: CollectionPage): Generator<ApiRecord> {
    const number = page.pagination.page;
    for (const record of page.items) {
      if (full()) return;
      if (!integrity.admit(record.id, number)) continue;
      pageIds?.push(record.id);
      yield record;
    }
  }

  try {
    if (options.page !== undefined) {
      const page = (await load(options.page, options.pageSize))();
      integrity.noteTotal(page);
      yield* fresh(page);
      options.onProgress?.({ fetched: summary.count, total: summary.total });
      integrity.noteDuplicates();
      return summary;
    }

    const start = resume ? resume.afterPage + 1 : 1;
    const loadingFirst = load(start, resume ? resume.limit : options.pageSize);
    // A resumed export reads its last complete page again, beside the next one: it must still hold
    // only what the partial export holds (checkLinedUp).
    const loadingLast = resume && resume.afterPage >= 1 ? load(resume.afterPage, resume.limit) : undefined;
    // Pages after the first go out together as soon as it answers (`concurrency` of them once it is
    // consumed; undici does not hand page 1's connection to the next request at once): their
    // connections are opened while it travels. A 1-page collection leaves them unused, closed at
    // the end; a read the first page may already satisfy opens none, nor one that did not ask.
    const ahead = options.connectAhead === true && concurrency > 1;
    if (ahead && (maxItems === undefined || maxItems > (options.pageSize ?? 0))) runtime.openConnections?.(concurrency);
    const first = (await loadingFirst)();
    integrity.checkResumable(first);
    if (loadingLast) integrity.checkLinedUp((await loadingLast)());
    integrity.noteTotal(first);
    // The duplicate check's table sized once from the total the service reports.
    const expectedRecords = Math.min(first.pagination.total, maxItems ?? Infinity);
    integrity.reserve(expectedRecords);
    if (expectedRecords >= SMALL_HEAP_FROM_RECORDS) runtime.favourSmallHeap?.();
    const pages = first.pagination.pages;
    integrity.announcedPages = pages;
    // The page size the service used (it may clamp what was asked); later pages ask for the same.
    const limit = first.pagination.limit;
    const scheduler = new PageScheduler({
      first: start,
      firstRecords: first.items.length,
      last: pages,
      limit,
      concurrency,
      maxItems,
      start: (page) => load(page, limit),
    });
    const pageDone = async (page: CollectionPage): Promise<void> => {
      if (!options.onPageDone || pageIds === undefined || page.pagination.page >= pages || full()) return;
      const ids = pageIds;
      pageIds = [];
      await options.onPageDone({ page: page.pagination.page, pages, limit, total: page.pagination.total, count: summary.count, ids });
    };
    if (options.onPageDone) pageIds = [];

    scheduler.topUp(start, summary.count);
    yield* fresh(first);
    scheduler.consumed(start);
    options.onProgress?.({ fetched: summary.count, total: summary.total });
    await pageDone(first);

    for (let current = start + 1; current <= pages && !full(); current++) {
      scheduler.topUp(current, summary.count);
      const pending = scheduler.take(current);
      if (pending === undefined) break;
      const page = (await pending)();
      integrity.noteTotal(page);
      yield* fresh(page);
      scheduler.consumed(current);
      options.onProgress?.({ fetched: summary.count, total: summary.total });
      await pageDone(page);
    }

    integrity.noteDuplicates();
    if (!full()) integrity.checkComplete(options.allowPartial);
    return summary;
  } finally {
    controller.abort();
    stopListening?.();
  }
}
