// The sinks and the encoders as parts: one part per kind of sink the output plan can name
// (core/sink-plan.ts) opens it behind the one RecordSink interface (sink.ts), and a text sink writes
// with the part of the encoder the plan named (ctx.output.encoder: json.ts, ndjson.ts, csv.ts,
// table.ts). The plan chose both when the context was made; these tables only find their parts:
// nothing here weighs flags or formats. The stdout part's destination is here too (stdoutDestination:
// backpressure, batching, ending quietly when the reader goes away, as with `| head`), also where
// one record goes (record-writer.ts).
import type { Writable } from 'node:stream';
import type { Context } from '../core/context.js';
import { LocalEnvironmentError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import type { EncoderKind, SinkPlan } from '../core/output-plan.js';
import { atomicOutFile } from './atomic-out-file.js';
import { exportIdentity, type ExportedCollection } from './checkpoint.js';
import { CsvPart } from './csv.js';
import type { Destination } from './destination.js';
import type { EncoderPart, ListEncoders } from './encoder.js';
import { JsonPart } from './json.js';
import { NdjsonPart } from './ndjson.js';
import { openResumableExport } from './resumable.js';
import type { RecordSink, Resumed } from './sink.js';
import { openFilesSink } from './split.js';
import { TablePart } from './table.js';
import type { View } from './view.js';
import { fileErrorWords } from '../core/file-error-words.js';

const ENCODERS: { readonly [K in EncoderKind]: EncoderPart } = {
  json: new JsonPart(),
  ndjson: new NdjsonPart(),
  csv: new CsvPart(),
  table: new TablePart(),
};

/** The part of the encoder the plan named (one record is written with it too: record-writer.ts). */
export function encoderPart(ctx: Context): EncoderPart {
  return ENCODERS[ctx.output.encoder];
}

/** The run's encoders, of the kind the plan named. */
function openEncoders(ctx: Context, view: View): ListEncoders {
  return encoderPart(ctx).encoders(ctx, view);
}

/** One encoder writing into one destination; `resumed`: the destination already holds the start of the output. */
async function encoderSink(encoders: ListEncoders, destination: Destination, resumed?: Resumed): Promise<RecordSink> {
  const encoder = await encoders.encoder();
  return {
    resumed,
    describe: () => destination.displayPath,
    begin: async () => {
      if (!resumed) return destination.write(encoder.begin());
      encoder.resume?.(resumed.written);
      return true;
    },
    record: (record) => destination.write(encoder.record(record)),
    end: async (count) => {
      await destination.write(encoder.end(count));
    },
    finish: () => destination.finish(),
    discard: () => destination.discard(),
    report: () => encoders.report(),
  };
}

// stdout's destination: with backpressure, ending quietly when the reader goes away.
function waitForDrain(stream: Writable): Promise<void> {
  return new Promise((resolveWait) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('error', done);
      stream.off('close', done);
      resolveWait();
    };
    stream.on('drain', done);
    stream.on('error', done);
    stream.on('close', done);
  });
}

export interface StdoutOptions {
  /**
   * Gather what is written while records keep coming without waiting (a page already received) into
   * one write: flushed when the producer next waits for I/O (the event loop turns), at 64 KiB, and
   * at the end. One write per page instead of one per record (stdout to a file or a pipe is a
   * syscall per write). For paged lists only: a producer that never waits would be stopped by a
   * closed reader only a batch later.
   */
  batch?: boolean;
}

const BATCH_BYTES = 64 * 1024;

/** The run's stdout (`io.stdout`), watched by its IO (`io.stdoutWatch`: the reader gone, an error). */
export function stdoutDestination(io: Pick<IO, 'stdout' | 'stdoutWatch'>, options: StdoutOptions = {}): Destination {
  const stream = io.stdout;
  const state = io.stdoutWatch;
  const gone = () => state.gone || stream.destroyed || stream.writableEnded;
  const check = () => {
    if (state.error) throw new LocalEnvironmentError(`could not write the output: ${fileErrorWords(state.error)}`, { cause: state.error });
  };
  const writeNow = async (text: string): Promise<boolean> => {
    check();
    if (gone()) return false;
    if (text === '') return true;
    if (!stream.write(text)) {
      // A destroyed stream answers false and will never drain.
      if (gone()) return false;
      await waitForDrain(stream);
      check();
    }
    return !gone();
  };
  if (!options.batch) return { displayPath: undefined, write: writeNow, finish: async () => check(), discard: async () => {} };

  let batch = '';
  let scheduled: NodeJS.Immediate | undefined;
  // A flush the event loop started; the next write waits for it, so order and backpressure hold.
  let flushing: Promise<boolean> = Promise.resolve(true);
  const flush = (): Promise<boolean> => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    const text = batch;
    batch = '';
    flushing = flushing.then((open) => (open ? writeNow(text) : false));
    return flushing;
  };
  return {
    displayPath: undefined,
    async write(text) {
      if (!(await flushing)) return false;
      check();
      if (gone()) return false;
      batch += text;
      if (batch.length >= BATCH_BYTES) return flush();
      // Stream errors surface on the next write or at finish(); a failed flush must not go unhandled.
      scheduled ??= setImmediate(() => void flush().catch(() => undefined));
      return true;
    },
    async finish() {
      await flush();
      check();
    },
    async discard() {
      if (scheduled) clearImmediate(scheduled);
      scheduled = undefined;
      batch = '';
    },
  };
}

/** Records pulled from a source; an import's rows are pushed into their own sink (row-sink.ts). */
type PulledKind = Exclude<SinkPlan['kind'], 'rows'>;

/** What an opener is given: the run, the view, the exported collection. */
interface SinkInput<K extends PulledKind> {
  ctx: Context;
  plan: Extract<SinkPlan, { kind: K }>;
  view: View;
  exported: ExportedCollection | undefined;
  /** The source hands over records in bursts, waiting between them (a list's pages, a query's chunks). */
  bursts: boolean;
}

/** The part that opens one kind of sink. */
interface SinkPart<K extends PulledKind> {
  openRecords(input: SinkInput<K>): Promise<RecordSink>;
}

class StdoutPart implements SinkPart<'stdout'> {
  async openRecords({ ctx, view, bursts }: SinkInput<'stdout'>): Promise<RecordSink> {
    // A collection's pages (a query's chunks) arrive whole: stdout gets one write per page, not one per record.
    return encoderSink(openEncoders(ctx, view), stdoutDestination(ctx.io, { batch: bursts }));
  }
}

class FilePart implements SinkPart<'file'> {
  async openRecords({ ctx, view }: SinkInput<'file'>): Promise<RecordSink> {
    const encoders = openEncoders(ctx, view);
    return encoderSink(encoders, await atomicOutFile(ctx.output));
  }
}

class ResumablePart implements SinkPart<'resumable'> {
  async openRecords({ ctx, view, exported }: SinkInput<'resumable'>): Promise<RecordSink> {
    if (!exported) throw new Error('a resumable export needs the collection it exports');
    const encoders = openEncoders(ctx, view);
    const opened = await openResumableExport(ctx, ctx.output, await exportIdentity(ctx, ctx.output, exported));
    const sink = await encoderSink(
      encoders,
      opened.destination,
      opened.resumeFrom && { written: opened.resumedWritten, from: opened.resumeFrom },
    );
    return { ...sink, pageDone: opened.pageDone };
  }
}

class ParquetPart implements SinkPart<'parquet'> {
  async openRecords({ ctx, view }: SinkInput<'parquet'>): Promise<RecordSink> {
    return (await import('./parquet.js')).openParquetSink(ctx, view.recordSchema);
  }
}

class PartsPart implements SinkPart<'parts'> {
  async openRecords({ ctx, plan, view }: SinkInput<'parts'>): Promise<RecordSink> {
    const encoders = openEncoders(ctx, view);
    const target = (await ctx.output.target())!;
    const sink = openFilesSink(
      { path: plan.path, displayPath: plan.given, format: ctx.output.format, csv: ctx.output.csv, split: plan.split, mode: target.mode },
      () => encoders.encoder(),
    );
    return { ...sink, report: () => encoders.report() };
  }
}

const PARTS: { readonly [K in PulledKind]: SinkPart<K> } = {
  stdout: new StdoutPart(),
  file: new FilePart(),
  resumable: new ResumablePart(),
  parquet: new ParquetPart(),
  parts: new PartsPart(),
};

/**
 * The plan's one sink, opened. `exported`: the collection a list exports (what a resumable export's
 * checkpoint records; its pages come in bursts). `bursts`: another source whose records come so.
 */
export function openSink(ctx: Context, view: View, exported?: ExportedCollection, bursts = exported !== undefined): Promise<RecordSink> {
  const plan = ctx.output.sink;
  if (plan.kind === 'rows') throw new Error("an import's rows are pushed into the rows sink (openRowSink), not pumped");
  return (PARTS[plan.kind] as SinkPart<PulledKind>).openRecords({ ctx, plan, view, exported, bursts });
}
