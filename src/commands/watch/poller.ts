// The watch loop: poll a collection, turn what changed into events, hand each to the sink, remember
// what was seen, sleep, repeat.
//
// Why the high-water mark lags one poll: a record updated while a paged pass is running can be missed
// by that pass (its page was already read) while a record updated later is seen. Moving the mark to
// the newest `updatedAt` of that pass would skip the first record for good. The newest `updatedAt`
// seen *before* the pass started is safe: the service stamped it before the pass began, so every
// update the pass could miss is later than it. So each incremental poll asks `updatedSince = mark`
// (inclusive: records updated in the same millisecond are not lost), the overlap is dropped by
// comparing versions with the state, and the mark only moves after a pass that reported no sign of
// the collection shifting under it (paginate's warnings).
//
// The mark is compared with the service's `updatedAt`, so it is checked against the service's clock
// (its Date header, core/service-clock.ts) before an incremental poll uses it: a mark in the future
// (a state file edited or planted, or written while the service's clock ran ahead) would have every
// incremental poll find nothing. Such a state is repaired, not refused: the poll reads the whole
// collection, which finds every change by comparing versions with what was seen, and the mark starts
// again from what it reads. The newest `updatedAt` is remembered no later than the service's clock,
// so a record stamped in the future cannot push the mark there again.
import type { ApiClient, ApiRecord, PaginateSummary } from '../../core/api-client.js';
import { HttpError, InterruptedError, NetworkError, NotFoundError, PermissionError, ServiceUnavailableError } from '../../core/errors.js';
import { backoffDelay } from './backoff.js';
import type { Clock } from './clock.js';
import { baselineChange, changeFor, laterOf, timestampOf, versionOf, type BaselinePolicy, type ChangeType } from './differ.js';
import { formatDuration } from '../../core/duration.js';
import { FUTURE_TOLERANCE_MS } from '../../core/service-clock.js';
import type { EventSink } from './events.js';
import type { Family } from './families.js';
import type { WatchStatus } from './progress.js';
import type { StateStore, WatchState } from './state.js';

export interface WatchOptions {
  family: Family;
  /** The client id, for contacts. */
  parentId: string | undefined;
  /** Minimum time from the start of one poll to the start of the next. */
  intervalMs: number;
  /** Read the whole collection (finding deletions) every N polls when `updatedSince` is available. */
  fullEvery: number;
  /** Stop after one poll; a failed poll is an error instead of a retry. */
  once: boolean;
  /** Stop after N completed polls. */
  maxPolls: number | undefined;
  baseline: BaselinePolicy;
  pageSize: number | undefined;
  concurrency: number;
  /** Save the state after every event (--exec), not only after every poll. */
  savePerEvent: boolean;
}

export interface WatchLog {
  warn(message: string): void;
  notice(message: string): void;
  /** --verbose detail. */
  debug(message: string): void;
}

export interface WatchDeps {
  api: Pick<ApiClient, 'paginate' | 'get'>;
  clock: Clock;
  signal: AbortSignal;
  sink: EventSink;
  /** Where the state is kept; undefined without --state-file. */
  store: StateStore | undefined;
  log: WatchLog;
  onStatus?: ((status: WatchStatus) => void) | undefined;
  random?: (() => number) | undefined;
  /** After each completed poll (--forward-to's summary line). */
  afterPoll?: (() => void) | undefined;
  /** The service's clock: `now()` from the answers seen so far; `measure()` asks the service when none was. */
  serviceTime?: { now(): number | undefined; measure(): Promise<number | undefined> } | undefined;
}

export interface WatchSummary {
  polls: number;
  events: number;
}

interface Tally {
  events: number;
}

export interface PollResult {
  records: number;
  events: number;
  full: boolean;
  /** The pass saw no sign of records shifting between pages. */
  clean: boolean;
}

function remember(state: WatchState, record: ApiRecord, ceiling: number | undefined): void {
  state.seen.set(record.id, versionOf(record));
  rememberLatest(state, record, ceiling);
}

/** The newest `updatedAt` seen, never later than `ceiling` (the service's clock when the poll began). */
function rememberLatest(state: WatchState, record: ApiRecord, ceiling: number | undefined): void {
  const stamp = timestampOf(record);
  if (stamp === undefined) return;
  state.latest = laterOf(state.latest, ceiling !== undefined && Date.parse(stamp) > ceiling ? new Date(ceiling).toISOString() : stamp);
}

/**
 * A mark (or newest `updatedAt`) later than the service's clock is dropped, with a warning: the poll
 * then reads the whole collection and nothing is missed (see the header). This machine's clock
 * stands in when the service sends no Date header.
 */
async function dropFutureMark(state: WatchState, deps: WatchDeps): Promise<void> {
  const stamps = [state.mark, state.latest].filter((stamp): stamp is string => stamp !== null);
  if (stamps.length === 0) return;
  const now = (await deps.serviceTime?.measure()) ?? deps.clock.now();
  const ahead = stamps.find((stamp) => Date.parse(stamp) > now + FUTURE_TOLERANCE_MS);
  if (ahead === undefined) return;
  deps.log.warn(
    `the watch state's mark ${ahead} is later than the service's clock (now ${new Date(now).toISOString()}): reading the whole collection, and the mark starts again from it`,
  );
  state.mark = null;
  state.latest = null;
}

async function save(state: WatchState, deps: WatchDeps): Promise<void> {
  await deps.store?.save(state);
}

/** Is the record still there? A record the list no longer shows is confirmed with a GET before it is
 *  reported deleted, because a paged pass can skip a record that moved between pages. */
async function stillThere(api: WatchDeps['api'], family: Family, id: string): Promise<ApiRecord | 'gone' | 'unknown'> {
  try {
    const record = await api.get<ApiRecord>(family.recordPath(id));
    return typeof record === 'object' && record !== null && record.id === id ? record : 'unknown';
  } catch (error) {
    // 403 on one record while the list works: a record restriction now hides it from this key.
    if (error instanceof NotFoundError || error instanceof PermissionError) return 'gone';
    throw error;
  }
}

/** One poll: read, compare, emit, remember. The state is saved when it ends, however it ends. */
export async function pollOnce(
  state: WatchState,
  options: WatchOptions,
  deps: WatchDeps,
  tally: Tally = { events: 0 },
): Promise<PollResult> {
  const { family } = options;
  const number = state.polls + 1;
  const baseline = state.polls === 0;
  if (!baseline) await dropFutureMark(state, deps);
  const ceiling = deps.serviceTime?.now();
  const full = baseline || !family.updatedSince || state.mark === null || number - state.lastFullPoll >= options.fullEvery;
  const latestBefore = state.latest;
  const present = new Set<string>();
  let records = 0;
  let events = 0;

  const emit = async (type: ChangeType, id: string, record: ApiRecord | null) => {
    const version = record ? versionOf(record) : (state.seen.get(id) ?? '');
    await deps.sink(
      { type, family: family.name, id, record, observedAt: new Date(deps.clock.now()).toISOString() },
      { poll: number, version },
    );
    if (record) remember(state, record, ceiling);
    else state.seen.delete(id);
    events++;
    tally.events++;
    if (options.savePerEvent) await save(state, deps);
  };
  const observe = async (record: ApiRecord) => {
    const known = state.seen.get(record.id);
    const type = known === undefined && baseline ? baselineChange(record, options.baseline) : changeFor(known, record, 'created');
    if (type) await emit(type, record.id, record);
    else if (known === undefined) remember(state, record, ceiling);
    // Seen before and unchanged: its updatedAt still counts towards the newest (after a repair, the
    // mark is rebuilt from the whole collection).
    else rememberLatest(state, record, ceiling);
  };

  try {
    const pages = deps.api.paginate(family.listPath(options.parentId), {
      query: full ? {} : { updatedSince: state.mark },
      pageSize: options.pageSize,
      concurrency: options.concurrency,
      // Records come and go during a pass; the warnings say so, and the mark then stays put.
      allowPartial: true,
      signal: deps.signal,
    });
    let summary: PaginateSummary;
    try {
      for (;;) {
        const step = await pages.next();
        if (step.done) {
          summary = step.value;
          break;
        }
        records++;
        present.add(step.value.id);
        await observe(step.value);
      }
    } catch (error) {
      await pages.return(undefined as never).catch(() => {});
      throw error;
    }

    if (full) {
      // After a silent first poll nobody has heard of these records: forget them quietly.
      const silent = baseline && !options.baseline.emitExisting && options.baseline.since === undefined;
      const missing = [...state.seen.keys()].filter((id) => !present.has(id));
      const batch = Math.max(1, options.concurrency);
      for (let i = 0; i < missing.length; i += batch) {
        const ids = missing.slice(i, i + batch);
        const answers = await Promise.all(ids.map((id) => stillThere(deps.api, family, id)));
        for (const [j, answer] of answers.entries()) {
          const id = ids[j]!;
          if (answer === 'unknown') continue;
          if (answer !== 'gone') await observe(answer);
          else if (silent) state.seen.delete(id);
          else await emit('deleted', id, null);
        }
      }
    }

    const clean = summary.warnings.length === 0 && (summary.total === undefined || summary.count === summary.total);
    if (!clean) {
      // Expected on a busy collection: nothing is lost, the next poll just covers more.
      const why = summary.warnings.join('; ') || `got ${summary.count} of ${summary.total} records`;
      deps.log.debug(`poll ${number}: ${why}; the mark stays at ${state.mark ?? 'none'}`);
    }
    state.polls = number;
    if (full) state.lastFullPoll = number;
    if (clean && latestBefore !== null) state.mark = laterOf(state.mark, latestBefore);
    await save(state, deps);
    return { records, events, full, clean };
  } catch (error) {
    // Keep what was delivered, so a retry or restart does not deliver it again; the mark has not moved.
    try {
      await save(state, deps);
    } catch (saveError) {
      deps.log.warn((saveError as Error).message);
    }
    throw error;
  }
}

/** Failures the watch rides out: the service is busy or unreachable for now. */
export function isTransient(error: unknown): boolean {
  return error instanceof ServiceUnavailableError || error instanceof NetworkError;
}

function describe(error: unknown): string {
  if (error instanceof HttpError) return `${error.status}${error.serviceMessage ? ` ${error.serviceMessage}` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

/** Poll until stopped: by --once/--max-polls, Ctrl-C (state saved, then InterruptedError), or a failure
 *  that is not transient (401/403/404, a broken response, a failed --exec command). */
export async function runWatch(state: WatchState, options: WatchOptions, deps: WatchDeps): Promise<WatchSummary> {
  const tally: Tally = { events: 0 };
  let polls = 0;
  let failures = 0;
  let lastPollAt: number | undefined;
  while (!deps.signal.aborted) {
    const startedAt = deps.clock.now();
    let delay = 0;
    let failure: unknown;
    try {
      const wasBaseline = state.polls === 0;
      const result = await pollOnce(state, options, deps, tally);
      polls++;
      // The warnings said it failed; a line says when it works again, or the log ends on "trying again".
      if (failures > 0)
        deps.log.notice(`polling ${options.family.label} works again (after ${failures} failed attempt${failures === 1 ? '' : 's'})`);
      failures = 0;
      lastPollAt = startedAt;
      deps.afterPoll?.();
      if (wasBaseline && result.events === 0) {
        deps.log.notice(`first poll: ${result.records} ${options.family.label} recorded as the baseline; changes after it are emitted`);
      }
    } catch (error) {
      if (deps.signal.aborted) break;
      if (options.once || !isTransient(error)) throw error;
      failure = error;
      failures++;
      delay = backoffDelay(failures, error instanceof HttpError ? error.retryAfterMs : undefined, deps.random);
    }
    if (options.once || (options.maxPolls !== undefined && polls >= options.maxPolls)) break;
    const now = deps.clock.now();
    // Never sooner than --interval after the previous poll began, nor sooner than the backoff.
    const nextAt = Math.max(startedAt + options.intervalMs, now + delay);
    if (failure !== undefined) {
      deps.log.warn(`polling ${options.family.label} failed (${describe(failure)}); trying again in ${formatDuration(nextAt - now)}`);
    }
    deps.onStatus?.({ label: options.family.label, lastPollAt, nextPollAt: nextAt, events: tally.events, retrying: failure !== undefined });
    await deps.clock.sleep(nextAt - now, deps.signal);
  }
  if (deps.signal.aborted) throw new InterruptedError();
  return { polls, events: tally.events };
}
