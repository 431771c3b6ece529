// An in-memory collection that pages like the real service (each page is cut from the live data when
// it is fetched, so changes between pages shift records), and a clock that sleeps instantly.
import type { ApiClient, ApiRecord, PaginateOptions, PaginateSummary } from '../../../../src/core/api-client.js';
import { NotFoundError } from '../../../../src/core/errors.js';
import type { Clock } from '../../../../src/commands/watch/clock.js';
import type { WatchEvent } from '../../../../src/commands/watch/events.js';
import { watchFamily } from '../../../../src/commands/watch/families.js';
import type { WatchDeps, WatchOptions } from '../../../../src/commands/watch/poller.js';
import { parseState, serializeState, type StateStore, type WatchState } from '../../../../src/commands/watch/state.js';

export const T0 = Date.parse('2026-03-01T12:00:00.000Z');

export class FakeClock implements Clock {
  time = T0;
  sleeps: number[] = [];
  /** Called at the start of every sleep (e.g. to change data "between polls"). */
  onSleep: ((ms: number) => void) | undefined;
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
  async sleep(ms: number, signal: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    this.onSleep?.(ms);
    if (!signal.aborted) this.time += Math.max(0, ms);
  }
}

export class FakeService {
  readonly records = new Map<string, ApiRecord>();
  pageSize = 2;
  /** Query of every list request, in order. */
  readonly queries: Array<Record<string, unknown>> = [];
  /** Path and clock time of every list request. */
  readonly lists: Array<{ path: string; at: number }> = [];
  readonly gets: string[] = [];
  /** Thrown by the next page fetches, one each. */
  readonly failures: Array<{ error: Error; page?: number }> = [];
  /** Ids the list leaves out (a record skipped because it moved between pages). */
  readonly hidden = new Set<string>();
  /** Runs after a page is cut and before its records are handed out. */
  onPage: ((page: number) => void) | undefined;

  constructor(readonly clock: FakeClock) {}

  private stamp(): string {
    return new Date(this.clock.now()).toISOString();
  }

  create(id: string, fields: Record<string, unknown> = {}): ApiRecord {
    const at = this.stamp();
    const record: ApiRecord = { id, name: id, createdAt: at, updatedAt: at, ...fields };
    this.records.set(id, record);
    return record;
  }

  update(id: string, fields: Record<string, unknown> = {}): ApiRecord {
    const record = this.records.get(id);
    if (!record) throw new Error(`no ${id}`);
    const next = { ...record, ...fields, updatedAt: this.stamp() };
    this.records.set(id, next);
    return next;
  }

  delete(id: string): void {
    this.records.delete(id);
  }

  private listed(since: string | undefined): ApiRecord[] {
    return [...this.records.values()].filter(
      (r) => !this.hidden.has(r.id) && (since === undefined || Date.parse(r.updatedAt as string) >= Date.parse(since)),
    );
  }

  private takeFailure(page: number): void {
    const index = this.failures.findIndex((f) => f.page === undefined || f.page === page);
    if (index >= 0) {
      const [failure] = this.failures.splice(index, 1);
      throw failure!.error;
    }
  }

  readonly api: Pick<ApiClient, 'paginate' | 'get'> = {
    paginate: (path: string, options: PaginateOptions = {}) => this.paginate(path, options),
    get: async <T>(path: string): Promise<T> => {
      this.gets.push(path);
      const id = decodeURIComponent(path.split('/').pop()!);
      const record = this.records.get(id);
      if (!record) throw new NotFoundError('not found', { status: 404, method: 'GET', path });
      return structuredClone(record) as T;
    },
  };

  private async *paginate(path: string, options: PaginateOptions): AsyncGenerator<ApiRecord, PaginateSummary, undefined> {
    const query = { ...(options.query ?? {}) };
    this.queries.push(query);
    this.lists.push({ path, at: this.clock.now() });
    const since = query.updatedSince as string | undefined;
    const summary: PaginateSummary = { count: 0, total: undefined, duplicatesDropped: 0, warnings: [] };
    const size = options.pageSize ?? this.pageSize;
    const seen = new Set<string>();
    let pages = 1;
    for (let page = 1; page <= pages; page++) {
      if (options.signal?.aborted) throw new Error('aborted');
      this.takeFailure(page);
      const all = this.listed(since);
      if (summary.total !== undefined && summary.total !== all.length) summary.warnings.push('total changed');
      summary.total = all.length;
      if (page === 1) pages = Math.max(1, Math.ceil(all.length / size));
      const items = all.slice((page - 1) * size, page * size).map((r) => structuredClone(r));
      this.onPage?.(page);
      for (const item of items) {
        if (seen.has(item.id)) {
          summary.duplicatesDropped++;
          continue;
        }
        seen.add(item.id);
        summary.count++;
        yield item;
      }
    }
    if (summary.count !== summary.total) summary.warnings.push('incomplete');
    return summary;
  }
}

/** A state store that keeps the saved text, as a file would. */
export class MemoryStore implements StateStore {
  readonly path = '/fake/watch.state';
  text: string | undefined;
  saves = 0;
  async save(state: WatchState): Promise<void> {
    this.text = serializeState(state);
    this.saves++;
  }
  /** What a restarted process would read. */
  load(): WatchState {
    return parseState(this.text!, this.path, { family: 'props', scope: null });
  }
}

export interface Harness {
  clock: FakeClock;
  service: FakeService;
  store: MemoryStore;
  events: WatchEvent[];
  warnings: string[];
  notices: string[];
  debug: string[];
  controller: AbortController;
  deps: WatchDeps;
}

export function harness(): Harness {
  const clock = new FakeClock();
  const service = new FakeService(clock);
  const store = new MemoryStore();
  const events: WatchEvent[] = [];
  const warnings: string[] = [];
  const notices: string[] = [];
  const debug: string[] = [];
  const controller = new AbortController();
  const deps: WatchDeps = {
    api: service.api,
    clock,
    signal: controller.signal,
    sink: async (event) => {
      events.push(structuredClone(event));
    },
    store,
    log: { warn: (m) => warnings.push(m), notice: (m) => notices.push(m), debug: (m) => debug.push(m) },
    random: () => 0.5,
  };
  return { clock, service, store, events, warnings, notices, debug, controller, deps };
}

export function options(overrides: Partial<WatchOptions> = {}): WatchOptions {
  return {
    family: watchFamily('props'),
    parentId: undefined,
    intervalMs: 60_000,
    fullEvery: 10,
    once: false,
    maxPolls: undefined,
    baseline: { emitExisting: false, since: undefined },
    pageSize: undefined,
    concurrency: 4,
    savePerEvent: false,
    ...overrides,
  };
}

/** "type id" of each event, for compact assertions. */
export const summary = (events: readonly WatchEvent[]) => events.map((e) => `${e.type} ${e.id}`);
