// The sinks as parts: one part per kind of sink the output plan can name (core/sink-plan.ts) opens it
// behind the one RecordSink interface (sink.ts). The plan chose the kind when the context was made;
// this table only finds its part: nothing here weighs flags or formats.
import type { Context } from '../core/context.js';
import type { SinkPlan } from '../core/output-plan.js';
import { atomicOutFile } from './atomic-out-file.js';
import { exportIdentity, type ExportedCollection } from './checkpoint.js';
import type { CsvColumns } from './csv-columns.js';
import { listEncoder, type View } from './list-encoder.js';
import { openResumableExport } from './resumable.js';
import { encoderSink, type RecordSink } from './sink.js';
import { openFilesSink } from './split.js';
import { stdoutDestination } from './stdout-destination.js';

/** Records pulled from a source; an import's rows are pushed into their own sink (row-sink.ts). */
type PulledKind = Exclude<SinkPlan['kind'], 'rows'>;

/** What an opener is given: the run, the view, the csv columns (one set for every file), the exported collection. */
interface SinkInput<K extends PulledKind> {
  ctx: Context;
  plan: Extract<SinkPlan, { kind: K }>;
  view: View;
  csv: CsvColumns | undefined;
  exported: ExportedCollection | undefined;
}

/** The part that opens one kind of sink. */
interface SinkPart<K extends PulledKind> {
  openRecords(input: SinkInput<K>): Promise<RecordSink>;
}

class StdoutPart implements SinkPart<'stdout'> {
  async openRecords({ ctx, view, csv, exported }: SinkInput<'stdout'>): Promise<RecordSink> {
    // A collection's pages arrive whole: stdout gets one write per page, not one per record.
    return encoderSink(await listEncoder(ctx, view, csv), stdoutDestination(ctx.io, { batch: exported !== undefined }));
  }
}

class FilePart implements SinkPart<'file'> {
  async openRecords({ ctx, view, csv }: SinkInput<'file'>): Promise<RecordSink> {
    return encoderSink(await listEncoder(ctx, view, csv), await atomicOutFile(ctx.output));
  }
}

class ResumablePart implements SinkPart<'resumable'> {
  async openRecords({ ctx, view, csv, exported }: SinkInput<'resumable'>): Promise<RecordSink> {
    if (!exported) throw new Error('a resumable export needs the collection it exports');
    const encoder = await listEncoder(ctx, view, csv);
    const opened = await openResumableExport(ctx, ctx.output, await exportIdentity(ctx, ctx.output, exported));
    const sink = encoderSink(encoder, opened.destination, opened.resumeFrom && { written: opened.resumedWritten, from: opened.resumeFrom });
    return { ...sink, pageDone: opened.pageDone };
  }
}

class ParquetPart implements SinkPart<'parquet'> {
  async openRecords({ ctx, view }: SinkInput<'parquet'>): Promise<RecordSink> {
    return (await import('./parquet.js')).openParquetSink(ctx, view.recordSchema);
  }
}

class PartsPart implements SinkPart<'parts'> {
  async openRecords({ ctx, plan, view, csv }: SinkInput<'parts'>): Promise<RecordSink> {
    const target = (await ctx.output.target())!;
    return openFilesSink(
      { path: plan.path, displayPath: plan.given, format: ctx.output.format, split: plan.split, mode: target.mode },
      () => listEncoder(ctx, view, csv),
    );
  }
}

const PARTS: { readonly [K in PulledKind]: SinkPart<K> } = {
  stdout: new StdoutPart(),
  file: new FilePart(),
  resumable: new ResumablePart(),
  parquet: new ParquetPart(),
  parts: new PartsPart(),
};

/** The plan's one sink, opened. `exported`: the collection a list exports (what a resumable export's checkpoint records). */
export function openSink(ctx: Context, view: View, csv: CsvColumns | undefined, exported?: ExportedCollection): Promise<RecordSink> {
  const plan = ctx.output.sink;
  if (plan.kind === 'rows') throw new Error("an import's rows are pushed into the rows sink (openRowSink), not pumped");
  return (PARTS[plan.kind] as SinkPart<PulledKind>).openRecords({ ctx, plan, view, csv, exported });
}
