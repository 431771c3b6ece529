// Seeded file records. Their bytes are one of the sample documents (found again by sha256), so
// seeding files costs no disk.
import type { FileAttachment, FileRecord } from '../state/records.js';
import { SAMPLE_DOCUMENTS } from './sample-files.js';
import { SeededFamily } from './seeded-family.js';
import type { SeededAssignments } from './seeded-assignments.js';
import type { SeededProperties } from './seeded-properties.js';

export class SeededFiles extends SeededFamily<FileRecord> {
  constructor(
    seed: number,
    count: number,
    private readonly properties: SeededProperties,
    private readonly assignments: SeededAssignments,
  ) {
    super('files', seed, count);
  }

  recordAt(index: number): FileRecord {
    const rng = this.rngAt(index);
    const stamps = this.stamps(rng, index);
    const document = rng.pick(SAMPLE_DOCUMENTS);
    const attachments: FileAttachment[] = [];
    if (this.assignments.count > 0 && rng.chance(0.6)) {
      attachments.push({ targetType: 'assignment', targetId: this.assignments.idAt(rng.int(0, this.assignments.count - 1)) });
    } else if (this.properties.count > 0 && rng.chance(0.8)) {
      attachments.push({ targetType: 'property', targetId: this.properties.idAt(rng.int(0, this.properties.count - 1)) });
    }
    return {
      id: this.idAt(index),
      name: `${document.stem}-${String(index + 1).padStart(5, '0')}.${document.extension}`,
      contentType: document.contentType,
      size: document.size,
      sha256: document.sha256,
      attachments,
      createdAt: stamps.createdAt,
      updatedAt: stamps.updatedAt,
    };
  }
}
