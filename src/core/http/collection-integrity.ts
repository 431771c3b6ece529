// What paging checks about the collection it reads, so that an export is exactly the collection's
// records or says why not: every page is the one asked for and its pagination makes sense (or a loop
// bounded by it is not bounded), no id is yielded twice (a record inserted meanwhile shifts pages),
// the count ends at `total`, and a `total` that changed on the way fails the export even when the
// count matches (a record removed before the read position shifts another past it unseen). A resumed
// export must find the collection paged as its checkpoint says. Warnings go into the summary (the
// generator's return value), printed by the caller once. Kept apart from which pages are fetched
// when (page-scheduler.ts), so each can be tested alone.
import type { PaginateResume, PaginateSummary } from '../api-client.js';
import { ContractError } from '../errors.js';
import type { CollectionPage } from './envelope.js';
import { IdSet } from './id-set.js';

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

/** One read of a collection: its summary, the ids seen, the totals reported. */
export class CollectionIntegrity {
  readonly summary: PaginateSummary = { count: 0, total: undefined, duplicatesDropped: 0, warnings: [] };
  /** The page count the first page announced: it bounds the read; later pages are checked against it. */
  announcedPages: number | undefined;
  private readonly seen = new IdSet();
  // The total the first page reported, and whether a later page reported another: with offset
  // pages a record removed before the read position shifts a record past it unseen, so a count
  // that matches the final total does not prove that nothing was skipped.
  private firstTotal: number | undefined;
  // The first total that differed from it, and the page that reported it: the message names both,
  // since a total that changed and changed back ends equal to the first and would say nothing.
  private changedTotal: { total: number; page: number } | undefined;
  private firstDuplicate: string | undefined;

  constructor(
    /** The collection's path, for messages. */
    private readonly path: string,
    private readonly resume?: PaginateResume | undefined,
  ) {
    if (resume) {
      for (const id of resume.ids) this.seen.add(id);
      this.summary.count = resume.count;
      this.firstTotal = resume.total;
    }
  }

  /** A parsed page is the one asked for and its pagination makes sense; throws a ContractError if not. */
  checkPage(page: CollectionPage, asked: number, where: string): void {
    if (page.pagination.page !== asked) {
      throw new ContractError(`${where}: asked for page ${asked}, the service answered page ${page.pagination.page}`, {
        hint: 'the service does not page as published; report it with the request id from --verbose',
      });
    }
    checkPageSense(page, where, this.announcedPages);
  }

  /**
   * The collection an interrupted export was reading must still be the same size with the same page
   * size, or the pages after the checkpoint would not line up with the ones before it.
   */
  checkResumable(page: CollectionPage): void {
    const resume = this.resume;
    if (!resume) return;
    const { total, limit } = page.pagination;
    if (total !== resume.total || limit !== resume.limit) {
      const what =
        total !== resume.total
          ? `it has ${total} records now, ${resume.total} when the partial export was written`
          : `the service now pages by ${limit}, the partial export was read by ${resume.limit}`;
      throw new ContractError(
        `cannot resume the export of ${this.path}: ${what}, so the pages after the checkpoint would not line up with those before it`,
        {
          hint: 'run it again with --restart to export the collection from the beginning',
        },
      );
    }
  }

  /**
   * The last page an interrupted export completed, read again: it must hold only records the partial
   * export holds. A record removed before the checkpoint (and another added after it, so the total
   * is the same) shifts the pages left: the page would hold the next page's first record, which the
   * resumed export would otherwise never read: it ended with exit 0 and a record missing.
   */
  checkLinedUp(page: CollectionPage): void {
    const resume = this.resume;
    if (!resume) return;
    const unknown = page.items.find((record) => !this.seen.has(record.id));
    if (unknown === undefined) return;
    throw new ContractError(
      `cannot resume the export of ${this.path}: page ${page.pagination.page}, the last one the partial export holds, now holds a record it does not (${unknown.id.slice(0, 40)}): records were removed or added before it since, so the pages after the checkpoint would not line up with those before it`,
      { hint: 'run it again with --restart to export the collection from the beginning' },
    );
  }

  /** The duplicate check's table sized once, from the total the service reports. */
  reserve(records: number): void {
    this.seen.reserve(records);
  }

  /** The total a page reports; a change from the last one is a warning (and fails the read at the end). */
  noteTotal(page: CollectionPage): void {
    const reported = page.pagination.total;
    this.firstTotal ??= reported;
    if (reported !== this.firstTotal) this.changedTotal ??= { total: reported, page: page.pagination.page };
    const summary = this.summary;
    if (summary.total !== undefined && reported !== summary.total) {
      this.warn(
        `the collection changed while it was read: ${this.path} reported ${summary.total} records, page ${page.pagination.page} reports ${reported}`,
      );
    }
    summary.total = reported;
  }

  /**
   * Whether a record is new (counted) or a duplicate (dropped, counted as such). The paging hot path:
   * no allocation but the first duplicate's description.
   */
  admit(id: string, page: number): boolean {
    if (this.seen.add(id)) {
      this.summary.count++;
      return true;
    }
    this.summary.duplicatesDropped++;
    this.firstDuplicate ??= `${id} on page ${page}`;
    return false;
  }

  /** The duplicates dropped, as one warning (none when there were none). */
  noteDuplicates(): void {
    const dropped = this.summary.duplicatesDropped;
    if (dropped === 0) return;
    this.warn(
      `dropped ${dropped} duplicate record(s) from ${this.path} (first: ${this.firstDuplicate}): the collection changed while it was read`,
    );
  }

  /** Why a complete read cannot be trusted to hold exactly the collection's records, if it cannot. */
  incompleteness(): string | undefined {
    const { count, total, duplicatesDropped } = this.summary;
    if (total !== undefined && count !== total) {
      const dropped = duplicatesDropped > 0 ? ` (${duplicatesDropped} duplicate(s) dropped)` : '';
      return `incomplete read: got ${count} of ${total} records from ${this.path}${dropped}`;
    }
    const changed = this.changedTotal;
    if (changed !== undefined) {
      const first = this.resume ? `${this.firstTotal} when the partial export was written` : `${this.firstTotal} at first`;
      const end = total === changed.total ? '' : `, ${total} at the end`;
      return `incomplete read: ${this.path} changed while it was read (total ${first}, ${changed.total} on page ${changed.page}${end}), so records may have been skipped`;
    }
    return undefined;
  }

  /**
   * The end of a complete read (not one stopped by maxItems): an incomplete one fails with exit 9, or
   * with `allowPartial` is a warning.
   */
  checkComplete(allowPartial: boolean | undefined): void {
    const message = this.incompleteness();
    if (message === undefined) return;
    if (!allowPartial) {
      throw new ContractError(message, {
        hint: 'the collection changed while it was read, or the service paged inconsistently; run it again, or pass --allow-partial to accept it',
      });
    }
    this.warn(`${message} (accepted with --allow-partial)`);
  }

  private warn(message: string): void {
    this.summary.warnings.push(message);
  }
}
