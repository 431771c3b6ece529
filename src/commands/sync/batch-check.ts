// --validate semantics for every batch sync reads: a record that breaks the published schema of its
// list stops the run before its batch is written (exit 9), naming at most three such records.
import type { ApiRecord } from '../../core/api-client.js';
import type { Violation } from '../../core/description/validate.js';
import { ContractError } from '../../core/errors.js';
import type { ResourceFamily } from '../../core/resources.js';
import type { FamilySource } from './source.js';

/** What a family's batches are checked with (a FamilyJob's). */
export interface BatchChecks {
  family: ResourceFamily;
  source: Pick<FamilySource, 'operation'>;
  /** One record against the published schema. */
  check(record: ApiRecord): Violation[];
  formatViolations(violations: readonly Violation[]): string;
}

/** --validate semantics, for every batch: a record that breaks the published schema stops the run before its batch is written. */
export function checkBatch(job: BatchChecks, batch: readonly ApiRecord[]): void {
  const failures: string[] = [];
  let failed = 0;
  for (const record of batch) {
    const violations = job.check(record);
    if (violations.length === 0) continue;
    failed++;
    if (failures.length < 3) failures.push(`record ${record.id}: ${job.formatViolations(violations)}`);
  }
  if (failed === 0) return;
  const operation = job.source.operation.operationId ?? `GET ${job.source.operation.path}`;
  throw new ContractError(
    `${failed} record(s) of ${job.family.view.label} do not match the published schema of ${operation} (${failures.join('; ')}); nothing of that batch was written`,
    { hint: 'the batches before it are kept; report the record to the service, then run sync again' },
  );
}
