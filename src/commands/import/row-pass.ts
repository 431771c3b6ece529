// One pass over the input. Each row is read, typed and planned in order (so duplicates and row
// numbers are decided the same way every time), its write sent with at most --concurrency in flight,
// and its outcome handed on in input order (results, --failed, the tally, progress). A dry run and
// the production plan use the same pass without a sender. --stop-after-errors turns every later row
// into `skipped`; a 401/403 or Ctrl-C ends the pass with that error once the writes in flight end.
//
// The plan of a row is decided the same way by --dry-run and by the real run (so the two agree row
// for row): create it, update only the fields that differ from the matched record, leave it (nothing
// differs), or refuse it (unreadable, a duplicate match value, a schema or enum violation, no record
// with its id). Rows the journal says an earlier run finished are not planned again.
import type { BodyChecks } from '../../core/description/write-contract.js';
import { InterruptedError } from '../../core/errors.js';
import type { ApiRecord } from '../../core/api-client.js';
import { matchKey, type MatchIndex } from './family-records.js';
import type { SourceRow } from './input-source.js';
import type { JournalState } from './journal.js';
import type { RowPlan, RowResult } from './row-result.js';
import type { RowSender } from './send-row.js';
import { setOwnField, type RowReader, type TypedRow } from './typed-row.js';

export interface PlannerOptions {
  /** --match as a path; undefined: rows with an `id` update, rows without create. */
  match: readonly string[] | undefined;
  /** The index by --match (or by id without --match); loaded on the first row that needs it. */
  index: () => Promise<MatchIndex>;
  checks: BodyChecks;
  journal: JournalState;
  /** Contacts: where the parent id comes from (a `clientId` column, else --client). */
  parent?: { field: string; fallback: string | undefined } | undefined;
  /** Assignments with --property-match: property match values → ids, by field. */
  relate?: ((record: Record<string, unknown>) => Promise<string[]>) | undefined;
  /** The command a person runs to look for an unconfirmed create. */
  checkCommand: string;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The row's nested fields laid over the record's: address.city alone keeps the rest of the address. */
function overlay(current: unknown, wanted: unknown): unknown {
  if (!isPlain(current) || !isPlain(wanted)) return wanted;
  const out: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(wanted)) setOwnField(out, key, overlay(current[key], value));
  return out;
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  if (isPlain(a) && isPlain(b)) {
    const keys = Object.keys(a).filter((key) => a[key] !== undefined);
    const other = Object.keys(b).filter((key) => b[key] !== undefined);
    return keys.length === other.length && keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
  }
  return false;
}

/**
 * Whether laying `wanted` over `current` (as `overlay` does) changes it: the same answer as
 * `!sameValue(overlay(current, wanted), current)` without building the overlay, since most rows of
 * a re-import change nothing.
 */
function changes(current: unknown, wanted: unknown): boolean {
  if (!isPlain(current) || !isPlain(wanted)) return !sameValue(wanted, current);
  for (const key in wanted)
    if (Object.hasOwn(wanted, key) && changes(Object.hasOwn(current, key) ? current[key] : undefined, wanted[key])) return true;
  return false;
}

/** The fields of `record` that differ from `existing`, with nested objects overlaid. */
export function changedFields(record: Record<string, unknown>, existing: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const field in record) {
    if (!Object.hasOwn(record, field)) continue;
    const current = Object.hasOwn(existing, field) ? existing[field] : undefined;
    const value = record[field];
    if (changes(current, value)) setOwnField(changed, field, overlay(current, value));
  }
  return changed;
}

/** One planner per pass over the input: it remembers the match values it has seen. */
export class RowPlanner {
  /** Match value (or id) → the first row that had it, as a person finds it (SourceRow.fileRow). */
  private readonly seen = new Map<string, number>();
  /** The index once read: awaited again for every row, it cost each row a turn of the microtask queue. */
  private index: MatchIndex | undefined;

  constructor(private readonly options: PlannerOptions) {}

  /** `fileRow`: the row as a person finds it (SourceRow.fileRow), for the duplicate's message; `typed.row` keys the journal. */
  async plan(typed: TypedRow, fileRow: number): Promise<RowPlan> {
    const { row } = typed;
    const { options } = this;
    if (typed.problems.length > 0) return { kind: 'invalid', row, error: typed.problems.join('; ') };
    const matchField = options.match;
    const byId = matchField === undefined || (matchField.length === 1 && matchField[0] === 'id');
    const key = byId ? typed.id : matchKey(getPath(typed.record, matchField!));
    if (!byId && key === undefined)
      return { kind: 'invalid', row, error: `${matchField!.join('.')}: is empty; --match needs it on every row` };
    if (key !== undefined) {
      const first = this.seen.get(key);
      if (first !== undefined) {
        const what = byId ? 'id' : matchField!.join('.');
        return { kind: 'invalid', row, error: `${what}: ${key} is a duplicate of row ${first} (sent once, from the first row)` };
      }
      this.seen.set(key, fileRow);
    }
    const journaled = options.journal.done.get(row);
    if (journaled) return { kind: 'done', row, status: journaled.status, id: journaled.id };
    const gone = options.journal.gone.get(row);
    if (gone)
      return {
        kind: 'gone',
        row,
        error: `the journal says an earlier run ${gone.status} this row as ${gone.id}, but the service holds no such record: check, then import this row again`,
      };
    if (matchField === undefined && typed.id === undefined && options.journal.sent.has(row)) {
      return {
        kind: 'unconfirmed',
        row,
        error: `create unconfirmed: an earlier run sent it and the answer was lost; check with \`${options.checkCommand}\` before importing this row again`,
      };
    }
    if (options.relate) {
      const problems = await options.relate(typed.record);
      if (problems.length > 0) return { kind: 'invalid', row, error: problems.join('; ') };
    }
    const existing = key === undefined ? undefined : (this.index ??= await options.index()).get(key);
    if (existing === 'ambiguous')
      return { kind: 'invalid', row, error: `${byId ? 'id' : matchField!.join('.')}: ${key} matches more than one record` };
    if (existing === undefined && typed.id !== undefined && byId)
      return { kind: 'invalid', row, error: `id: no record with id ${typed.id}` };
    if (existing !== undefined) return this.update(row, typed.record, existing);
    return this.create(row, typed.record, key);
  }

  /** Not async for a row that changes nothing (most of a re-import): no promise made and awaited for it. */
  private update(row: number, record: Record<string, unknown>, existing: ApiRecord): RowPlan | Promise<RowPlan> {
    const body = changedFields(record, existing);
    const fields = Object.keys(body);
    if (fields.length === 0) return { kind: 'unchanged', row, id: existing.id };
    return this.checkedUpdate(row, existing.id, body, fields);
  }

  private async checkedUpdate(row: number, id: string, body: Record<string, unknown>, fields: string[]): Promise<RowPlan> {
    const problems = await this.options.checks.update(body);
    if (problems.length > 0) return { kind: 'invalid', row, error: problems.join('; ') };
    return { kind: 'update', row, id, body, fields };
  }

  private async create(row: number, record: Record<string, unknown>, key: string | undefined): Promise<RowPlan> {
    const { parent } = this.options;
    let parentId: string | undefined;
    if (parent) {
      const own = record[parent.field];
      parentId = typeof own === 'string' && own !== '' ? own : parent.fallback;
      if (parentId === undefined) return { kind: 'invalid', row, error: `${parent.field}: is required (a column, or --client ID)` };
    }
    const problems = await this.options.checks.create(record);
    if (problems.length > 0) return { kind: 'invalid', row, error: problems.join('; ') };
    return { kind: 'create', row, body: record, key, parentId };
  }
}

function getPath(record: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = record;
  for (const key of path) {
    if (!isPlain(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** Rows planned ahead of the oldest unfinished one, at most (bounds memory when one row is slow). */
const WINDOW = 4096;

export interface PassOptions {
  rows: AsyncIterable<SourceRow>;
  reader: RowReader;
  planner: RowPlanner;
  /** Undefined: plan only (dry run, production plan). */
  sender: RowSender | undefined;
  concurrency: number;
  /** End early after this many invalid or failed rows (the rest are skipped). */
  stopAfterErrors: number | undefined;
  signal: AbortSignal;
  /** Every row, in input order, once its outcome is known. */
  onRow(source: SourceRow, result: RowResult, plan: RowPlan | undefined): Promise<void>;
}

interface Slot {
  source: SourceRow;
  plan: RowPlan | undefined;
  result: RowResult | undefined;
  settled: Promise<void>;
}

/** What a plan means when nothing is sent (a dry run's planned status). */
export function plannedResult(plan: RowPlan): RowResult {
  switch (plan.kind) {
    case 'create':
      return { row: plan.row, status: 'created', id: undefined, error: undefined, toFix: false };
    case 'update':
      return { row: plan.row, status: 'updated', id: plan.id, error: undefined, toFix: false };
    case 'unchanged':
      return { row: plan.row, status: 'unchanged', id: plan.id, error: undefined, toFix: false };
    case 'done':
      return { row: plan.row, status: plan.status, id: plan.id, error: undefined, toFix: false };
    case 'invalid':
      return { row: plan.row, status: 'invalid', id: undefined, error: plan.error, toFix: true };
    case 'unconfirmed':
      return { row: plan.row, status: 'failed', id: undefined, error: plan.error, toFix: false };
    case 'gone':
      return { row: plan.row, status: 'failed', id: undefined, error: plan.error, toFix: true };
  }
}

export async function runPass(options: PassOptions): Promise<void> {
  const { sender, signal } = options;
  const window: Slot[] = [];
  let inFlight = 0;
  let errors = 0;
  let fatal: unknown;
  let wake: (() => void) | undefined;
  const woken = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };

  const flush = async () => {
    while (window.length > 0 && window[0]!.result !== undefined) {
      const slot = window.shift()!;
      await options.onRow(slot.source, slot.result!, slot.plan);
    }
  };
  /** Errors count when they are known, not when their row's turn to be reported comes. */
  const settle = (slot: Slot, result: RowResult) => {
    slot.result = result;
    if (result.status === 'invalid' || result.status === 'failed') errors++;
  };
  const stopped = () => options.stopAfterErrors !== undefined && errors >= options.stopAfterErrors;

  // What a row that sends nothing waits for: one promise for them all, not one per row.
  const settledAtOnce = Promise.resolve();
  for await (const source of options.rows) {
    if (signal.aborted) throw new InterruptedError();
    if (fatal !== undefined) break;
    const slot: Slot = { source, plan: undefined, result: undefined, settled: settledAtOnce };
    window.push(slot);
    if (stopped()) {
      slot.result = { row: source.row, status: 'skipped', id: undefined, error: '--stop-after-errors: not attempted', toFix: true };
    } else {
      const plan = await options.planner.plan(options.reader.read(source), source.fileRow);
      slot.plan = plan;
      if (!sender || (plan.kind !== 'create' && plan.kind !== 'update')) {
        settle(slot, plannedResult(plan));
      } else {
        while (inFlight >= options.concurrency) await new Promise<void>((resolve) => (wake = resolve));
        // A write that ended the pass (401/403) while this row waited for its turn: this row is not sent.
        if (fatal !== undefined) break;
        inFlight++;
        const sending = plan.kind === 'create' ? sender.create(plan) : sender.update(plan);
        slot.settled = sending.then(
          (result) => settle(slot, result),
          (error: unknown) => {
            fatal ??= error;
            slot.result = { row: source.row, status: 'failed', id: undefined, error: String(error), toFix: true };
          },
        );
        void slot.settled.finally(() => {
          inFlight--;
          woken();
        });
      }
    }
    await flush();
    if (window.length > WINDOW) {
      await window[0]!.settled;
      await flush();
    }
  }
  await Promise.all(window.map((slot) => slot.settled));
  if (fatal !== undefined) throw fatal;
  if (signal.aborted) throw new InterruptedError();
  await flush();
}
