// `import` for any importable family (the model's isImportable: props, clients, contacts,
// assignments), declared once from its model entry, as the CRUD verbs are in shared/crud.ts. It
// declares what it calls — the family's list (the match index and the look-up after a lost answer),
// create and update, the live reference enums when the family has `enums`, and the referred family's
// list when it `refers` to one (--property-match) — checks its flags (import-flags.ts) and hands the
// run to run-import.ts, loaded only when the verb runs.
import type { Operation } from '../../core/description/operations.js';
import { UsageError } from '../../core/errors.js';
import { CONFIRM_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import {
  collectionTemplate,
  parentFamily,
  recordTemplate,
  REFERENCE_ENUMS_PATH,
  referredFamily,
  type ResourceFamily,
} from '../../core/resources.js';
import { defineVerb, type Verb, type VerbOption } from '../../core/verb.js';
import { importFlags, rowOutputs, type ImportOptions } from './import-flags.js';
import { INPUT_ENCODINGS } from './input-text.js';

/**
 * What -o may say to an import: not parquet, which writes a list to a file (an import's rows go to
 * --results). Checked by the run: the global -o, which takes parquet, is what parses the value.
 */
const IMPORT_OUTPUT_FORMATS: readonly string[] = ['table', 'json', 'ndjson', 'csv'];

/** The operations `import` of a family may call. */
export function importOperations(family: ResourceFamily): Operation[] {
  const operations: Operation[] = [
    { method: 'GET', path: collectionTemplate(family), query: ['page', 'limit', 'updatedSince'] },
    { method: 'POST', path: collectionTemplate(family) },
    { method: 'PATCH', path: recordTemplate(family) },
  ];
  const parent = parentFamily(family);
  if (parent) operations.unshift({ method: 'GET', path: parent.path, query: ['page', 'limit'] });
  if (family.enums !== undefined) operations.push({ method: 'GET', path: REFERENCE_ENUMS_PATH });
  const referred = referredFamily(family);
  if (referred) operations.push({ method: 'GET', path: referred.path, query: ['page', 'limit'] });
  return operations;
}

function importOptions(family: ResourceFamily): VerbOption[] {
  const options: VerbOption[] = [
    {
      flags: '--format <format>',
      description: 'csv, ndjson or json (default: from the file name; needed with -)',
      choices: ['csv', 'ndjson', 'json'],
    },
    {
      flags: '--encoding <name>',
      description: 'the input\'s text encoding: utf-8 (default), or windows-1252 / latin1 (Excel\'s plain "CSV" on Windows)',
      choices: [...INPUT_ENCODINGS],
    },
    {
      flags: '--match <field>',
      description: 'upsert: a row whose FIELD value exists updates that record (only the fields that differ), else it is created',
    },
    { flags: '--dry-run', description: 'send no write: validate, look matches up and print the plan' },
    {
      flags: '--results <path>',
      description: 'CSV of every row plus _row, _status, _id, _error (default: NAME.results.csv beside the input); its journal resumes',
    },
    {
      flags: '--failed <path>',
      description: "only the rows to fix, in the input's own columns (default: NAME.failed.EXT beside the input)",
    },
    { flags: '--map <file>', description: 'a JSON object renaming input columns to field paths: {"Parcel #": "parcelNumber"}' },
    { flags: '--stop-after-errors <n>', description: 'end early after N invalid or failed rows (the rest are reported skipped)' },
    // The global -o and --concurrency, declared again for what they do here: an import writes no
    // Parquet (its rows go to --results and --failed; -o only shapes the summary), and its
    // --concurrency is how many rows are sent at once, not pages fetched while auto-paging.
    {
      flags: '-o, --output <format>',
      description: `${IMPORT_OUTPUT_FORMATS.join(', ')}: json prints the summary as one JSON object, the others as its line (the rows go to --results)`,
      group: 'Output Options:',
    },
    {
      flags: '--concurrency <n>',
      description: 'rows sent at once, and pages read at once for the --match index (default: 4)',
      group: 'Paging Options:',
    },
  ];
  const parent = parentFamily(family);
  if (family.parent && parent)
    options.push({ flags: `--${family.parent.option} <id>`, description: `the ${parent.singular} of rows without a clientId column` });
  const referred = referredFamily(family);
  if (referred && family.refers)
    options.push({
      flags: `--${referred.singular}-match <field>`,
      description: `${family.refers.field} are given as the ${referred.view.label}' FIELD values (e.g. parcelNumber)`,
    });
  return options;
}

export function importVerb(family: ResourceFamily, examples: readonly string[]): Verb {
  return defineVerb<ImportOptions>({
    name: 'import',
    summary: `create and update ${family.view.label} from a file: validated first, crash-safe, every row reported`,
    description:
      'CSV (the header is dotted field paths, as `list -o csv` writes them; an empty cell is absent), NDJSON or a JSON array. ' +
      'Exit 22 when some rows were not imported; each row, with its column and reason, is in --results.',
    arguments: [{ name: 'file', description: 'the input file, or - for stdin (with --format)', required: true }],
    options: importOptions(family),
    takes: [...SERVICE_OPTIONS, 'concurrency', 'output', ...CONFIRM_OPTIONS],
    calls: importOperations(family),
    outputFlags: ([file], options) => ({ rows: rowOutputs(file ?? '-', options) }),
    examples,
    async run(ctx, [file], options) {
      // The flags are checked before the run is loaded, as a list's filters become its query first.
      if (!IMPORT_OUTPUT_FORMATS.includes(ctx.output.format))
        throw new UsageError(
          `import writes no ${ctx.output.format}: its rows go to --results and --failed; -o takes ${IMPORT_OUTPUT_FORMATS.join(', ')} for its summary`,
        );
      const rows = ctx.output.sink;
      if (rows.kind !== 'rows') throw new Error(`import writes its rows to the rows sink, not to ${rows.kind}`);
      const flags = await importFlags(family, file!, options, ctx.cwd, rows);
      const { runImport } = await import('./run-import.js');
      await runImport(ctx, family, flags);
    },
  });
}
