// `--split-rows N` / `--split-size SIZE`: an export to `--out PATH` written as numbered parts beside
// PATH with a manifest (output/split.ts). The options and their checks, shared by every list and by
// `appraisal export`. A split export is not resumable: --resume with it is refused (--restart, which
// starts from the beginning, is what it does anyway), and it writes no partial file or checkpoint.
import type { Command } from 'commander';
import { sizeInBytes } from '../../core/size.js';
import type { Context } from '../../core/context.js';
import type { VerbOption } from '../../core/verb.js';
import { UsageError } from '../../core/errors.js';
import type { OutputPlan } from '../../core/output-plan.js';
import type { SplitLimits } from '../../output/index.js';

export interface SplitFlags {
  splitRows?: string;
  splitSize?: string;
}

export const SPLIT_OPTIONS: readonly VerbOption[] = [
  {
    flags: '--split-rows <n>',
    description: 'with --out PATH: write numbered parts of at most N records each (props-0001.csv, … for props.csv) and PATH.manifest.json',
  },
  { flags: '--split-size <size>', description: 'with --out PATH: parts of at most SIZE bytes (500MiB, 2GB, 64K; a record is never cut)' },
];

export function addSplitOptions(command: Command): Command {
  for (const option of SPLIT_OPTIONS) command.option(option.flags, option.description);
  return command;
}

/** The limits the flags ask for; undefined when neither is given. UsageError (exit 2) for a bad value. */
export function splitLimits(flags: SplitFlags): SplitLimits | undefined {
  const { splitRows, splitSize } = flags;
  if (splitRows === undefined && splitSize === undefined) return undefined;
  let rows: number | undefined;
  if (splitRows !== undefined) {
    rows = /^\s*\d+\s*$/.test(splitRows) ? Number(splitRows) : NaN;
    if (!Number.isSafeInteger(rows) || rows < 1)
      throw new UsageError(`--split-rows must be a whole number of records, at least 1; got "${splitRows.slice(0, 40)}"`);
  }
  let bytes: number | undefined;
  if (splitSize !== undefined) {
    bytes = sizeInBytes(splitSize);
    if (bytes === undefined || bytes < 1) {
      throw new UsageError(`--split-size must be a size such as 500MiB, 2GB, 64K or a number of bytes; got "${splitSize.slice(0, 40)}"`);
    }
  }
  return { rows, bytes };
}

/**
 * The run's output plan in parts, as this command asks for, checked before any request; undefined
 * without --split-rows/--split-size. Needs --out PATH and a file format; refuses --resume.
 */
export async function splitExport(ctx: Context, flags: SplitFlags & { resume?: boolean }): Promise<OutputPlan | undefined> {
  const split = splitLimits(flags);
  if (split === undefined) return undefined;
  const flag = flags.splitRows !== undefined ? '--split-rows' : '--split-size';
  const plan = ctx.output;
  if (plan.outPath === undefined) throw new UsageError(`${flag} needs --out PATH: the parts are written beside it (PATH-0001.ext, …)`);
  if (flags.resume) {
    throw new UsageError(`${flag} cannot be combined with --resume: a split export is not resumable`, {
      hint: 'run it again without --resume; it writes nothing until every part is complete',
    });
  }
  await plan.target();
  if (plan.format === 'table') throw new UsageError(`${flag} needs -o json, ndjson or csv: a table is not split into files`);
  return plan.inParts(split);
}
