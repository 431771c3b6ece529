// What every list format provides: text to write before, for, and after the records. Encoders are
// pure (no IO), so the sinks (sinks.ts) own streaming, backpressure and --out in one place for all
// formats. Each format is a part (json.ts, ndjson.ts, csv.ts, table.ts) that sinks.ts finds by the
// encoder the output plan named (ctx.output.encoder): nothing switches on the format at run time.
import type { Context } from '../core/context.js';
import type { View } from './view.js';

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

/** One run's encoders of one format, for records shown as one view. */
export interface ListEncoders {
  /** A new encoder (one per file: each part of a split export is a whole document). */
  encoder(): Promise<ListEncoder>;
  /** After the output: what the format has to say of the records (a csv's fields no column held). */
  report(): void;
}

/** The part of one format: opens its encoders for a list, or encodes one record. */
export interface EncoderPart {
  encoders(ctx: Context, view: View): ListEncoders;
  /** One record alone (`get`, `create`): json pretty-printed, a table as key/value rows, ndjson and csv as for a list. */
  one(ctx: Context, view: View, record: Record<string, unknown>): Promise<string>;
}
