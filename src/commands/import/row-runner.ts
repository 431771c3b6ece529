// One pass over the input: each row is read, typed and planned in order (so duplicates and row
// numbers are decided the same way every time), its write sent with at most --concurrency in flight,
// and its outcome handed on in input order (results, --failed, the tally, progress). A dry run and
// the production plan use the same pass without a sender. --stop-after-errors turns every later row
// into `skipped`; a 401/403 or Ctrl-C ends the pass with that error once the writes in flight end.
import { InterruptedError } from '../../core/errors.js';
import type { SourceRow } from './input.js';
import type { RowResult } from './row-result.js';
import type { RowPlan, RowPlanner } from './row-plan.js';
import type { RowSender } from './send-row.js';
import type { RowReader } from './typed-row.js';

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

  for await (const source of options.rows) {
    if (signal.aborted) throw new InterruptedError();
    if (fatal !== undefined) break;
    const slot: Slot = { source, plan: undefined, result: undefined, settled: Promise.resolve() };
    window.push(slot);
    if (stopped()) {
      slot.result = { row: source.row, status: 'skipped', id: undefined, error: '--stop-after-errors: not attempted', toFix: true };
    } else {
      const plan = await options.planner.plan(options.reader.read(source));
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
