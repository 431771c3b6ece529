// Where the text of an encoder goes, beneath a sink (sink.ts encoderSink): stdout
// (sinks.ts, with the stdout part), the atomic `--out` file (atomic-out-file.ts), a resumable export's partial
// file (resumable.ts); files in numbered parts (split.ts) are a sink of their own. The file writers
// share one buffered writer (buffered-writer.ts); which one a run uses is the output plan's choice
// (core/sink-plan.ts), opened by sinks.ts (and openDestination for one record or a text output).

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
