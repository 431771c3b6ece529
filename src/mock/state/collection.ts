// One family's records in a stable order: seeded records first (in createdAt order), then records
// created at run time, appended. Untouched seeded records are not stored: the order holds their
// index and they are generated when read. A record that is changed is stored ("live") in its place.
//
// Reading a page is a slice of the order: O(page) whatever the size. Filtering scans the order,
// which is O(n); filters may decide for a seeded record without generating it.
//
// Records are immutable values: to change one, build a new object and call replace().
import type { StoredRecord } from './records.js';

export interface RecordSource<T extends StoredRecord> {
  readonly count: number;
  recordAt(index: number): T;
  indexOf(id: string): number | undefined;
}

export interface RecordFilter<T extends StoredRecord> {
  matches(record: T): boolean;
  /** Decide for an untouched seeded record from its index; undefined means "generate it and ask matches()". */
  matchesSeeded?(index: number): boolean | undefined;
}

export interface QueryResult<T> {
  items: T[];
  total: number;
  /** The matching record just before the page (the previous page's last one), if any. */
  previous: T | undefined;
}

type Entry<T> = number | T;

export class Collection<T extends StoredRecord> {
  private readonly order: Entry<T>[];
  private readonly live = new Map<string, T>();
  /** Seeded indexes that are no longer generated (deleted, or replaced by a live record). */
  private readonly retired = new Set<number>();

  constructor(private readonly source?: RecordSource<T>) {
    const count = source?.count ?? 0;
    this.order = new Array<Entry<T>>(count);
    for (let i = 0; i < count; i++) this.order[i] = i;
  }

  get size(): number {
    return this.order.length;
  }

  private seededIndex(id: string): number | undefined {
    const index = this.source?.indexOf(id);
    return index === undefined || this.retired.has(index) ? undefined : index;
  }

  private materialise(entry: Entry<T>): T {
    return typeof entry === 'number' ? this.source!.recordAt(entry) : entry;
  }

  get(id: string): T | undefined {
    const live = this.live.get(id);
    if (live) return live;
    const index = this.seededIndex(id);
    return index === undefined ? undefined : this.source!.recordAt(index);
  }

  has(id: string): boolean {
    return this.live.has(id) || this.seededIndex(id) !== undefined;
  }

  /** Every record in order (seeded ones generated one at a time). */
  *records(): IterableIterator<T> {
    for (const entry of this.order) yield this.materialise(entry);
  }

  /** A page of the records that pass every filter, with the total and the record before the page. */
  query(filters: ReadonlyArray<RecordFilter<T>>, offset: number, limit: number): QueryResult<T> {
    if (filters.length === 0) {
      return {
        items: this.order.slice(offset, offset + limit).map((entry) => this.materialise(entry)),
        total: this.order.length,
        previous: offset > 0 && offset <= this.order.length ? this.materialise(this.order[offset - 1]!) : undefined,
      };
    }
    const items: T[] = [];
    let previous: T | undefined;
    let total = 0;
    for (const entry of this.order) {
      const record = this.matching(entry, filters);
      if (!record) continue;
      if (total === offset - 1) previous = record;
      if (total >= offset && items.length < limit) items.push(record);
      total++;
    }
    return { items, total, previous };
  }

  private matching(entry: Entry<T>, filters: ReadonlyArray<RecordFilter<T>>): T | undefined {
    let record = typeof entry === 'number' ? undefined : entry;
    for (const filter of filters) {
      if (record === undefined && filter.matchesSeeded) {
        const decided = filter.matchesSeeded(entry as number);
        if (decided === false) return undefined;
        if (decided === true) continue;
      }
      record ??= this.materialise(entry);
      if (!filter.matches(record)) return undefined;
    }
    return record ?? this.materialise(entry);
  }

  /** Append a new record (new records always go at the end). */
  insert(record: T): void {
    if (this.has(record.id)) throw new Error(`duplicate id ${record.id}`);
    this.order.push(record);
    this.live.set(record.id, record);
  }

  /** Put a new version of a record in the place of the old one. */
  replace(record: T): void {
    const previous = this.live.get(record.id);
    if (previous) {
      this.order[this.order.indexOf(previous)] = record;
    } else {
      const index = this.seededIndex(record.id);
      if (index === undefined) throw new Error(`no record ${record.id}`);
      this.order[this.order.indexOf(index)] = record;
      this.retired.add(index);
    }
    this.live.set(record.id, record);
  }

  delete(id: string): boolean {
    const live = this.live.get(id);
    if (live) {
      this.order.splice(this.order.indexOf(live), 1);
      this.live.delete(id);
      return true;
    }
    const index = this.seededIndex(id);
    if (index === undefined) return false;
    this.order.splice(this.order.indexOf(index), 1);
    this.retired.add(index);
    return true;
  }
}
