// A resumable `--out PATH`: records go to a hidden partial file beside PATH (`.NAME.partial`) with a
// checkpoint journal (`.NAME.checkpoint`, see checkpoint.ts). Only a complete export is renamed to
// PATH, as with every --out; a failed or killed one keeps its complete pages so `--resume` can carry
// on after them. Order of writes, so that `kill -9` at any instant leaves a usable pair: partial
// fsynced, then the checkpoint line appended and fsynced; a resumed run cuts the partial back to
// the bytes its checkpoint records. The partial, the checkpoint and the lock are created and opened
// again through core/owned-file.ts: a planted link, FIFO or someone else's file at one of those names
// is refused (exit 2, naming it), and a checkpoint the partial does not bear out is refused (exit 9).
// Which partial a run continues is decided in resume-check.ts; a partial read while its collection
// changed is removed on failure (resume-check.ts): no resume could finish it.
import { rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { PaginateResume, PageDone } from '../core/api-client.js';
import { syncDirectory } from '../core/atomic-file.js';
import { holdRunLock } from '../core/file-lock.js';
import type { Context } from '../core/context.js';
import type { OutputPlan } from '../core/output-plan.js';
import { UsageError } from '../core/errors.js';
import { createOwned, defaultFileMode, UnsafeFileError } from '../core/owned-file.js';
import { BufferedFileWriter, writeFailure } from './buffered-writer.js';
import { CHECKPOINT_KIND, CheckpointJournal, removeCheckpoint, type CheckpointEntry, type ExportIdentity } from './checkpoint.js';
import { changeSeen, existingCheckpoint, type Resumable } from './resume-check.js';
import type { Destination } from './destination.js';
import { formatCount } from './progress.js';
import { fileErrorWords } from '../core/file-error-words.js';

/** At most one checkpoint per interval: two fsyncs per page would cost more than they save. */
export const CHECKPOINT_INTERVAL_MS = 500;

export type { ResumeMode } from '../core/output-plan.js';

export interface ResumableExport {
  destination: Destination;
  /** Where to continue; undefined for an export starting at page 1. */
  resumeFrom: PaginateResume | undefined;
  /** Records already in the partial file (0 for a fresh start). */
  resumedWritten: number;
  /** Record a complete page (paginate's onPageDone), with how many records were written so far. */
  pageDone(done: PageDone, written: number): Promise<void>;
}

export function partialPaths(target: string): { partial: string; checkpoint: string; lock: string } {
  const dir = dirname(target);
  const name = basename(target);
  return { partial: join(dir, `.${name}.partial`), checkpoint: join(dir, `.${name}.checkpoint`), lock: join(dir, `.${name}.lock`) };
}

/**
 * One export at a time per --out (overlapping cron runs): a second one would cut back or append to
 * the first one's partial file (or, split, mix its parts with the first one's). A live holder is
 * exit 2 at once; a killed run's lock is taken over.
 */
export function lockOut(out: string, lock: string): Promise<() => Promise<void>> {
  return holdRunLock(lock, { target: `--out ${out}`, busy: `--out ${out} is being written by another appraisal export` });
}

/**
 * Open the plan's resumable export to its --out file: a fresh partial and checkpoint, or (with
 * --resume and a matching checkpoint) the existing ones cut back to their last complete page.
 */
export async function openResumableExport(ctx: Context, plan: OutputPlan, identity: ExportIdentity): Promise<ResumableExport> {
  const sink = plan.sink;
  const target = await plan.target();
  if (sink.kind !== 'resumable' || target === undefined) throw new Error('openResumableExport: the plan is no resumable file export');
  const { given: out, mode } = sink;
  const paths = partialPaths(target.path);
  const release = await lockOut(out, paths.lock);
  let resumable: Resumable | undefined;
  try {
    resumable = await existingCheckpoint(ctx, out, paths, identity, plan.format, mode);
  } catch (error) {
    await release();
    throw error;
  }
  const state = resumable?.state;

  let handle: FileHandle;
  let journal: CheckpointJournal;
  let position: number;
  let records = 0;
  let checkpointed: boolean;
  try {
    if (resumable) {
      const { partial, state: kept } = resumable;
      // Both files are cut back to what the checkpoint vouches for, and continued on the same handles.
      handle = partial;
      await partial.truncate(kept.last.bytes);
      await partial.sync();
      journal = await CheckpointJournal.resume(resumable.journal, paths.checkpoint, kept.validBytes);
      position = kept.last.bytes;
      records = kept.last.written;
      checkpointed = true;
      ctx.io.notice(`Resuming the export to ${out} after page ${kept.last.page} of ${kept.last.pages} (${formatCount(records)} records)`);
    } else {
      await rm(paths.partial, { force: true });
      await removeCheckpoint(paths.checkpoint);
      // Private while it is written; the final mode (the replaced file's, or the default) at the end.
      handle = await createOwned(paths.partial, { mode: target.mode ?? 0o600 });
      journal = await CheckpointJournal.create(paths.checkpoint, {
        kind: CHECKPOINT_KIND,
        version: 1,
        identity,
        startedAt: ctx.now().toISOString(),
      });
      await syncDirectory(dirname(target.path));
      position = 0;
      checkpointed = false;
    }
  } catch (error) {
    await resumable?.partial.close().catch(() => undefined);
    await resumable?.journal.close().catch(() => undefined);
    await release();
    if (error instanceof UsageError || error instanceof UnsafeFileError) throw error;
    throw new UsageError(`--out ${out}: cannot write the partial export beside it (${fileErrorWords(error)})`);
  }

  const writer = new BufferedFileWriter(handle, out, { position });
  let pendingIds: string[] = [];
  // The first page is checkpointed at once, later ones at most every CHECKPOINT_INTERVAL_MS.
  let lastCheckpointAt = 0;
  // The last complete page not yet in the journal: a failure (not kill -9) records it on the way out.
  let unrecorded: CheckpointEntry | undefined;
  // Whether this run put anything worth resuming into the partial.
  let progressed = false;
  // The total the export started with, and how the collection was seen to change since (then no
  // resume can finish the partial: resume-check.ts). --allow-partial accepts a changed collection.
  let firstTotal = state?.last.total;
  let changed: string | undefined;
  let isOpen = true;
  // The checkpoint being made, if any: records keep flowing into the partial meanwhile (its fsync
  // covers every byte handed in before it, buffered-writer.ts). One at a time.
  let checkpointing: Promise<void> | undefined;
  // A checkpoint that failed: thrown at the next page and at the end; nothing is journaled after it
  // (a later entry's ids would miss the failed one's).
  let failed: unknown;

  const record = async (entry: CheckpointEntry): Promise<void> => {
    await writer.sync();
    try {
      await journal.append(entry);
    } catch (error) {
      throw writeFailure(out, error);
    }
    // Pages done meanwhile stay unrecorded, with the ids exported since this entry.
    if (unrecorded === entry) unrecorded = undefined;
    records = entry.written;
    checkpointed = true;
    progressed = true;
    lastCheckpointAt = Date.now();
  };
  /** The checkpoint in flight, done; its failure thrown. */
  const settled = async (): Promise<void> => {
    await checkpointing;
    if (failed !== undefined) throw failed;
  };
  const closeAll = async (): Promise<void> => {
    if (!isOpen) return;
    isOpen = false;
    await writer.close();
    await journal.close();
  };

  const destination: Destination = {
    displayPath: out,
    async write(text) {
      await writer.write(text);
      return true;
    },
    async finish() {
      await settled();
      try {
        await writer.complete(target.mode ?? defaultFileMode());
        await closeAll();
        await rename(paths.partial, target.path);
      } catch (error) {
        throw writeFailure(out, error);
      }
      await syncDirectory(dirname(target.path));
      // A checkpoint left by a crash right here has no partial beside it: the next run ignores it.
      await removeCheckpoint(paths.checkpoint);
      await release();
    },
    async discard() {
      // The lock goes last: another run may start once the partial is settled, not before.
      try {
        await checkpointing;
        if (unrecorded && isOpen && failed === undefined) await record(unrecorded).catch(() => undefined);
        await closeAll();
        if (!checkpointed || changed !== undefined) {
          await rm(paths.partial, { force: true });
          await removeCheckpoint(paths.checkpoint);
          if (changed !== undefined)
            ctx.io.notice(
              `The records exported before the failure were not kept: the collection changed while they were read (${changed}), so --resume could not finish them; run the same command again to export it from the beginning`,
            );
          return;
        }
        if (progressed)
          ctx.io.notice(
            `Kept the ${formatCount(records)} records exported before the failure beside ${out}; run the same command with --resume to continue`,
          );
      } finally {
        await release();
      }
    },
  };

  return {
    destination,
    resumeFrom: state?.last && {
      afterPage: state.last.page,
      limit: state.last.limit,
      total: state.last.total,
      count: state.last.records,
      ids: state.ids,
    },
    resumedWritten: state?.last?.written ?? 0,
    async pageDone(done, written) {
      if (failed !== undefined) throw failed;
      for (const id of done.ids) pendingIds.push(id);
      const { page, pages, limit, total, count } = done;
      firstTotal ??= total;
      if (!ctx.globals.allowPartial) changed ??= changeSeen(firstTotal, done);
      // Everything handed to write() so far belongs to complete pages.
      const entry = { page, pages, limit, total, records: count, written, bytes: writer.bytes, ids: pendingIds };
      unrecorded = changed === undefined ? entry : { ...entry, changed };
      if (checkpointing !== undefined || Date.now() - lastCheckpointAt < CHECKPOINT_INTERVAL_MS) return;
      // Not awaited: the pipe goes on while the partial is fsynced and the line written. The next
      // entry's ids start here.
      pendingIds = [];
      checkpointing = record(unrecorded).then(
        () => {
          checkpointing = undefined;
        },
        (error: unknown) => {
          checkpointing = undefined;
          failed = error;
        },
      );
    },
  };
}
