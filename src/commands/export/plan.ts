// What one `appraisal export` run is asked to do, checked before anything is read or written: the
// families (in a fixed order), the format, the directory and what to do with an existing one or an
// interrupted run, the incremental start (`--since-last` / `--since`, `--overlap`) and the fields
// kept per family (`--fields props=id,name --fields clients=id,name`).
import { resolve } from 'node:path';
import type { Context } from '../../core/context.js';
import type { OutputFormat } from '../../core/global-options.js';
import { parseDuration } from '../../core/duration.js';
import { UsageError } from '../../core/errors.js';
import { fieldSelection, type CsvStyle } from '../../core/output-plan.js';
import { FAMILIES, FAMILY_NAMES, findFamily, hasRecords, type FamilyName, type ResourceFamily } from '../../core/resources.js';
import { requireTimestamp } from '../shared/query.js';
import { splitLimits, type SplitLimits } from '../../core/sink-plan.js';

/** What a snapshot holds when --families is not given: every family with records of its own (the organization's data; reference data only when named). */
export const DEFAULT_FAMILIES: readonly FamilyName[] = FAMILIES.filter(hasRecords).map((family) => family.name);
export const EXPORT_FORMATS: readonly OutputFormat[] = ['ndjson', 'csv', 'json', 'parquet'];
export const DEFAULT_OVERLAP = '5m';
const MAX_OVERLAP_MS = 7 * 24 * 3_600_000;

export interface ExportFlags {
  splitRows?: string;
  splitSize?: string;
  dir?: string;
  families?: string;
  resume?: boolean;
  restart?: boolean;
  replace?: boolean;
  sinceLast?: string;
  since?: string;
  overlap?: string;
}

/** Where the incremental run starts, before the overlap is taken off. */
export type SinceSource = { kind: 'since-last'; dir: string; given: string } | { kind: 'since'; at: string };

export interface ExportPlan {
  /** As given, for messages. */
  dirGiven: string;
  /** Absolute. */
  dir: string;
  families: readonly ResourceFamily[];
  format: OutputFormat;
  /** How its csv files are written (--delimiter, --bom). */
  csv: CsvStyle;
  mode: 'resume' | 'restart' | 'auto';
  replace: boolean;
  since: SinceSource | undefined;
  overlapMs: number;
  overlapGiven: string;
  /** --split-rows/--split-size: each family in numbered parts. */
  split: SplitLimits | undefined;
  /** --fields per family (`props` → `['id', 'address.city']`); a family not named here keeps every field. */
  fields: Readonly<Partial<Record<FamilyName, readonly string[]>>>;
}

/** `--families props,clients` → the table's rows, in the table's order, each once. */
export function parseFamilies(raw: string | undefined): readonly ResourceFamily[] {
  if (raw === undefined) return DEFAULT_FAMILIES.map((name) => findFamily(name)!);
  const chosen = new Set<FamilyName>();
  for (const token of raw.split(',').map((part) => part.trim())) {
    if (token === '') continue;
    const family = findFamily(token);
    if (!family) throw new UsageError(`--families: no family "${token.slice(0, 40)}"; choose from ${FAMILY_NAMES.join(', ')}`);
    chosen.add(family.name);
  }
  if (chosen.size === 0) throw new UsageError(`--families needs at least one of ${FAMILY_NAMES.join(', ')}`);
  return FAMILY_NAMES.filter((name) => chosen.has(name)).map((name) => findFamily(name)!);
}

const FIELDS_EXAMPLE = '--fields props=id,name,address.city --fields clients=id,name';

/**
 * `--fields props=id,name,clients=id` (the global --fields, its repeats joined by commas): a word
 * with `=` starts a family's list, the words after it belong to that family. A family named here
 * must be one the snapshot holds; one not named keeps every field.
 */
export function parseExportFields(
  words: readonly string[] | undefined,
  families: readonly ResourceFamily[],
): Partial<Record<FamilyName, readonly string[]>> {
  const chosen: Partial<Record<FamilyName, string[]>> = {};
  let current: string[] | undefined;
  for (const word of words ?? []) {
    const at = word.indexOf('=');
    let field = word;
    if (at >= 0) {
      const name = word.slice(0, at).trim();
      const family = findFamily(name);
      if (!family) throw new UsageError(`--fields: no family "${name.slice(0, 40)}"; choose from ${FAMILY_NAMES.join(', ')}`);
      if (!families.includes(family)) {
        throw new UsageError(`--fields names ${family.name}, which this snapshot does not hold`, {
          hint: `add it to --families (this run exports ${families.map((one) => one.name).join(',')})`,
        });
      }
      current = chosen[family.name] ??= [];
      field = word.slice(at + 1).trim();
      if (field === '') continue;
    }
    if (current === undefined) {
      throw new UsageError(`--fields ${word.slice(0, 40)}: a snapshot holds several families; say whose fields these are`, {
        hint: `name the family before its fields: ${FIELDS_EXAMPLE} (families not named keep every field)`,
      });
    }
    if (!current.includes(field)) current.push(field);
  }
  for (const [name, fields] of Object.entries(chosen)) {
    if (fields.length === 0) throw new UsageError(`--fields ${name}= needs at least one field name (e.g. ${FIELDS_EXAMPLE})`);
    fieldSelection(fields);
  }
  return chosen;
}

function exportFormat(ctx: Context): OutputFormat {
  // Without -o, a snapshot is NDJSON (one record per line: what loaders and `jq -c` read).
  if (!ctx.output.formatExplicit) return 'ndjson';
  const format = ctx.output.format;
  if (!EXPORT_FORMATS.includes(format))
    throw new UsageError(`export writes ${EXPORT_FORMATS.join(', ')} files; -o ${format} is not one of them`);
  return format;
}

export function planExport(ctx: Context, flags: ExportFlags): ExportPlan {
  const dirGiven = flags.dir;
  if (dirGiven === undefined || dirGiven.trim() === '')
    throw new UsageError('export needs --dir DIR: the directory the snapshot is written to');
  if (flags.resume && flags.restart) throw new UsageError('--resume and --restart cannot be used together');
  if (flags.sinceLast !== undefined && flags.since !== undefined)
    throw new UsageError('--since-last and --since are alternatives: pass one');
  if (flags.overlap !== undefined && flags.sinceLast === undefined && flags.since === undefined) {
    throw new UsageError('--overlap applies to an incremental run: add --since-last PREVIOUS_DIR or --since ISO');
  }
  const families = parseFamilies(flags.families);
  const format = exportFormat(ctx);
  const split = splitLimits(flags);
  if (split && format === 'parquet')
    throw new UsageError('--split-rows and --split-size do not apply to -o parquet: each family is one Parquet file, written whole');
  const overlapGiven = flags.overlap ?? DEFAULT_OVERLAP;
  const overlapMs = parseDuration(overlapGiven, '--overlap', { minMs: 0, maxMs: MAX_OVERLAP_MS });
  let since: SinceSource | undefined;
  if (flags.sinceLast !== undefined) since = { kind: 'since-last', dir: resolve(ctx.cwd, flags.sinceLast), given: flags.sinceLast };
  else if (flags.since !== undefined) since = { kind: 'since', at: requireTimestamp(flags.since, '--since') };
  const dir = resolve(ctx.cwd, dirGiven);
  if (since?.kind === 'since-last' && since.dir === dir)
    throw new UsageError('--since-last names --dir itself: give the previous snapshot, and a new --dir for this one');
  return {
    dirGiven,
    dir,
    families,
    format,
    csv: ctx.output.csv,
    mode: flags.resume ? 'resume' : flags.restart ? 'restart' : 'auto',
    replace: flags.replace === true,
    since,
    overlapMs,
    overlapGiven,
    split,
    fields: parseExportFields(ctx.globals.fields, families),
  };
}
