// The import's flags, checked before anything is read or sent: the input and its format, where the
// results, the failed rows and the journal go (the journal belongs to the results path: a hidden
// `.NAME.journal` and `.NAME.lock` beside it, as export checkpoints are), --match, --map,
// --stop-after-errors, --client and --property-match.
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { requireUuid } from '../../core/ids.js';
import { FAMILIES, isImportable, type ResourceFamily } from '../../core/resources.js';
import type { RowOutputs, SinkFile } from '../../core/sink-plan.js';
import type { InputFormat } from './input-source.js';
import { checkReadable, inputFormat } from './input.js';
import { INPUT_ENCODINGS, type InputEncoding } from './input-text.js';
import { parseRename } from './typed-row.js';

export interface ImportOptions {
  format?: string;
  encoding?: string;
  match?: string;
  dryRun?: boolean;
  results?: string;
  failed?: string;
  map?: string;
  stopAfterErrors?: string;
  client?: string;
  propertyMatch?: string;
}

export interface ImportFlags {
  file: string;
  /** Absolute path; undefined for stdin. */
  inputPath: string | undefined;
  format: InputFormat;
  /** --format was given (the command that imports the rows to fix repeats it). */
  formatGiven: boolean;
  encoding: InputEncoding;
  match: string[] | undefined;
  dryRun: boolean;
  results: { path: string; display: string; journal: string; lock: string } | undefined;
  failed: { path: string; display: string } | undefined;
  rename: Map<string, string> | undefined;
  mapDisplay: string | undefined;
  stopAfterErrors: number | undefined;
  client: string | undefined;
  propertyMatch: string[] | undefined;
}

const EXTENSIONS: Record<InputFormat, string> = { csv: 'csv', ndjson: 'ndjson', json: 'json' };

/** `data.csv` → `data.results.csv` beside it. */
function beside(path: string, tag: string, extension: string): string {
  const name = basename(path).replace(/\.(csv|ndjson|jsonl|json)$/i, '');
  return join(dirname(path), `${name}.${tag}.${extension}`);
}

function fieldPath(value: string, flag: string): string[] {
  const path = value.trim().split('.');
  if (value.trim() === '' || path.some((key) => key === '' || key === '__proto__' || key === 'constructor' || key === 'prototype'))
    throw new UsageError(`${flag} ${value}: expected a field name such as parcelNumber or address.postalCode`);
  return path;
}

/**
 * Where an import's rows go, for its output plan (the verb's outputFlags): --results and --failed as
 * typed, else beside the input (`data.results.csv`, `data.failed.csv`); none for stdin or a dry run
 * (a dry run writes results only when asked, and never a journal). A file whose format cannot be told
 * gets no default --failed: importFlags refuses it before anything is written.
 */
export function rowOutputs(file: string, options: ImportOptions): RowOutputs {
  const besideInput = file !== '-' && options.dryRun !== true;
  let extension: string | undefined;
  try {
    extension = EXTENSIONS[inputFormat(file, options.format)];
  } catch {
    extension = undefined;
  }
  return {
    results: options.results ?? (besideInput ? beside(file, 'results', 'csv') : undefined),
    failed: options.failed ?? (besideInput && extension ? beside(file, 'failed', extension) : undefined),
  };
}

/** `outputs`: the files of the plan's rows sink (rowOutputs, resolved). */
export async function importFlags(
  family: ResourceFamily,
  file: string,
  options: ImportOptions,
  cwd: string,
  outputs: { results: SinkFile | undefined; failed: SinkFile | undefined },
): Promise<ImportFlags> {
  const inputPath = file === '-' ? undefined : resolve(cwd, file);
  // A missing, unreadable or directory input is found before the match index is read from the
  // service, and before its name's format is asked for: `foo.txt` that is not there is a missing
  // file, not a file of an unknown format.
  if (inputPath !== undefined) await checkReadable(inputPath, file);
  const format = inputFormat(file, options.format);
  const encoding = (options.encoding ?? 'utf-8') as InputEncoding;
  if (!INPUT_ENCODINGS.includes(encoding))
    throw new UsageError(`--encoding ${options.encoding}: expected one of ${INPUT_ENCODINGS.join(', ')}`);
  const dryRun = options.dryRun === true;
  let stopAfterErrors: number | undefined;
  if (options.stopAfterErrors !== undefined) {
    stopAfterErrors = Number(options.stopAfterErrors);
    if (!Number.isSafeInteger(stopAfterErrors) || stopAfterErrors < 1)
      throw new UsageError(`--stop-after-errors ${options.stopAfterErrors}: expected a whole number of at least 1`);
  }
  const resultsPath = outputs.results?.path;
  const failedPath = outputs.failed?.path;
  if (resultsPath !== undefined && resultsPath === inputPath) throw new UsageError('--results must not be the input file');
  if (failedPath !== undefined && (failedPath === inputPath || failedPath === resultsPath))
    throw new UsageError('--failed must be neither the input file nor the results file');
  let rename: Map<string, string> | undefined;
  if (options.map !== undefined) {
    let text: string;
    try {
      text = await readFile(resolve(cwd, options.map), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(`--map ${options.map}: ${code === 'ENOENT' ? 'no such file or directory' : (error as Error).message}`);
    }
    try {
      rename = parseRename(text, `--map ${options.map}`);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  // Both flags are made from the model (a parent link, a field referring to props): say which families have them.
  const namesOf = (test: (candidate: ResourceFamily) => boolean) =>
    FAMILIES.filter((candidate) => isImportable(candidate) && test(candidate))
      .map((candidate) => candidate.name)
      .join(', ');
  if (options.client !== undefined && family.parent?.option !== 'client')
    throw new UsageError(`--client applies to ${namesOf((candidate) => candidate.parent?.option === 'client')} only`, {
      hint: 'give the client of each record in its own column',
    });
  if (options.propertyMatch !== undefined && family.refers?.family !== 'props')
    throw new UsageError(`--property-match applies to ${namesOf((candidate) => candidate.refers?.family === 'props')} only`);
  const results = outputs.results
    ? {
        path: outputs.results.path,
        display: outputs.results.given,
        journal: join(dirname(outputs.results.path), `.${basename(outputs.results.path)}.journal`),
        lock: join(dirname(outputs.results.path), `.${basename(outputs.results.path)}.lock`),
      }
    : undefined;
  return {
    file,
    inputPath,
    format,
    formatGiven: options.format !== undefined,
    encoding,
    match: options.match === undefined ? undefined : fieldPath(options.match, '--match'),
    dryRun,
    results,
    failed: outputs.failed ? { path: outputs.failed.path, display: outputs.failed.given } : undefined,
    rename,
    mapDisplay: options.map,
    stopAfterErrors,
    client: options.client === undefined ? undefined : requireUuid(options.client, '--client'),
    propertyMatch: options.propertyMatch === undefined ? undefined : fieldPath(options.propertyMatch, '--property-match'),
  };
}
