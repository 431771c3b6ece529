// The contents of seeded files. A handful of small documents is enough: every seeded file record
// points at one of them, so seeding 200,000 files costs no disk and hashes each document once.
import { createHash } from 'node:crypto';

export interface SampleDocument {
  /** File name stem and extension used for seeded records. */
  stem: string;
  extension: string;
  contentType: string;
  content: Buffer;
  size: number;
  sha256: string;
}

// A 1x1 transparent PNG.
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

function minimalPdf(title: string): Buffer {
  const text = `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj\n4 0 obj << /Length ${title.length + 24} >> stream\nBT /F1 12 Tf 72 720 Td (${title}) Tj ET\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

function document(stem: string, extension: string, contentType: string, content: Buffer): SampleDocument {
  return { stem, extension, contentType, content, size: content.length, sha256: createHash('sha256').update(content).digest('hex') };
}

export const SAMPLE_DOCUMENTS: readonly SampleDocument[] = [
  document('appraisal-report', 'pdf', 'application/pdf', minimalPdf('Appraisal report')),
  document('engagement-letter', 'pdf', 'application/pdf', minimalPdf('Engagement letter')),
  document(
    'inspection-notes',
    'txt',
    'text/plain',
    Buffer.from('Inspection notes\n- roof: fair\n- HVAC: replaced 2019\n- foundation: no visible cracks\n', 'utf8'),
  ),
  document(
    'comparable-sales',
    'csv',
    'text/csv',
    Buffer.from('address,sale_date,price,gla\n"12 Oak St",2025-03-14,415000,1840\n"98 Elm Ave",2025-04-02,389500,1710\n', 'utf8'),
  ),
  document('site-photo', 'png', 'image/png', PNG_1X1),
  document(
    'rent-roll',
    'json',
    'application/json',
    Buffer.from('{"units":[{"unit":"101","rent":1450},{"unit":"102","rent":1395}]}\n', 'utf8'),
  ),
];
