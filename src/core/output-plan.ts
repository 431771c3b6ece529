// The output plan: how this run writes its records, resolved once where the context is made
// (factory.ts) and handed to every writer on `ctx.output`. The format (-o, else the `--out` file's
// extension, else the terminal default: table on a terminal, json otherwise), the fields (--fields), the
// destination (stdout, one file, or numbered parts), whether the file export is resumable, colour and
// the width to fit. Nothing after it reads the global options to decide a format or a destination;
// the `--out` path is checked (lstat, stat) at most once, by target().
//
// The plan never throws while it is made (a command such as `files download --out x.pdf` or `api
// --out body.bin` uses --out for bytes, not records): an extension that names no format is kept and
// thrown by `format`, the first time a writer asks for one.
import { extname, resolve } from 'node:path';
import { UsageError } from './errors.js';
import type { GlobalOptions, OutputFormat } from './global-options.js';
import { checkOutPath, type OutTarget } from './out-path.js';

export type FieldPath = readonly string[];

export interface FieldSelection {
  /** As given, for header rows. */
  names: readonly string[];
  paths: readonly FieldPath[];
}

/** When a part is full; either or both (`--split-rows`, `--split-size`). */
export interface SplitLimits {
  /** At most this many records per part. */
  rows: number | undefined;
  /** At most this many bytes per part (a single larger record goes alone). */
  bytes: number | undefined;
}

export type ResumeMode = 'resume' | 'restart' | 'auto';

/** Where the records go. */
export type PlannedDestination =
  | { kind: 'stdout' }
  /** `--out PATH`: `given` as typed (for messages), `path` absolute. */
  | { kind: 'file'; given: string; path: string }
  /** `--out PATH --split-rows/--split-size`: numbered parts beside PATH and a manifest. */
  | { kind: 'parts'; given: string; path: string; split: SplitLimits };

const BY_EXTENSION: Readonly<Record<string, OutputFormat>> = {
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
};

export function parseFieldPath(path: string): FieldPath {
  return path.split('.');
}

/** `--fields id,address.city` as names and paths; UsageError for a path with an empty step. */
export function fieldSelection(names: readonly string[]): FieldSelection {
  const paths = names.map((name) => {
    const path = parseFieldPath(name);
    if (path.some((key) => key === '')) throw new UsageError(`--fields: "${name}" is not a field path (use names like id,address.city)`);
    return path;
  });
  return { names, paths };
}

/** What the plan is made from: the global options and the facts about stdout. */
export interface OutputPlanInput {
  globals: Pick<GlobalOptions, 'output' | 'out' | 'fields'>;
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
  fields: FieldSelection | undefined | UsageError;
  destination: PlannedDestination;
  resume: ResumeMode | undefined;
  color: boolean;
  width: number | undefined;
  terminal: boolean;
  /** The one check of the --out path, shared by every plan derived from this one for the same path. */
  target: (() => Promise<OutTarget>) | undefined;
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
      hint: 'name the file .json, .ndjson, .jsonl or .csv, or give the format with -o json|ndjson|csv|table',
    })
  );
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

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
      selection = fields === undefined || fields.length === 0 ? undefined : fieldSelection(fields);
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
    const path = out === undefined ? undefined : resolve(input.cwd, out);
    return new OutputPlan({
      format: formatFor(input.globals.output, out, input.stdoutIsTTY),
      formatExplicit: input.globals.output !== undefined,
      fields: selection,
      destination: out === undefined ? { kind: 'stdout' } : { kind: 'file', given: out, path: path! },
      resume: undefined,
      color: input.color && input.stdoutIsTTY && out === undefined,
      width,
      terminal: input.stdoutIsTTY && out === undefined,
      target: out === undefined ? undefined : once(() => checkOutPath(input.cwd, out)),
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

  /** `--fields` when given, else undefined (json/ndjson print whole records, csv every field). */
  get fields(): FieldSelection | undefined {
    const fields = this.#parts.fields;
    if (fields instanceof UsageError) throw fields;
    return fields;
  }

  get destination(): PlannedDestination {
    return this.#parts.destination;
  }

  /** The file `--out` names (as given); undefined for stdout. */
  get outPath(): string | undefined {
    const destination = this.#parts.destination;
    return destination.kind === 'stdout' ? undefined : destination.given;
  }

  /** For a resumable file export: how to treat a partial one (--resume, --restart, else auto). */
  get resume(): ResumeMode | undefined {
    return this.#parts.resume;
  }

  /** Colour only for a person: colour enabled, a terminal, and not writing to a file. */
  get color(): boolean {
    return this.#parts.color;
  }

  /** The width a table fits: the terminal's, else $COLUMNS; none for a file. */
  get width(): number | undefined {
    return this.#parts.width;
  }

  /** Output goes to a person's terminal (not a file, not a pipe): cell text is made terminal-safe. */
  get terminal(): boolean {
    return this.#parts.terminal;
  }

  /** The --out path checked (once per run; UsageError, exit 2, for a bad one). Undefined for stdout. */
  target(): Promise<OutTarget | undefined> {
    return this.#parts.target?.() ?? Promise.resolve(undefined);
  }

  /** This plan split into numbered parts (`--split-rows`/`--split-size`); needs a file destination. */
  inParts(split: SplitLimits): OutputPlan {
    const destination = this.#parts.destination;
    if (destination.kind === 'stdout') throw new Error('inParts: the plan writes to stdout');
    return new OutputPlan({ ...this.#parts, destination: { kind: 'parts', given: destination.given, path: destination.path, split } });
  }

  /** This plan writing a resumable file export. */
  resumable(mode: ResumeMode): OutputPlan {
    return new OutputPlan({ ...this.#parts, resume: mode });
  }

  /**
   * The plan of one file of a snapshot (`export --dir`): the snapshot's format, whole records unless
   * `fields` are given, no terminal. `given` is the path as notices show it (where the snapshot will
   * put the file); `path` is where it is written, and what is checked.
   */
  forFile(path: string, given: string, format: OutputFormat, cwd: string, fields?: readonly string[]): OutputPlan {
    return new OutputPlan({
      format,
      formatExplicit: true,
      fields: fields === undefined || fields.length === 0 ? undefined : fieldSelection(fields),
      destination: { kind: 'file', given, path },
      resume: undefined,
      color: false,
      width: undefined,
      terminal: false,
      target: once(() => checkOutPath(cwd, path)),
    });
  }
}
