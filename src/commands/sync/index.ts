// `appraisal sync [FAMILY…]`: the organization as tables in a database, kept current — DuckDB
// (the embedded default, `duckdb:appraisal.duckdb`) or PostgreSQL. Thin: declares the arguments,
// flags and the operations it may call, narrows those to the chosen families, and hands over to
// run.ts. Not an MCP tool: it writes a local database and may run long. The one-line summary is the
// registry's (commands/registry.ts).
import type { Operation } from '../../core/description/operations.js';
import { SERVICE_OPTIONS } from '../../core/global-options.js';
import { findFamily, UPDATED_SINCE, type ResourceFamily } from '../../core/resources.js';
import { defineNounCommand } from '../../core/verb.js';
import { familyListOperations } from '../shared/family-lists.js';
import { DEFAULT_OVERLAP, parseFamilies, SYNC_FAMILIES, type SyncFlags } from './plan.js';
import { DEFAULT_TARGET } from './target.js';
import { runSync } from './run.js';

/** The list operations syncing these families calls (contacts also list the clients). */
function listOperations(families: readonly ResourceFamily[]): Operation[] {
  return familyListOperations(families, () => [UPDATED_SINCE.param]);
}

const HOW_IT_WORKS = `
Tables:
  One per family, named as the service's collections (properties, assignments, clients, contacts,
  files), primary key id; the published fields as snake_case columns, nested objects flattened with
  __ (address__postal_code), typed from the published schema; arrays as child tables
  <table>__<field> (parent_id, position, value or the element's fields). Every row has _synced_at and
  _deleted_at (set when a --full run finds the record gone; rows are never deleted). Columns are only
  ever added; a column whose type the description changes stops the run (exit 2) with nothing written.

Runs:
  The first run reads everything; later runs read records updated since the last finished pass less
  --overlap (in the service's time). State lives in the table _appraisal_sync, written in the same
  transaction as the rows (batches of at most 1,000): a run killed at any point is finished by running
  it again. One sync per database and schema at a time (exit 2 for a second one).
  Targets: duckdb:PATH (default ${DEFAULT_TARGET}; a leading ~ is your home) or
  postgres://user@host:port/db (PG* variables and ~/.pgpass fill what the URL leaves out); --schema
  NAME keeps one organization per schema. Query a DuckDB file with appraisal sql "SELECT …".`;

export default defineNounCommand<SyncFlags>({
  arguments: [
    {
      name: 'family',
      description: `families to sync (default: all of ${SYNC_FAMILIES.join(', ')})`,
      variadic: true,
      choices: SYNC_FAMILIES,
    },
  ],
  options: [
    { flags: '--to <target>', description: `duckdb:PATH or postgres://… (default: ${DEFAULT_TARGET})` },
    { flags: '--full', description: 'read every record again and mark the rows of records gone from the service (_deleted_at)' },
    {
      flags: '--schema <name>',
      description: 'the database schema to write (created if missing; default: main for DuckDB, public for Postgres)',
    },
    {
      flags: '--overlap <duration>',
      description: `how far before the last pass's start an incremental run reads again (default ${DEFAULT_OVERLAP})`,
    },
    { flags: '--dry-run', description: 'read the service and the database, write nothing: print what would change' },
    {
      flags: '-o, --output <format>',
      description: 'json only: the summary also as one JSON object on stdout (its lines are on stderr either way)',
    },
  ],
  takes: [...SERVICE_OPTIONS, 'output', 'pageSize', 'concurrency', 'allowPartial'],
  // Every operation it may call, for `spec check`; a run needs only those of the families asked for.
  calls: listOperations(SYNC_FAMILIES.map((name) => findFamily(name)!)),
  narrowCalls(_flags, words) {
    const needed = new Set(listOperations(parseFamilies(words)).map((operation) => operation.path));
    return (operation) => needed.has(operation.path);
  },
  examples: [
    'appraisal sync   # every family into appraisal.duckdb here, incremental after the first run',
    'appraisal sync props assignments --to duckdb:ops.duckdb',
    'appraisal sync --full --to duckdb:orgs.duckdb --schema acme   # into postgres://… the same way',
    'appraisal sync --dry-run -o json',
  ],
  notes: HOW_IT_WORKS,
  run: (ctx, args, flags) => runSync(ctx, args, flags),
});
