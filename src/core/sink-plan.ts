// Which one sink a run writes its records to, decided once from its flags when the output plan is
// made (output-plan.ts), never again while records flow: stdout; one file written atomically; a
// resumable file export (a partial file and a checkpoint, --resume); numbered parts (--split-rows,
// --split-size); an import's row outcomes (--results, --failed). The rules between the flags live here, each refused with one line (exit 2): the
// plan keeps the refusal and throws it when a writer first asks (`ctx.output.ready()`), so a command
// that writes no records (`files download --out`) is never refused for them.
import { resolve } from 'node:path';
import { UsageError } from './errors.js';
import type { OutputFormat } from './global-options.js';
import { sizeInBytes } from './size.js';

/** The values of the list's own output options, as commander parsed them. */
export interface OutputFlags {
  resume?: boolean | undefined;
  restart?: boolean | undefined;
  splitRows?: string | undefined;
  splitSize?: string | undefined;
  wide?: boolean | undefined;
  /** --out is written whole, never resumed nor in parts: the verb declares --wide alone (`sql`). */
  wholeFile?: boolean | undefined;
  /** An import's row outputs (its verb names them: output-flags.ts RowOutputs). */
  rows?: RowOutputs | undefined;
}

/** The files an import's rows go to, as typed or defaulted beside the input; undefined: none. */
export interface RowOutputs {
  /** --results: every row and its outcome. */
  results: string | undefined;
  /** --failed: the rows to fix, in the input's own form. */
  failed: string | undefined;
}

/** When a part is full; either or both (`--split-rows`, `--split-size`). */
export interface SplitLimits {
  /** At most this many records per part. */
  rows: number | undefined;
  /** At most this many bytes per part (a single larger record goes alone). */
  bytes: number | undefined;
}

/** The limits the flags ask for; undefined when neither is given. UsageError (exit 2) for a bad value. */
export function splitLimits(flags: Pick<OutputFlags, 'splitRows' | 'splitSize'>): SplitLimits | undefined {
  const { splitRows, splitSize } = flags;
  if (splitRows === undefined && splitSize === undefined) return undefined;
  let rows: number | undefined;
  if (splitRows !== undefined) {
    rows = /^\s*\d+\s*$/.test(splitRows) ? Number(splitRows) : NaN;
    if (!Number.isSafeInteger(rows) || rows < 1)
      throw new UsageError(`--split-rows must be a whole number of records, at least 1; got "${splitRows.slice(0, 40)}"`);
  }
  let bytes: number | undefined;
  if (splitSize !== undefined) {
    bytes = sizeInBytes(splitSize);
    if (bytes === undefined || bytes < 1) {
      throw new UsageError(`--split-size must be a size such as 500MiB, 2GB, 64K or a number of bytes; got "${splitSize.slice(0, 40)}"`);
    }
  }
  return { rows, bytes };
}
export type ResumeMode = 'resume' | 'restart' | 'auto';

/** Where a file sink writes: `given` as typed (for messages), `path` absolute. */
export interface SinkFile {
  given: string;
  path: string;
}

/** The run's one sink, as the plan chose it. */
export type SinkPlan =
  | { kind: 'stdout' }
  /** `--out PATH` written whole to a temp file and renamed. */
  | ({ kind: 'file' } & SinkFile)
  /** `--out PATH` of a list: a partial file beside it with a checkpoint, continued by --resume. */
  | ({ kind: 'resumable'; mode: ResumeMode } & SinkFile)
  /** `--out PATH --split-rows/--split-size`: numbered parts beside PATH and a manifest. */
  | ({ kind: 'parts'; split: SplitLimits } & SinkFile)
  /** `-o parquet --out PATH`: typed columns, written whole to a temp file and renamed. */
  | ({ kind: 'parquet' } & SinkFile)
  /** An import: each row's outcome pushed as it finishes to --results, the rows to fix to --failed (each atomic). */
  | { kind: 'rows'; results: SinkFile | undefined; failed: SinkFile | undefined };

/** What the choice is made from. */
export interface SinkChoice {
  out: SinkFile | undefined;
  /** The format, or the usage error of an --out extension that names none. */
  format: OutputFormat | UsageError;
  /** The list's own output flags; undefined for a verb that declares none. */
  flags: OutputFlags | undefined;
  /** --page: one page is not resumed. */
  page: number | undefined;
  /** What relative paths are resolved against. */
  cwd: string;
}

function formatOf(format: OutputFormat | UsageError): OutputFormat {
  if (format instanceof UsageError) throw format;
  return format;
}

/** -o parquet: a binary file written whole, so never to stdout, in parts or resumed. */
function parquetSink(out: SinkFile | undefined, flags: OutputFlags | undefined): SinkPlan {
  if (!out) throw new UsageError('-o parquet needs --out FILE: a Parquet file is binary and written whole, never to stdout');
  const whole = 'a Parquet file is written whole (run it again to write it again)';
  if (flags?.splitRows !== undefined || flags?.splitSize !== undefined)
    throw new UsageError(`--split-rows and --split-size do not apply to -o parquet: ${whole}`);
  if (flags?.resume || flags?.restart) throw new UsageError(`--resume and --restart do not apply to -o parquet: ${whole}`);
  return { kind: 'parquet', ...out };
}

function choose({ out, format, flags, page, cwd }: SinkChoice): SinkPlan {
  if (flags?.rows) {
    const file = (given: string | undefined): SinkFile | undefined =>
      given === undefined ? undefined : { given, path: resolve(cwd, given) };
    return { kind: 'rows', results: file(flags.rows.results), failed: file(flags.rows.failed) };
  }
  if (format === 'parquet') return parquetSink(out, flags);
  if (flags === undefined || flags.wholeFile) return out ? { kind: 'file', ...out } : { kind: 'stdout' };
  const split = splitLimits(flags);
  if (split) {
    const flag = flags.splitRows !== undefined ? '--split-rows' : '--split-size';
    if (!out) throw new UsageError(`${flag} needs --out PATH: the parts are written beside it (PATH-0001.ext, …)`);
    if (flags.resume) {
      throw new UsageError(`${flag} cannot be combined with --resume: a split export is not resumable`, {
        hint: 'run it again without --resume; it writes nothing until every part is complete',
      });
    }
    if (formatOf(format) === 'table') throw new UsageError(`${flag} needs -o json, ndjson or csv: a table is not split into files`);
    return { kind: 'parts', ...out, split };
  }
  if (flags.resume && flags.restart) throw new UsageError('--resume and --restart cannot be used together');
  const asked = flags.resume ? '--resume' : flags.restart ? '--restart' : undefined;
  if (!out) {
    if (asked) throw new UsageError(`${asked} needs --out PATH: only an export to a file can be resumed`);
    return { kind: 'stdout' };
  }
  if (page !== undefined) {
    if (asked) throw new UsageError(`${asked} cannot be combined with --page: one page is not resumed`);
    return { kind: 'file', ...out };
  }
  if (formatOf(format) === 'table') {
    if (asked) throw new UsageError(`${asked} needs -o json, ndjson or csv: a table is not resumable`);
    return { kind: 'file', ...out };
  }
  return { kind: 'resumable', ...out, mode: flags.resume ? 'resume' : flags.restart ? 'restart' : 'auto' };
}

/** The sink, or the one usage error its flags earn (kept by the plan until a writer asks). */
export function planSink(choice: SinkChoice): SinkPlan | UsageError {
  try {
    return choose(choice);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}
