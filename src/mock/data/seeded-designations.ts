// The professional designations (a short fixed list, the same for every --records).
import type { DesignationRecord } from '../state/records.js';
import { DESIGNATIONS } from './enums.js';
import { SEED_PERIOD_START, SeededFamily } from './seeded-family.js';

export class SeededDesignations extends SeededFamily<DesignationRecord> {
  constructor(seed: number) {
    super('designations', seed, DESIGNATIONS.length);
  }

  recordAt(index: number): DesignationRecord {
    const stamp = new Date(SEED_PERIOD_START).toISOString();
    const designation = DESIGNATIONS[index]!;
    return { id: this.idAt(index), code: designation.code, name: designation.name, createdAt: stamp, updatedAt: stamp };
  }
}
