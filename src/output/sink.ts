// Where the record pump (record-pump.ts) puts records: a format's text into one destination (stdout,
// --out, a resumable partial), or a set of files that may be split into parts (split.ts).
import type { ListEncoder } from './encoder.js';
import type { Destination } from './destination.js';

export interface RecordSink {
  /** Start the output (a csv header…). False when the reader has gone away: stop producing. */
  begin(): Promise<boolean>;
  /** Continue an output whose first `count` records are already written (--resume). */
  resume(count: number): void;
  record(record: Record<string, unknown>): Promise<boolean>;
  /** After the last record, given how many there were in all. */
  end(count: number): Promise<void>;
  /** Everything was written: make it durable and move it into place. */
  finish(): Promise<void>;
  /** Something failed: drop what was written. Never throws. */
  discard(): Promise<void>;
  /** For the "Wrote N records to …" notice; undefined for stdout. */
  readonly displayPath: string | undefined;
}

/** One encoder writing into one destination. */
export function encoderSink(encoder: ListEncoder, destination: Destination): RecordSink {
  return {
    displayPath: destination.displayPath,
    begin: () => destination.write(encoder.begin()),
    resume: (count) => encoder.resume?.(count),
    record: (record) => destination.write(encoder.record(record)),
    end: async (count) => {
      await destination.write(encoder.end(count));
    },
    finish: () => destination.finish(),
    discard: () => destination.discard(),
  };
}
