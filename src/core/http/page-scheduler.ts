// Which pages of a collection are fetched, and when (paginate.ts asks; nothing here reads a page).
// Pages are consumed in order; while page `current` is consumed, pages current+1 .. current+
// concurrency-1 may already be on their way (prefetch), never more, so a slow consumer holds at most
// `concurrency` pages in memory. No page past the count the first page announced is started, and
// under --max-items none that the records already on their way would make unnecessary.
// Kept apart from the integrity checks (collection-integrity.ts) so each can be tested alone.

export const DEFAULT_CONCURRENCY = 4;

/** `--concurrency` as a window: a whole number of at least one page. */
export function concurrencyWindow(concurrency: number | undefined): number {
  return Math.max(1, Math.floor(concurrency ?? DEFAULT_CONCURRENCY));
}

export interface SchedulePlan<T> {
  /** The page already loaded (the first one read: page 1, or the one after a resume's checkpoint). */
  first: number;
  /** How many records that first page holds. */
  firstRecords: number;
  /** The last page to fetch (the count the first page announced). */
  last: number;
  /** The page size the service used; a started page counts as this many records until consumed. */
  limit: number;
  /** Pages fetched at once, the one being consumed included. */
  concurrency: number;
  /** Stop after this many records (`--max-items`), if given. */
  maxItems: number | undefined;
  /** Start fetching a page. */
  start(page: number): Promise<T>;
}

export class PageScheduler<T> {
  private readonly inFlight = new Map<number, Promise<T>>();
  private next: number;
  /**
   * Records still to come from pages started and not yet consumed (a page not arrived counts as
   * `limit`): under maxItems, no page is started that the records already on their way make unnecessary.
   */
  private expectedAhead: number;

  constructor(private readonly plan: SchedulePlan<T>) {
    this.next = plan.first + 1;
    this.expectedAhead = plan.firstRecords;
  }

  /** Pages started and not yet taken, for tests and checks. */
  get started(): number[] {
    return [...this.inFlight.keys()];
  }

  /**
   * Keep pages current .. current+concurrency-1 started (fewer when maxItems is near). `consumed`:
   * records taken so far, every page before `current` consumed in full.
   */
  topUp(current: number, consumed: number): void {
    const { last, concurrency, maxItems, limit } = this.plan;
    while (this.next <= last && this.next < current + concurrency) {
      if (maxItems !== undefined && consumed + this.expectedAhead >= maxItems) break;
      this.inFlight.set(this.next, this.plan.start(this.next));
      this.expectedAhead += limit;
      this.next++;
    }
  }

  /**
   * The page to consume now, or undefined when it was never started (maxItems reached). topUp(page)
   * always starts it while records are still wanted.
   */
  take(page: number): Promise<T> | undefined {
    const pending = this.inFlight.get(page);
    this.inFlight.delete(page);
    return pending;
  }

  /** Every record of `page` was taken: it is no longer expected ahead. */
  consumed(page: number): void {
    this.expectedAhead -= page === this.plan.first ? this.plan.firstRecords : this.plan.limit;
  }
}
