// The one interface every sink implements: where the record pump (pipe.ts) puts records. The
// output plan (core/sink-plan.ts) names one per run and sinks.ts opens it (a text one with the
// encoder the plan named): stdout, one file written atomically, a resumable file export, numbered
// parts (split.ts). A sink that takes rows elsewhere (a database table, a Parquet file) implements the same few methods: begin, record, end, then finish
// (make it durable and visible) or discard (leave nothing half-written).
import type { PageDone, PaginateResume } from '../core/api-client.js';

/** One file written, as a manifest lists it. */
export interface FilePart {
  /** Base name, relative to the directory of `path`. */
  file: string;
  records: number;
  bytes: number;
  sha256: string;
}

/** What an interrupted export had written, where its source continues (--resume). */
export interface Resumed {
  /** Records already in the output. */
  written: number;
  /** The page after which paging continues. */
  from: PaginateResume;
}

export interface RecordSink {
  /** Start the output (a csv header…), or continue a resumed one. False when the reader has gone away: stop producing. */
  begin(): Promise<boolean>;
  record(record: Record<string, unknown>): Promise<boolean>;
  /** After the last record, given how many there were in all. */
  end(count: number): Promise<void>;
  /** Everything was written: make it durable and move it into place. */
  finish(): Promise<void>;
  /** Something failed: drop what was written. Never throws. */
  discard(): Promise<void>;
  /** What the "Wrote N records to …" notice names; undefined for stdout. */
  describe(): string | undefined;
  /** A resumable export continued (--resume): where its source picks up. */
  readonly resumed?: Resumed | undefined;
  /** A page of the source is complete, every record of it handed over (`written` in all): a resumable export checkpoints it. */
  pageDone?(done: PageDone, written: number): Promise<void>;
  /** The files written, once finish() resolved (parts: name, records, bytes, sha256). */
  files?(): FilePart[];
  /** After the output: what its encoder has to say of the records (a csv's fields no column held). */
  report?(): void;
}
