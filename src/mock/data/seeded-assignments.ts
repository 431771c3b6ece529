// Seeded assignments: numbered A-<year>-<sequence>, linked to seeded clients and properties.
import type { AssignmentRecord } from '../state/records.js';
import { REPORT_TYPES } from './enums.js';
import type { Prng } from './prng.js';
import { isoDate, SeededFamily } from './seeded-family.js';
import type { SeededClients } from './seeded-clients.js';
import type { SeededProperties } from './seeded-properties.js';
import { INTENDED_USES } from './vocabulary.js';

const STATUS_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
  ['draft', 6],
  ['requested', 10],
  ['accepted', 10],
  ['in_progress', 18],
  ['inspection_scheduled', 8],
  ['in_review', 8],
  ['revision_requested', 4],
  ['on_hold', 3],
  ['completed', 28],
  ['cancelled', 5],
];
const STATUS_TOTAL = STATUS_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
const COMMERCIAL_REPORTS = ['appraisal_report', 'restricted_appraisal_report', 'appraisal_review', 'evaluation'];

function weightedStatus(rng: Prng): string {
  let roll = rng.next() * STATUS_TOTAL;
  for (const [status, weight] of STATUS_WEIGHTS) {
    roll -= weight;
    if (roll < 0) return status;
  }
  return 'draft';
}

export function assignmentNumber(year: number, sequence: number): string {
  return `A-${year}-${String(sequence).padStart(5, '0')}`;
}

export class SeededAssignments extends SeededFamily<AssignmentRecord> {
  constructor(
    seed: number,
    count: number,
    private readonly clients: SeededClients,
    private readonly properties: SeededProperties,
  ) {
    super('assignments', seed, clients.count === 0 || properties.count === 0 ? 0 : count);
  }

  recordAt(index: number): AssignmentRecord {
    const rng = this.rngAt(index);
    const stamps = this.stamps(rng, index);
    const clientIndex = rng.int(0, this.clients.count - 1);
    const linked = rng.chance(0.85) ? 1 : rng.int(2, 3);
    const propertyIds: string[] = [];
    for (let k = 0; k < linked; k++) {
      const propertyId = this.properties.idAt(rng.int(0, this.properties.count - 1));
      if (!propertyIds.includes(propertyId)) propertyIds.push(propertyId);
    }
    const commercial = rng.chance(0.3);
    return {
      id: this.idAt(index),
      number: assignmentNumber(new Date(stamps.createdMs).getUTCFullYear(), index + 1),
      status: weightedStatus(rng),
      clientId: this.clients.idAt(clientIndex),
      propertyIds,
      dueDate: isoDate(stamps.createdMs + rng.int(10, 60) * 86_400_000),
      fee: { amount: commercial ? rng.int(60, 480) * 25 : rng.int(14, 40) * 25, currency: 'USD' },
      reportType: commercial ? rng.pick(COMMERCIAL_REPORTS) : rng.pick(REPORT_TYPES),
      intendedUse: rng.pick(INTENDED_USES),
      createdAt: stamps.createdAt,
      updatedAt: stamps.updatedAt,
    };
  }
}
