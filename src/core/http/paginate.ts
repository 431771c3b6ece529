// Every record of a collection, in order, from pages fetched with bounded concurrency. This is the
// only code that knows the collection envelope. It reads the page count and page size from the
// service's answers (never assumed), checks what it can (page numbers, ids, the final count against
// `total`, a `total` that changed on the way, a pagination that makes no sense), requests no more
// pages than the first page announced, and never runs more than `concurrency` pages ahead of its
// consumer. Integrity warnings
// go into the summary (the generator's return value) and are printed by the caller, once.
import { setFlagsFromString } from 'node:v8';
import type { ApiRecord, PaginateOptions, PaginateResume, PaginateSummary } from '../api-client.js';
import { ContractError } from '../errors.js';
import { type CollectionPage, parseCollectionPage } from './envelope.js';
import { DeferredJson } from './response-body.js';
import { IdSet } from './id-set.js';

/**
 * Fetch one page's body; `limit` undefined lets the service choose. A DeferredJson is parsed when the
 * page is consumed, so pages fetched ahead wait as bytes rather than as records.
 */
export type PageFetcher = (page: number, limit: number | undefined, signal: AbortSignal) => Promise<unknown>;

export const DEFAULT_CONCURRENCY = 4;

/**
 * From this many records on, V8 is asked to favour a small heap (`--optimize-for-size`, set at run
 * time): otherwise its young generation and heap limits grow with a long export's allocation rate,
 * and peak RSS with the record count (200,000 records: ~138 → ~91 MiB, 10,000: ~78 MiB either
 * way). It costs ~6% of CPU, so shorter exports keep V8's defaults.
 */
export const SMALL_HEAP_FROM_RECORDS = 50_000;

function noop(): void {}

/**
 * The collection an interrupted export was reading must still be the same size with the same page
 * size, or the pages after the checkpoint would not line up with the ones before it.
 */
function checkResumable(page: CollectionPage, resume: PaginateResume, path: string): void {
  const { total, limit } = page.pagination;
  if (total !== resume.total || limit !== resume.limit) {
    const what =
      total !== resume.total
        ? `it has ${total} records now, ${resume.total} when the partial export was written`
        : `the service now pages by ${limit}, the partial export was read by ${resume.limit}`;
    throw new ContractError(
      `cannot resume the export of ${path}: ${what}, so the pages after the checkpoint would not line up with those before it`,
      {
        hint: 'run it again with --restart to export the collection from the beginning',
      },
    );
  }
}

const NONSENSE_HINT =
  'the service does not page as published (limit >= 1, pages = ceil(total / limit), no empty page before the last); report it with the request id from --verbose';

/**
 * A page's pagination must make sense, or a loop bounded by it is not bounded: a limit of 0, or a
 * page count that total and limit cannot give (`pages: 1e9` for 5 records), would have the export
 * ask for pages without end. `announcedPages` is what the first page said (later pages may differ
 * only when the collection changed meanwhile).
 */
function checkPageSense(page: CollectionPage, where: string, announcedPages: number | undefined): void {
  const { limit, total, pages } = page.pagination;
  const nonsense = (why: string): ContractError =>
    new ContractError(`${where}: the pagination makes no sense: ${why}`, { hint: NONSENSE_HINT });
  if (limit < 1) throw nonsense(`limit ${limit} (a page holds at least one record)`);
  // The first page's count bounds the export; later pages may disagree when the collection changed
  // meanwhile, which the total checks report.
  const expected = Math.ceil(total / limit);
  if (announcedPages === undefined && pages !== expected && !(total === 0 && pages === 1)) {
    throw nonsense(`${pages} pages for ${total} records of ${limit} per page (expected ${expected})`);
  }
  if (page.items.length > limit) throw nonsense(`${page.items.length} records on a page of ${limit}`);
  const last = Math.min(pages, announcedPages ?? pages);
  if (page.items.length === 0 && page.pagination.page < last) {
    throw nonsense(`page ${page.pagination.page} of ${last} is empty`);
  }
}

export async function* paginate(
  fetchPage: PageFetcher,
  path: string,
  options: PaginateOptions,
): AsyncGenerator<ApiRecord, PaginateSummary, undefined> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  const maxItems = options.maxItems;
  const summary: PaginateSummary = { count: 0, total: undefined, duplicatesDropped: 0, warnings: [] };
  const seen = new IdSet();
  const resume = options.resume;
  if (resume) {
    for (const id of resume.ids) seen.add(id);
    summary.count = resume.count;
  }
  // Ids of the page being consumed, only collected for whoever checkpoints pages.
  let pageIds: string[] | undefined;
  // Aborting this cancels every page still in flight (consumer break, error, caller's signal).
  const controller = new AbortController();
  const onCallerAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (options.signal?.aborted) controller.abort();

  const warn = (message: string): void => void summary.warnings.push(message);
  // The page count the first page announced: it bounds how many pages this export requests.
  let announcedPages: number | undefined;
  /** Start fetching a page; the promise gives a function that parses and checks it, called when it is consumed. */
  const load = (page: number, limit: number | undefined): Promise<() => CollectionPage> => {
    const where = `page ${page} of ${path}`;
    const loaded = fetchPage(page, limit, controller.signal).then((body) => (): CollectionPage => {
      const parsed = parseCollectionPage(body instanceof DeferredJson ? body.parse() : body, where);
      if (parsed.pagination.page !== page) {
        throw new ContractError(`${where}: asked for page ${page}, the service answered page ${parsed.pagination.page}`, {
          hint: 'the service does not page as published; report it with the request id from --verbose',
        });
      }
      checkPageSense(parsed, where, announcedPages);
      return parsed;
    });
    // Pages fetched ahead may fail or be cancelled before anyone awaits them.
    loaded.catch(noop);
    return loaded;
  };
  // The total the first page reported, and whether a later page reported another: with offset
  // pages a record removed before the read position shifts a record past it unseen, so a count
  // that matches the final total does not prove that nothing was skipped.
  let firstTotal: number | undefined = resume?.total;
  let totalChanged = false;
  const noteTotal = (page: CollectionPage): void => {
    const reported = page.pagination.total;
    firstTotal ??= reported;
    if (reported !== firstTotal) totalChanged = true;
    if (summary.total !== undefined && reported !== summary.total) {
      warn(
        `the collection changed while it was read: ${path} reported ${summary.total} records, page ${page.pagination.page} reports ${reported}`,
      );
    }
    summary.total = reported;
  };
  const full = (): boolean => maxItems !== undefined && summary.count >= maxItems;
  // Records still to come from pages already started (a started page counts as `limit` until it
  // arrives): under maxItems, no page is started that the records already on their way would make
  // unnecessary.
  let expectedAhead = 0;
  let firstDuplicate: string | undefined;

  /** The records of one page that are new; stops at maxItems. */
  function* fresh(page: CollectionPage): Generator<ApiRecord> {
    for (const record of page.items) {
      if (full()) return;
      expectedAhead--;
      if (!seen.add(record.id)) {
        summary.duplicatesDropped++;
        firstDuplicate ??= `${record.id} on page ${page.pagination.page}`;
        continue;
      }
      summary.count++;
      pageIds?.push(record.id);
      yield record;
    }
  }

  /** Why a complete read cannot be trusted to hold exactly the collection's records, if it cannot. */
  const incompleteness = (): string | undefined => {
    if (summary.total !== undefined && summary.count !== summary.total) {
      const dropped = summary.duplicatesDropped > 0 ? ` (${summary.duplicatesDropped} duplicate(s) dropped)` : '';
      return `export incomplete: got ${summary.count} of ${summary.total} records from ${path}${dropped}`;
    }
    if (totalChanged) {
      return `export incomplete: ${path} changed while it was read (total ${firstTotal} at first, ${summary.total} at the end), so records may have been skipped`;
    }
    return undefined;
  };

  const noteDuplicates = (): void => {
    if (summary.duplicatesDropped === 0) return;
    warn(
      `dropped ${summary.duplicatesDropped} duplicate record(s) from ${path} (first: ${firstDuplicate}): the collection changed while it was read`,
    );
  };

  try {
    if (options.page !== undefined) {
      const page = (await load(options.page, options.pageSize))();
      noteTotal(page);
      yield* fresh(page);
      options.onProgress?.({ fetched: summary.count, total: summary.total });
      noteDuplicates();
      return summary;
    }

    const start = resume ? resume.afterPage + 1 : 1;
    const first = (await load(start, resume ? resume.limit : options.pageSize))();
    if (resume) checkResumable(first, resume, path);
    noteTotal(first);
    // The duplicate check's table sized once from the total the service reports.
    const expectedRecords = Math.min(first.pagination.total, maxItems ?? Infinity);
    seen.reserve(expectedRecords);
    if (expectedRecords >= SMALL_HEAP_FROM_RECORDS) setFlagsFromString('--optimize-for-size');
    const pages = first.pagination.pages;
    announcedPages = pages;
    // The page size the service used (it may clamp what was asked); later pages ask for the same.
    const limit = first.pagination.limit;
    const inFlight = new Map<number, Promise<() => CollectionPage>>();
    let next = start + 1;
    const pageDone = async (page: CollectionPage): Promise<void> => {
      if (!options.onPageDone || pageIds === undefined || page.pagination.page >= pages || full()) return;
      const ids = pageIds;
      pageIds = [];
      await options.onPageDone({ page: page.pagination.page, pages, limit, total: page.pagination.total, count: summary.count, ids });
    };
    if (options.onPageDone) pageIds = [];
    /** Keep pages current .. current+concurrency-1 started (fewer when maxItems is near). */
    const topUp = (current: number): void => {
      while (next <= pages && next < current + concurrency) {
        if (maxItems !== undefined && summary.count + expectedAhead >= maxItems) break;
        inFlight.set(next, load(next, limit));
        expectedAhead += limit;
        next++;
      }
    };

    expectedAhead += first.items.length;
    topUp(start);
    yield* fresh(first);
    options.onProgress?.({ fetched: summary.count, total: summary.total });
    await pageDone(first);

    for (let current = start + 1; current <= pages && !full(); current++) {
      // Every earlier page is consumed here, so nothing is expected ahead of `current` unless
      // `current` itself is started: topUp always starts it when records are still wanted.
      topUp(current);
      const pending = inFlight.get(current);
      if (pending === undefined) break;
      const page = (await pending)();
      inFlight.delete(current);
      expectedAhead += page.items.length - limit;
      noteTotal(page);
      yield* fresh(page);
      options.onProgress?.({ fetched: summary.count, total: summary.total });
      await pageDone(page);
    }

    noteDuplicates();
    const message = full() ? undefined : incompleteness();
    if (message !== undefined) {
      if (!options.allowPartial) {
        throw new ContractError(message, {
          hint: 'the collection changed while it was read, or the service paged inconsistently; run it again, or pass --allow-partial to accept it',
        });
      }
      warn(`${message} (partial export allowed)`);
    }
    return summary;
  } finally {
    controller.abort();
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}
