// Where the text of an output goes: the interface every writer implements. stdout
// (stdout-destination.ts), the atomic `--out` file (atomic-out-file.ts), a resumable export's partial
// file (resumable.ts); files in numbered parts (split.ts) are a RecordSink of their own (sink.ts).
// The file writers share one buffered writer (buffered-writer.ts); which one a run uses is the output
// plan's choice (core/output-plan.ts), made by openDestination (record-writer.ts) and the list runner.

export interface Destination {
  /** Write text; resolves once accepted. False when the reader has gone away: stop producing. */
  write(text: string): Promise<boolean>;
  /** Everything was written: flush, and for --out sync and move the file into place. */
  finish(): Promise<void>;
  /** Something failed: drop what was written (removes the temp file). Never throws. */
  discard(): Promise<void>;
  /** The path as the user gave it, for notices; undefined for stdout. */
  readonly displayPath: string | undefined;
}
