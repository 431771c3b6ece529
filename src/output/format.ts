// Which format and which fields: `-o` when given; with `--out PATH` and no `-o`, the file's extension
// (.json, .ndjson/.jsonl, .csv; any other is a usage error); otherwise the resolved default (table on a terminal).
import { extname } from 'node:path';
import type { Context, OutputFormat } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { outPath } from './destination.js';
import { parseFieldPath, type FieldPath } from './fields.js';

const BY_EXTENSION: Readonly<Record<string, OutputFormat>> = {
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
};

export function outputFormat(ctx: Context): OutputFormat {
  const { output, outputExplicit } = ctx.globals;
  const out = outPath(ctx);
  if (outputExplicit || out === undefined) return output;
  // A file is not a terminal: never a table unless asked for; and never a guess.
  const extension = extname(out).toLowerCase();
  const format = BY_EXTENSION[extension];
  if (format === undefined) {
    throw new UsageError(
      `--out ${out}: ${extension === '' ? 'no file extension' : `unknown extension ${extension}`} to tell the format from`,
      {
        hint: 'name the file .json, .ndjson, .jsonl or .csv, or give the format with -o json|ndjson|csv|table',
      },
    );
  }
  return format;
}

export interface FieldSelection {
  /** As given, for header rows. */
  names: readonly string[];
  paths: readonly FieldPath[];
}

function selection(names: readonly string[]): FieldSelection {
  const paths = names.map((name) => {
    const path = parseFieldPath(name);
    if (path.some((key) => key === '')) throw new UsageError(`--fields: "${name}" is not a field path (use names like id,address.city)`);
    return path;
  });
  return { names, paths };
}

/** `--fields` when given, else undefined (json/ndjson then print whole records). */
export function requestedFields(ctx: Context): FieldSelection | undefined {
  const fields = ctx.globals.fields;
  return fields === undefined || fields.length === 0 ? undefined : selection(fields);
}

/** Columns for table and csv: `--fields`, else the view's defaults. */
export function columnFields(ctx: Context, columns: readonly string[]): FieldSelection {
  return requestedFields(ctx) ?? selection(columns);
}
