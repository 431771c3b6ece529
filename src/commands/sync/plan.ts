// What one `appraisal sync` run is asked to do, checked before anything is read or written: the
// families (in the table's order), the target, the schema, --overlap, --full, --dry-run and -o json.
import { basename } from 'node:path';
import type { Context } from '../../core/context.js';
import { parseDuration } from '../../core/duration.js';
import { UsageError } from '../../core/errors.js';
import { findFamily, type FamilyName, type ResourceFamily } from '../../core/resources.js';
import { shellWord } from '../../core/shell-word.js';
import { duckdbCatalogName, parseTarget, type SyncTarget } from './target.js';

/** What sync keeps, and its order (contacts after clients, as the service nests them). */
export const SYNC_FAMILIES: readonly FamilyName[] = ['props', 'assignments', 'clients', 'contacts', 'files'];
export const DEFAULT_OVERLAP = '2m';
const MAX_OVERLAP_MS = 7 * 24 * 3_600_000;

export interface SyncFlags {
  to?: string;
  full?: boolean;
  schema?: string;
  overlap?: string;
  dryRun?: boolean;
}

export interface SyncPlan {
  families: readonly ResourceFamily[];
  target: SyncTarget;
  /** Undefined: the dialect's default (DuckDB `main`, Postgres `public`). */
  schema: string | undefined;
  overlapMs: number;
  full: boolean;
  dryRun: boolean;
  /** -o json: the summary as one JSON object on stdout. */
  json: boolean;
}

/** `props clients` (or `properties`) → the table's rows, in sync's order, each once; none → all five. */
export function parseFamilies(words: readonly string[]): readonly ResourceFamily[] {
  if (words.length === 0) return SYNC_FAMILIES.map((name) => findFamily(name)!);
  const chosen = new Set<FamilyName>();
  for (const word of words) {
    const family = findFamily(word);
    if (!family || !SYNC_FAMILIES.includes(family.name))
      throw new UsageError(`sync: no family "${word.slice(0, 40)}"; choose from ${SYNC_FAMILIES.join(', ')}`);
    chosen.add(family.name);
  }
  return SYNC_FAMILIES.filter((name) => chosen.has(name)).map((name) => findFamily(name)!);
}

/** A schema name both databases read as one (and `appraisal sql` sets as DuckDB's search path). */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/;

/** A schema name as `flag` gave it, or the usage error (exit 2) of one the databases would not read as one name. */
export function checkSchemaName(schema: string, flag = '--schema'): void {
  if (!SCHEMA_NAME.test(schema))
    throw new UsageError(`${flag} ${schema.slice(0, 70)}: a schema name is a letter or _ then letters, digits, _, $ or - (at most 63)`);
}

/**
 * --schema checked against the target before anything is opened: a name the databases read as one,
 * none they keep for themselves (PostgreSQL: pg_… and information_schema; DuckDB also system and
 * temp), and in DuckDB not the name it gives the file's own database (`ops` for ops.duckdb).
 */
function checkSchema(schema: string, target: SyncTarget): void {
  checkSchemaName(schema);
  const name = schema.toLowerCase();
  const duckdb = target.kind === 'duckdb';
  if (name.startsWith('pg_') || name === 'information_schema' || (duckdb && (name === 'system' || name === 'temp')))
    throw new UsageError(`--schema ${schema}: ${duckdb ? 'DuckDB' : 'PostgreSQL'} keeps that name for itself`, {
      hint: "choose a name of your own, such as the organization's (one organization per schema)",
    });
  const catalog = duckdb ? duckdbCatalogName(target.path) : undefined;
  if (catalog?.toLowerCase() === name)
    throw new UsageError(
      `--schema ${schema}: DuckDB calls the database in ${target.shown} "${catalog}" too, and cannot tell the two apart`,
      {
        hint: `choose another --schema, or another name for the file (--to ${shellWord(`duckdb:${renamed(target.shown)}`)})`,
      },
    );
}

/**
 * Another name for the DuckDB file `shown`, in its directory, whose database DuckDB names otherwise:
 * `-sync` after the part of the base name it takes the name from (`ops.duckdb` → `ops-sync.duckdb`).
 */
function renamed(shown: string): string {
  const base = basename(shown);
  return `${shown.slice(0, shown.length - base.length)}${base.replace(/[^.]+/, (name) => `${name}-sync`)}`;
}

export function planSync(ctx: Context, words: readonly string[], flags: SyncFlags): SyncPlan {
  const families = parseFamilies(words);
  if (ctx.output.formatExplicit && ctx.output.format !== 'json')
    throw new UsageError(`sync prints its summary on stderr, or as JSON with -o json; -o ${ctx.output.format} is not offered`);
  const target = parseTarget(flags.to, ctx.cwd, ctx.env);
  if (flags.schema !== undefined) checkSchema(flags.schema, target);
  // psql takes a password in the URL, so sync does too, but says what it costs.
  if (target.kind === 'postgres' && target.passwordInUrl)
    ctx.io.warn(
      '--to holds a password: any user of this machine can read it in the process list, and the shell keeps it in its history; give it in PGPASSWORD or ~/.pgpass (mode 0600) instead',
    );
  return {
    families,
    target,
    schema: flags.schema,
    overlapMs: parseDuration(flags.overlap ?? DEFAULT_OVERLAP, '--overlap', { minMs: 0, maxMs: MAX_OVERLAP_MS }),
    full: flags.full === true,
    dryRun: flags.dryRun === true,
    json: ctx.output.formatExplicit && ctx.output.format === 'json',
  };
}
