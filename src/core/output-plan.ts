// The output plan: how this run writes its records, resolved once where the context is made
// (factory.ts) and handed to every writer on `ctx.output`. The format (-o, else the `--out` file's
// extension, else the terminal default: table on a terminal, json otherwise), the fields (--fields), the
// one sink records go to (sink-plan.ts: stdout, one file, a resumable file export, or numbered parts,
// from the global flags and the list's own, output-flags.ts), colour and the width to fit. Nothing
// after it reads the flags to decide a format or a sink; the `--out` path is checked (lstat, stat) at
// most once, by target().
//
// The plan never throws while it is made (a command such as `files download --out x.pdf` or `api
// --out body.bin` uses --out for bytes, not records): an extension that names no format is kept and
// thrown by `format`, the first time a writer asks for one.
import { extname, resolve } from 'node:path';
import { csvStyleOf, type CsvStyle } from './csv-style.js';
import { UsageError } from './errors.js';
import { fieldSelection, type FieldSelection, type Projection } from './field-paths.js';
import type { GlobalOptions, OutputFormat } from './global-options.js';
import { checkOutPath, type OutTarget } from './out-path.js';
import { planSink, type OutputFlags, type ResumeMode, type SinkPlan, type SplitLimits } from './sink-plan.js';

export { BOM, formatIdentity, type CsvDelimiter, type CsvStyle } from './csv-style.js';
export { fieldSelection, parseFieldPath, type FieldPath, type FieldSelection } from './field-paths.js';
export type { ResumeMode, RowOutputs, SinkPlan, SplitLimits } from './sink-plan.js';

/** The encoders a list is written with as text; a Parquet file is written by its own sink, column by column. */
export type EncoderKind = Exclude<OutputFormat, 'parquet'>;

/** The encoder a format names, chosen with it (parquet: none; an --out extension that names no format: its error). */
function encoderOf(format: OutputFormat | UsageError): EncoderKind | undefined | UsageError {
  return format === 'parquet' ? undefined : format;
}

const BY_EXTENSION: Readonly<Record<string, OutputFormat>> = {
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
  '.parquet': 'parquet',
};

/** What the plan is made from: the global options and the facts about stdout. */
export interface OutputPlanInput {
  globals: Pick<GlobalOptions, 'output' | 'out' | 'fields' | 'page' | 'delimiter' | 'bom'>;
  /** The list's own output flags (--resume, --split-rows, --wide…), when its verb declares them (output-flags.ts). */
  flags?: OutputFlags | undefined;
  cwd: string;
  stdoutIsTTY: boolean;
  /** Colour enabled (--no-color, NO_COLOR). */
  color: boolean;
  /** The terminal's columns, when stdout is one. */
  columns: number | undefined;
  /** $COLUMNS. */
  columnsVariable: string | undefined;
}

interface PlanParts {
  format: OutputFormat | UsageError;
  formatExplicit: boolean;
  /** The text encoder the format names (output/sinks.ts maps it to its part); undefined for parquet. */
  encoder: EncoderKind | undefined | UsageError;
  fields: FieldSelection | undefined | UsageError;
  /** --delimiter and --bom (csv-style.ts). */
  csv: CsvStyle | UsageError;
  /** `--out` as given and resolved; undefined for stdout. */
  out: { given: string; path: string } | undefined;
  sink: SinkPlan | UsageError;
  /** --wide: a table keeps every column; undefined for a verb that has no --wide. */
  wide: boolean | undefined;
  color: boolean;
  width: number | undefined;
  terminal: boolean;
  /** The one check of the --out path (run at most once). */
  target: (() => Promise<OutTarget>) | undefined;
  /** -o against the --out file's extension, when they disagree (formatAgainstName). */
  mismatch: string | undefined;
}

/** What `-o` writes into an --out file whose extension names another format (`-o parquet --out x.csv`), said by the context. */
function formatAgainstName(given: OutputFormat | undefined, out: string | undefined): string | undefined {
  if (given === undefined || out === undefined) return undefined;
  const named = BY_EXTENSION[extname(out).toLowerCase()];
  return named === undefined || named === given ? undefined : `-o ${given} writes ${given} into ${out}, whose name says ${named}`;
}

/** -o, else the --out extension, else the terminal default (the one place the default is decided). */
function formatFor(given: OutputFormat | undefined, out: string | undefined, stdoutIsTTY: boolean): OutputFormat | UsageError {
  if (given !== undefined) return given;
  if (out === undefined) return stdoutIsTTY ? 'table' : 'json';
  // A file is not a terminal: never a table unless asked for; and never a guess.
  const extension = extname(out).toLowerCase();
  return (
    BY_EXTENSION[extension] ??
    new UsageError(`--out ${out}: ${extension === '' ? 'no file extension' : `unknown extension ${extension}`} to tell the format from`, {
      hint: 'name the file .json, .ndjson, .jsonl, .csv or .parquet, or give the format with -o json|ndjson|csv|parquet|table',
    })
  );
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

const whole: Projection = (record) => record;

export class OutputPlan {
  readonly #parts: PlanParts;

  private constructor(parts: PlanParts) {
    this.#parts = parts;
  }

  static from(input: OutputPlanInput): OutputPlan {
    const out = input.globals.out === '-' ? undefined : input.globals.out;
    const fields = input.globals.fields;
    let selection: FieldSelection | undefined | UsageError;
    try {
      // Each name once: `--fields id,id` gave two `id` columns. (Export's --fields, which names
      // families, reads the same words its own way and keeps each field once per family.)
      selection = fields === undefined || fields.length === 0 ? undefined : fieldSelection([...new Set(fields)]);
    } catch (error) {
      selection = error as UsageError;
    }
    const columns = Number(input.columnsVariable);
    const width =
      out !== undefined
        ? undefined
        : input.stdoutIsTTY && input.columns !== undefined && input.columns > 0
          ? input.columns
          : Number.isInteger(columns) && columns >= 20
            ? columns
            : undefined;
    const file = out === undefined ? undefined : { given: out, path: resolve(input.cwd, out) };
    const format = formatFor(input.globals.output, out, input.stdoutIsTTY);
    return new OutputPlan({
      format,
      formatExplicit: input.globals.output !== undefined,
      encoder: encoderOf(format),
      fields: selection,
      csv: csvStyleOf(input.globals.delimiter, input.globals.bom, format),
      out: file,
      sink: planSink({ out: file, format, flags: input.flags, page: input.globals.page, cwd: input.cwd }),
      wide: input.flags === undefined ? undefined : input.flags.wide === true,
      color: input.color && input.stdoutIsTTY && out === undefined,
      width,
      terminal: input.stdoutIsTTY && out === undefined,
      target: out === undefined ? undefined : once(() => checkOutPath(input.cwd, out)),
      mismatch: formatAgainstName(input.globals.output, out),
    });
  }

  /** The format records are written in. Throws the usage error of an --out extension that names none. */
  get format(): OutputFormat {
    const format = this.#parts.format;
    if (format instanceof UsageError) throw format;
    return format;
  }

  /** -o was given (some commands change their default, e.g. keys create). */
  get formatExplicit(): boolean {
    return this.#parts.formatExplicit;
  }

  /**
   * The encoder records are written with as text, chosen with the format when the plan was made
   * (output/sinks.ts finds its part). Throws the format's usage error. Parquet has none: a list's
   * Parquet file is written by its own sink, which never asks, and one record is not a Parquet file.
   */
  get encoder(): EncoderKind {
    const encoder = this.#parts.encoder;
    if (encoder instanceof UsageError) throw encoder;
    if (encoder === undefined)
      throw new UsageError('-o parquet writes a list to a file; one record is shown with -o json, ndjson, csv or table');
    return encoder;
  }

  /** `--fields` when given, else undefined (json/ndjson print whole records, csv every field). */
  get fields(): FieldSelection | undefined {
    const fields = this.#parts.fields;
    if (fields instanceof UsageError) throw fields;
    return fields;
  }

  /** How a csv is written: its cell separator and whether it starts with a BOM. Throws the usage error of a bad --delimiter, or of either without csv. */
  get csv(): CsvStyle {
    const csv = this.#parts.csv;
    if (csv instanceof UsageError) throw csv;
    return csv;
  }

  /** json, ndjson and Parquet write the record, or only its --fields (the projection compiled once, with the selection). */
  get projection(): Projection {
    return this.fields?.project ?? whole;
  }

  /**
   * The one sink records go to (stdout, an atomic file, a resumable file export, parts), chosen when
   * the plan was made. Throws the usage error its flags earned (see sink-plan.ts).
   */
  get sink(): SinkPlan {
    const sink = this.#parts.sink;
    if (sink instanceof UsageError) throw sink;
    return sink;
  }

  /** The file `--out` names (as given); undefined for stdout. */
  get outPath(): string | undefined {
    return this.#parts.out?.given;
  }

  /** --wide: a table keeps every column whatever the terminal's width (undefined: the verb has no --wide). */
  get wide(): boolean | undefined {
    return this.#parts.wide;
  }

  /** Colour only for a person: colour enabled, a terminal, and not writing to a file. */
  get color(): boolean {
    return this.#parts.color;
  }

  /** The width a table fits: the terminal's, else $COLUMNS; none for a file. */
  get width(): number | undefined {
    return this.#parts.width;
  }

  /** `-o` and the --out file's extension name two formats: what to warn of (the file is written as -o says). */
  get mismatch(): string | undefined {
    return this.#parts.mismatch;
  }

  /** Output goes to a person's terminal (not a file, not a pipe): cell text is made terminal-safe. */
  get terminal(): boolean {
    return this.#parts.terminal;
  }

  /** The --out path checked (once per run; UsageError, exit 2, for a bad one). Undefined for stdout. */
  target(): Promise<OutTarget | undefined> {
    return this.#parts.target?.() ?? Promise.resolve(undefined);
  }

  /**
   * Check everything about the output before any request: the flags' rules (the sink), the --out
   * path (once per run) and the format. UsageError (exit 2) for the first problem.
   */
  async ready(): Promise<void> {
    void this.sink;
    await this.target();
    void this.format;
    void this.csv;
  }

  /**
   * The same checks for a verb that writes one record (`writesOne`): its format must write one (not
   * parquet) and its --out be writable before the verb acts, so a create, an update or a new key is
   * never made and then reported as failed for a flag that could have been refused first.
   */
  async readyForOne(): Promise<void> {
    void this.encoder;
    await this.target();
    void this.csv;
  }

  /**
   * The plan of one file of a snapshot (`export --dir`): the snapshot's format, whole records unless
   * `fields` are given, no terminal. `given` is the path as notices show it (where the snapshot will
   * put the file); `path` is where it is written, and what is checked. `how`: in parts, or a
   * resumable export (a partial file and checkpoint), else one file written atomically.
   */
  forFile(
    file: { path: string; given: string; format: OutputFormat; fields?: readonly string[] | undefined },
    cwd: string,
    how: { split?: SplitLimits | undefined; resume?: ResumeMode | undefined } = {},
  ): OutputPlan {
    const { path, given, format, fields } = file;
    const out = { given, path };
    return new OutputPlan({
      format,
      formatExplicit: true,
      encoder: encoderOf(format),
      fields: fields === undefined || fields.length === 0 ? undefined : fieldSelection(fields),
      // The snapshot's csv files are written as the run's --delimiter and --bom say.
      csv: this.#parts.csv,
      out,
      sink:
        format === 'parquet'
          ? { kind: 'parquet', ...out }
          : how.split
            ? { kind: 'parts', ...out, split: how.split }
            : how.resume
              ? { kind: 'resumable', ...out, mode: how.resume }
              : { kind: 'file', ...out },
      wide: undefined,
      color: false,
      width: undefined,
      terminal: false,
      target: once(() => checkOutPath(cwd, path)),
      mismatch: undefined,
    });
  }
}
