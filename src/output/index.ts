// The output API commands import from: the pipe of records to the plan's one sink (pipe.ts, sinks.ts),
// one record (record-writer.ts), the --out writers, progress, and the export files. No logic lives
// here. (The list runner, shared/list-records.ts, imports its pipe and progress from their own
// modules, so a reader follows a list's journey file by file.)
export { openPipe, writeRecords, type RecordPipe } from './pipe.js';
export { openDestination, writeRecord } from './record-writer.js';
export { countOf, type View } from './view.js';
export { droppedNotice } from './table.js';
export type { RecordSink } from './sink.js';
export { openRowSink, type PushedRow, type RowSink, type RowSinkShape } from './row-sink.js';
export type { ExportedCollection } from './checkpoint.js';
export type { PublishedSchema } from './parquet-schema.js';
export type { Destination } from './destination.js';
export { stdoutDestination, type StdoutOptions } from './sinks.js';
export { BufferedFileWriter, writeFailure } from './buffered-writer.js';
export { createTempBeside, finalMode, type TempFile } from './atomic-out-file.js';
export { csvCell, csvRow } from './csv.js';
export { cellText, getField } from './fields.js';
export { createProgress, formatCount, type Progress } from './progress.js';
export { jsonDocument, jsonShown } from './json.js';
export { safeText } from './table.js';
export { manifestPath, partPath, type FilePart, type SplitLimits } from './split.js';
export { partialPaths } from './resumable.js';
export type { ExportIdentity } from './checkpoint.js';
