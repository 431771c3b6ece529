// Which existing partial a resumable `--out` export continues (resumable.ts opens what is decided
// here): none with --restart or a plain run (which says it replaces one), or with --resume the pair
// left by the same export, refused when it is another export (exit 2), when the partial is not what
// its checkpoint records (exit 9), or when the collection changed while it was read (exit 9,
// below). Kept apart from resumable.ts so that the open/cut/lock sequence stays one readable file
// under 300 lines.
import { lstat, type FileHandle } from 'node:fs/promises';
import type { Context } from '../core/context.js';
import { CheckpointMismatchError, ContractError, UsageError } from '../core/errors.js';
import type { OutputFormat } from '../core/global-options.js';
import type { ResumeMode } from '../core/output-plan.js';
import { openOwned } from '../core/owned-file.js';
import {
  checkAgainstPartial,
  identityMismatch,
  openCheckpoint,
  readCheckpoint,
  type CheckpointEntry,
  type CheckpointState,
  type ExportIdentity,
} from './checkpoint.js';
import { formatCount } from './progress.js';

// Whether the pages a resumable export kept were read while the collection changed under them. Such a
// partial cannot be finished by --resume: a record skipped before the checkpoint (a duplicate dropped
// because a record was inserted ahead of the read position, a `total` that moved) stays skipped, and
// every resume failed again at the end with "incomplete read", without the reason the first run saw.
// So the failing run removes it and says to run again, and a resume refuses one a crash left behind.
// Told from the pages themselves, not from the error that ended the run: a duplicate on page 3 followed
// by a 503 on page 7 leaves a partial no resume can finish either.

/** What paginate says of a complete page (PageDone), as far as this check needs it. */
interface PageCount {
  page: number;
  limit: number;
  total: number;
  /** New records read from pages 1..page. */
  count: number;
}

/**
 * How the collection showed it changed by this page, or undefined. Every page before the last holds
 * `limit` records, so pages 1..page hold page × limit unless records were dropped as duplicates;
 * `firstTotal` is the total the export started with (the checkpoint's, when resumed).
 */
export function changeSeen(firstTotal: number, done: PageCount): string | undefined {
  const short = done.page * done.limit - done.count;
  if (short > 0) return `${short} duplicate record(s) dropped by page ${done.page}`;
  if (done.total !== firstTotal) return `total ${firstTotal} at first, ${done.total} on page ${done.page}`;
  return undefined;
}

/** The change a checkpoint entry records (or its counts show, for a journal that has no `changed`). */
export function changeRecorded(entry: CheckpointEntry): string | undefined {
  return entry.changed ?? changeSeen(entry.total, { ...entry, count: entry.records });
}

/** The refusal of a resume of such a partial (exit 9); the files are kept as they are. */
export function changedPartialError(collection: string, out: string, changed: string): ContractError {
  return new ContractError(
    `cannot resume the export of ${collection}: the collection changed while the partial export beside ${out} was read (${changed}), so it may lack records a resume would never read`,
    { hint: 'run it again with --restart to export the collection from the beginning' },
  );
}

/** Whether something is at `path` (a link is not followed). */
async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

export interface Resumable {
  state: CheckpointState & { last: CheckpointEntry };
  /** The partial file, open for update, checked as ours (see owned-file.ts), not yet cut back. */
  partial: FileHandle;
  /** The checkpoint journal, open for update, not yet cut back. */
  journal: FileHandle;
}

/**
 * Decide between a fresh start and a resume, refusing a resume of another export (exit 2), of a
 * partial or checkpoint that is not a plain file of ours (exit 2), or of a checkpoint the partial
 * does not bear out (exit 9; nothing is changed then). A resume keeps both files open, unchanged.
 */
export async function existingCheckpoint(
  ctx: Context,
  out: string,
  paths: { partial: string; checkpoint: string },
  identity: ExportIdentity,
  /** The format the partial's records are checked in (the identity's names a csv's separator too). */
  format: OutputFormat,
  mode: ResumeMode,
): Promise<Resumable | undefined> {
  if (mode === 'restart') return undefined;
  const shown = `the checkpoint beside ${out}`;
  if (mode === 'auto') {
    const state = await readCheckpoint(paths.checkpoint, shown).catch(() => undefined);
    if (state?.last !== undefined && (await exists(paths.partial))) {
      ctx.io.notice(
        `A partial export of ${formatCount(state.last.written)} records to ${out} (started ${state.header.startedAt}) is replaced; run with --resume to continue such an export instead`,
      );
    }
    return undefined;
  }
  const opened = await openCheckpoint(paths.checkpoint, shown);
  const last = opened?.state.last;
  let partial: FileHandle | undefined;
  try {
    partial = last !== undefined ? await openOwned(paths.partial, 'update') : undefined;
    if (opened === undefined || last === undefined || partial === undefined) {
      await opened?.handle.close();
      ctx.io.notice(`Nothing to resume for ${out}: starting from the beginning`);
      return undefined;
    }
    const mismatch = identityMismatch(opened.state.header.identity, identity);
    if (mismatch !== undefined) {
      throw new UsageError(`--resume: the partial export beside ${out} is another export (${mismatch})`, {
        hint: 'run the same command as the one that was interrupted, or pass --restart to start this one from the beginning',
      });
    }
    const partialSize = (await partial.stat()).size;
    if (partialSize < last.bytes) {
      // The checkpoint disagrees with its file, as checkAgainstPartial's refusals: exit 9, not a usage error.
      throw new CheckpointMismatchError(
        `--resume: the partial export beside ${out} is shorter than its checkpoint records (${partialSize} < ${last.bytes} bytes); it was not resumed and is kept as it is`,
        { hint: 'it was changed by something else; pass --restart to start from the beginning' },
      );
    }
    await checkAgainstPartial(partial, format, last, paths.partial);
    // Only a checkpoint the partial bears out is asked whether its pages are worth continuing.
    const changed = ctx.globals.allowPartial ? undefined : changeRecorded(last);
    if (changed !== undefined) throw changedPartialError(identity.collection, out, changed);
  } catch (error) {
    await partial?.close().catch(() => undefined);
    await opened?.handle.close().catch(() => undefined);
    throw error;
  }
  return { state: { ...opened.state, last }, partial, journal: opened.handle };
}
