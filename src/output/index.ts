// The output API, the one module commands import from: writers of records (record-writer.ts), the
// destinations and --out writers, progress, and the export files. No logic lives here.
export {
  countOf,
  droppedNotice,
  openDestination,
  prepareDestination,
  writeRecord,
  writeRecords,
  type View,
  type WriteOptions,
} from './record-writer.js';
export type { Destination } from './destination.js';
export { stdoutDestination, type StdoutOptions } from './stdout-destination.js';
export { BufferedFileWriter, writeFailure } from './buffered-writer.js';
export { createTempBeside, finalMode, type TempFile } from './atomic-out-file.js';
export { csvCell, csvRow } from './csv.js';
export { cellText, getField } from './fields.js';
export { createProgress, formatCount, type Progress } from './progress.js';
export { jsonDocument } from './json.js';
export { safeText } from './table.js';
export { manifestPath, partPath, type FilePart, type FilesTarget, type SplitLimits } from './split.js';
export { lockOut, openResumableExport, partialPaths, type ResumableExport } from './resumable.js';
export type { ExportIdentity } from './checkpoint.js';
