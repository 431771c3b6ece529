// Counting rows by outcome, and the lines that say so: the plan of a dry run ("create 2, update 1,
// unchanged 5, invalid 1") and the summary of a run ("created 2, updated 1, unchanged 5, invalid 1,
// failed 0"). Each count stands beside its word, so scripts and people read the same line.
import { formatCount } from '../../output/index.js';
import type { RowStatus } from './row-result.js';

export class Tally {
  readonly counts: Record<RowStatus, number> = { created: 0, updated: 0, unchanged: 0, invalid: 0, failed: 0, skipped: 0 };
  /** Creates whose answer was lost without --match: reported failed, not in --failed. */
  unconfirmed = 0;
  /** Rows an earlier run of the same command finished (the journal). */
  resumed = 0;

  add(status: RowStatus): void {
    this.counts[status]++;
  }

  get total(): number {
    return Object.values(this.counts).reduce((sum, count) => sum + count, 0);
  }

  /** Rows that make the run end with the partial-import exit code. */
  get notImported(): number {
    return this.counts.invalid + this.counts.failed + this.counts.skipped;
  }

  planLine(): string {
    const { created, updated, unchanged, invalid } = this.counts;
    const done = this.resumed > 0 ? `, already done ${formatCount(this.resumed)}` : '';
    return `plan: create ${formatCount(created)}, update ${formatCount(updated)}, unchanged ${formatCount(unchanged)}, invalid ${formatCount(invalid)}${done}`;
  }

  summaryLine(): string {
    const { created, updated, unchanged, invalid, failed, skipped } = this.counts;
    const parts = [
      `created ${formatCount(created)}`,
      `updated ${formatCount(updated)}`,
      `unchanged ${formatCount(unchanged)}`,
      `invalid ${formatCount(invalid)}`,
      `failed ${formatCount(failed)}`,
    ];
    if (skipped > 0) parts.push(`skipped ${formatCount(skipped)}`);
    return parts.join(', ');
  }

  toJSON(): Record<string, number> {
    return { ...this.counts, unconfirmed: this.unconfirmed, rows: this.total };
  }
}
