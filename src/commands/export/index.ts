// `appraisal export --dir DIR`: a snapshot of several collections, one file per family plus
// manifest.json, whole or incremental. Thin: declares the flags and the operations it may call,
// narrows those to the chosen families before the context binds them, and hands over to run.ts.
import { Command } from 'commander';
import type { Factory } from '../../core/command.js';
import { examples } from '../../core/command.js';
import { calls, declaredOperations, narrowCalls, type Operation } from '../../core/description/operations.js';
import { SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';
import {
  FAMILIES,
  UPDATED_SINCE,
  acceptsUpdatedSince,
  collectionTemplate,
  parentFamily,
  type ResourceFamily,
} from '../../core/resources.js';
import { DEFAULT_FAMILIES, DEFAULT_OVERLAP, parseFamilies, type ExportFlags } from './plan.js';
import { runExport } from './run.js';

/** The list operations exporting these families calls, with the filter it may send (contacts also list the clients). */
function listOperations(families: readonly ResourceFamily[]): Operation[] {
  const operations = new Map<string, Operation>();
  for (const family of families) {
    const parent = parentFamily(family);
    if (parent && !operations.has(parent.path)) operations.set(parent.path, { method: 'GET', path: parent.path });
    const path = collectionTemplate(family);
    operations.set(path, { method: 'GET', path, query: acceptsUpdatedSince(family) ? [UPDATED_SINCE.param] : [] });
  }
  return [...operations.values()];
}

const HOW_IT_WORKS = `
The snapshot:
  One file per family (props.ndjson, …; NDJSON unless -o csv|json) and manifest.json: CLI version,
  origin, profile, environment, startedAt, finishedAt, and per family its file, records, total, bytes,
  sha256, filters and since (with --split-rows/--split-size, its numbered parts, each with its sha256).
  DIR appears only when every family is complete: it is built in .DIR.export-partial beside it, fsynced
  and renamed. An existing DIR is refused (exit 2); --replace replaces a previous snapshot there.
  A failed or interrupted run keeps the families it finished (and the partial of the one it was reading):
  --resume continues it without fetching finished families again; --restart throws it away.
  One run at a time per DIR: a lock (.DIR.export-lock) refuses a second one (exit 2).

Incremental runs:
  --since-last PREVIOUS_DIR reads the previous snapshot's startedAt (--since ISO gives it by hand); records
  updated at or after that time less --overlap are exported (the updatedSince filter), so nothing changed
  while the previous run was reading is lost. The manifest records the watermark. A family whose
  operation publishes no updatedSince is exported in full, and its manifest entry says so.`;

export default function exportCommand(factory: Factory): Command {
  const command = new Command('export')
    .description('Write a snapshot of several collections to a directory: one file per family and manifest.json')
    .option('--dir <dir>', 'the directory to create (required); it appears only once every family is complete')
    .option('--families <list>', `comma-separated families (default ${DEFAULT_FAMILIES.join(',')}; designations also exists)`)
    .option('--since-last <dir>', 'incremental: only records updated since the snapshot in DIR started (less --overlap)')
    .option('--since <timestamp>', 'incremental: only records updated since this ISO 8601 time (less --overlap)')
    .option('--overlap <duration>', `how far before the previous start to read again (default ${DEFAULT_OVERLAP}; 0 for none)`)
    .option('--resume', 'continue an interrupted export to DIR: finished families are not fetched again')
    .option('--restart', 'throw away an interrupted export to DIR and start from the beginning')
    .option('--replace', 'replace the previous snapshot at DIR (only a directory holding an export manifest)')
    .option('--split-rows <n>', 'each family in numbered parts of at most N records (props-0001.ndjson, …), listed in the manifest')
    .option('--split-size <size>', 'each family in numbered parts of at most SIZE bytes (500MiB, 2GB; a record is never cut)');
  // Every operation it may call, for `spec check`; a run needs only those of its families.
  calls(command, ...listOperations(FAMILIES));
  takesOptions(command, ...SERVICE_OPTIONS, 'output', 'pageSize', 'concurrency', 'allowPartial');
  command.addHelpText('after', HOW_IT_WORKS);
  examples(command, [
    'appraisal export --dir snapshots/$(date +%F)   # nightly snapshot of every family',
    'appraisal export --dir changes/$(date +%FT%H%M) --since-last snapshots/latest   # what changed since',
    'appraisal export --dir clients-$(date +%F) --families clients,contacts -o csv',
    'appraisal export --dir snapshots/2026-11-23 --resume   # after a failure or kill',
  ]);
  return command.action(async (...actionArgs: unknown[]) => {
    const invoked = actionArgs[actionArgs.length - 1] as Command;
    const flags = invoked.opts() as ExportFlags;
    const needed = new Set(listOperations(parseFamilies(flags.families)).map((operation) => operation.path));
    narrowCalls(invoked, (operation) => needed.has(operation.path));
    await runExport(factory.context(invoked, declaredOperations(invoked)), flags);
  });
}
