// `appraisal export --dir DIR`: a snapshot of several collections, one file per family plus
// manifest.json, whole or incremental. Thin: declares the flags and the operations it may call,
// narrows those to the chosen families before the context binds them, and hands over to run.ts.
// The one-line summary is the registry's (commands/registry.ts).
import type { Operation } from '../../core/description/operations.js';
import { CSV_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineNounCommand } from '../../core/verb.js';
import { familyListOperations } from '../shared/family-lists.js';
import { FAMILIES, UPDATED_SINCE, acceptsUpdatedSince, type ResourceFamily } from '../../core/resources.js';
import { DEFAULT_OVERLAP, EXPORT_FORMATS, parseFamilies, type ExportFlags } from './plan.js';
import { runExport } from './run.js';

/** The list operations exporting these families calls, with the filter it may send (contacts also list the clients). */
function listOperations(families: readonly ResourceFamily[]): Operation[] {
  return familyListOperations(families, (family) => (acceptsUpdatedSince(family) ? [UPDATED_SINCE.param] : []));
}

const HOW_IT_WORKS = `
The snapshot:
  One file per family (props.ndjson, …; NDJSON unless -o csv|json|parquet) and manifest.json: CLI version,
  origin, profile, environment, startedAt, serviceStartedAt, finishedAt, and per family its file, records,
  total, bytes, sha256, filters, since, the --fields kept and any --split-rows/--split-size parts (sha256 each).
  DIR appears only when every family is complete: it is built in .DIR.export-partial beside it, fsynced
  and renamed. An existing DIR is refused (exit 2; --replace replaces a previous snapshot; --resume on
  this export, complete, exits 0). A failed or interrupted run keeps the families it finished (and the
  partial of the one it was reading): --resume continues it without fetching them; --restart throws it away.
  One run at a time per DIR: a lock (.DIR.export-lock) refuses a second one (exit 2).

Incremental runs:
  --since-last PREVIOUS_DIR (or --since ISO) exports records updated at or after the previous start less
  --overlap (the updatedSince filter), so nothing changed while that run read is lost. Times are the
  service's clock (its Date header): a start later than it is refused (exit 2), a skew over --overlap
  warned about. A family whose operation has no updatedSince is exported in full; its entry says so.`;

export default defineNounCommand<ExportFlags>({
  options: [
    { flags: '--dir <dir>', description: 'the directory to create; it appears only once every family is complete', required: true },
    { flags: '--families <list>', description: 'comma-separated (default: every one but designations)' },
    { flags: '--since-last <dir>', description: 'incremental: only records updated since the snapshot in DIR started (less --overlap)' },
    { flags: '--since <timestamp>', description: 'incremental: only records updated since this ISO 8601 time (less --overlap)' },
    { flags: '--overlap <duration>', description: `how far back to read again (default ${DEFAULT_OVERLAP}; 0 for none)` },
    { flags: '--resume', description: 'continue an interrupted run (finished families kept)' },
    { flags: '--restart', description: 'discard an interrupted run and start again' },
    { flags: '--replace', description: 'replace the previous snapshot at DIR (only a directory holding an export manifest)' },
    {
      flags: '--split-rows <n>',
      description: 'each family in numbered parts of at most N records (props-0001.ndjson, …), listed in the manifest',
    },
    {
      flags: '--split-size <size>',
      description: 'each family in numbered parts of at most SIZE bytes (500MiB, 2GB; a record is never cut)',
    },
    // The global -o, with the formats a snapshot is written in (no table) and its own default.
    { flags: '-o, --output <format>', description: 'file format (default: ndjson)', choices: EXPORT_FORMATS },
    // The global --fields, per family (its repeats add up).
    {
      flags: '--fields <family=list>',
      description: 'FAMILY=a,b.c keeps only those fields (repeatable)',
    },
  ],
  takes: [...SERVICE_OPTIONS, 'output', 'fields', ...CSV_OPTIONS, 'pageSize', 'concurrency', 'allowPartial'],
  // Every operation it may call, for `spec check`; a run needs only those of its families.
  calls: listOperations(FAMILIES),
  narrowCalls(flags) {
    const needed = new Set(listOperations(parseFamilies(flags.families)).map((operation) => operation.path));
    return (operation) => needed.has(operation.path);
  },
  examples: [
    'appraisal export --dir snapshots/$(date +%F)   # nightly snapshot of every family',
    'appraisal export --dir changes/$(date +%FT%H%M) --since-last snapshots/latest   # what changed since',
    'appraisal export --dir clients-$(date +%F) --families clients,contacts -o csv --fields clients=id,name,email',
    'appraisal export --dir snapshots/2026-11-23 --resume   # after a failure or kill',
  ],
  notes: HOW_IT_WORKS,
  run: (ctx, _args, flags) => runExport(ctx, flags),
});
