// The output options a list verb declares as its own (not global): --resume, --restart,
// --split-rows, --split-size and --wide. A verb takes them by listing OUTPUT_FLAG_OPTIONS among its
// options; verb-command.ts then hands their parsed values to the context, and the output plan
// (output-plan.ts, sink-plan.ts) reads them once with the global ones to choose the run's one sink. A verb that
// does not list them (`keys list`, `doctor`) writes --out atomically, never resumably or in parts;
// one that lists WIDE_OPTION alone (`sql`, whose rows are no pages to resume) too, with --wide.
import type { OutputFlags } from './sink-plan.js';
import type { VerbOption } from './verb.js';

export const WIDE_OPTION: VerbOption = { flags: '--wide', description: 'tables keep every column instead of fitting the terminal width' };

export const OUTPUT_FLAG_OPTIONS: readonly VerbOption[] = [
  { flags: '--resume', description: 'continue an interrupted export to --out after its last complete page' },
  { flags: '--restart', description: 'throw away the partial export beside --out and start from the beginning' },
  {
    flags: '--split-rows <n>',
    description: 'with --out PATH: write numbered parts of at most N records each (props-0001.csv, … for props.csv) and PATH.manifest.json',
  },
  { flags: '--split-size <size>', description: 'with --out PATH: parts of at most SIZE bytes (500MiB, 2GB, 64K; a record is never cut)' },
  WIDE_OPTION,
];

const ATTRIBUTES: Readonly<Record<string, keyof OutputFlags>> = {
  '--resume': 'resume',
  '--restart': 'restart',
  '--split-rows <n>': 'splitRows',
  '--split-size <size>': 'splitSize',
  '--wide': 'wide',
};

/**
 * The output flags of a run, when its verb declares OUTPUT_FLAG_OPTIONS (the same objects); undefined
 * for a verb that does not (its --out is one atomic file).
 */
export function outputFlagsOf(declared: readonly VerbOption[] | undefined, parsed: Record<string, unknown>): OutputFlags | undefined {
  const own = declared?.filter((option) => OUTPUT_FLAG_OPTIONS.includes(option)) ?? [];
  if (own.length === 0) return undefined;
  const flags: Record<string, unknown> = {};
  for (const option of own) flags[ATTRIBUTES[option.flags]!] = parsed[ATTRIBUTES[option.flags]!];
  if (!own.some((option) => option.flags === '--resume')) flags.wholeFile = true;
  return flags as OutputFlags;
}
