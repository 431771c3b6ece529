// What every list format provides: text to write before, for, and after the records. Encoders are
// pure (no IO), so index.ts owns streaming, backpressure and --out in one place for all formats.

export interface ListEncoder {
  /** Text before the first record (a csv header row; '' for most formats). */
  begin(): string;
  /** Text for one record; '' while a format buffers (table). */
  record(record: Record<string, unknown>): string;
  /** Text after the last record, given how many there were. */
  end(count: number): string;
  /** Continue an export whose first `count` records (and begin()) are already written (--resume). */
  resume?(count: number): void;
}
