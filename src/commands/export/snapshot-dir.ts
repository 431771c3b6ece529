// The snapshot directory appears only when every family is complete: the run builds it under a
// hidden sibling (`.NAME.export-partial`), which holds what the run is (`.export-run.json`), each
// finished family's file with a marker (`.FAMILY.done.json`), and the partial of the family being
// read (the resumable export pair: partial and checkpoint). At the end manifest.json is written, the markers go, the
// directory is fsynced and renamed to DIR. A failed run keeps the sibling for `--resume`.
// An existing DIR is refused (exit 2) unless --replace names a previous snapshot there.
// The sibling sits where others may write (issue 26 §2): it is created 0700 and, before a run takes
// it up again, must be a directory of ours, mode 0700, not a link (else exit 2, naming it); each
// finished family's done-marker records the size and sha256 of its files, and a family is skipped
// only when its files still match them. Files in it are read through core/owned-file.ts.
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Context } from '../../core/context.js';
import { syncDirectory, writeFileAtomic } from '../../core/atomic-file.js';
import { LocalEnvironmentError, UsageError } from '../../core/errors.js';
import { defaultDirMode, defaultFileMode, privateDirProblem, readOwned, UnsafeFileError } from '../../core/owned-file.js';
import { fileDigest, MANIFEST_FILE, MANIFEST_KIND, manifestText, snapshotDifference, type FamilyEntry, type Manifest } from './manifest.js';
import type { ExportPlan } from './plan.js';
import type { ServiceTime } from './incremental.js';
import { fileErrorWords } from '../../core/file-error-words.js';

const RUN_FILE = '.export-run.json';
const RUN_KIND = 'appraisal-export-run';

/** What an interrupted run was; a resumed run must be the same. */
export interface RunIdentity {
  origin: string;
  profile: string;
  format: string;
  families: readonly string[];
  pageSize: number | null;
  /** The updatedSince watermark (null: a full snapshot). */
  watermark: string | null;
  /** --split-rows/--split-size (null: one file per family). */
  split: { rows: number | null; bytes: number | null } | null;
  /** --fields per family (null: every field of every family). */
  fields: Readonly<Record<string, readonly string[]>> | null;
}

interface RunState extends RunIdentity {
  kind: typeof RUN_KIND;
  version: 1;
  startedAt: string;
  /** The start by the service's clock (absent in a run file of an older appraisal). */
  serviceStartedAt?: string;
}

/** A finished family as its export reports it, before its files' sizes and digests are read. */
export type FamilyDone = Omit<FamilyEntry, 'bytes' | 'sha256'>;

/** Done-markers and run files are small; a larger one is not ours. */
const SMALL_FILE_BYTES = 16 * 1024 * 1024;

const doneName = (family: string) => `.${family}.done.json`;

async function entryType(path: string): Promise<'missing' | 'directory' | 'other'> {
  try {
    return (await lstat(path)).isDirectory() ? 'directory' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new UsageError(`cannot use ${path}: ${fileErrorWords(error)}`);
  }
}

/** A small JSON file of ours (no link followed, no FIFO waited on); undefined when absent or unusable. */
async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse((await readOwned(path, SMALL_FILE_BYTES, { refuseLonger: true })) ?? '') as unknown;
  } catch {
    return undefined;
  }
}

function mismatch(was: RunIdentity, now: RunIdentity): string | undefined {
  const keys: Array<keyof RunIdentity> = ['origin', 'profile', 'format', 'families', 'pageSize', 'watermark', 'split', 'fields'];
  for (const key of keys) {
    // A run file written before --fields was recorded holds none: every field.
    const before = JSON.stringify(was[key] ?? null);
    if (before !== JSON.stringify(now[key])) return `${key} was ${before}, this run has ${JSON.stringify(now[key])}`;
  }
  return undefined;
}

/** Where a run works: DIR's parent, the hidden sibling, the run's lock beside it. */
export interface Target {
  parent: string;
  temp: string;
  lock: string;
  /** DIR holds a previous snapshot that --replace replaces. */
  replacing: boolean;
  /** With --resume, DIR already holds this very export, complete: its manifest (nothing to do). */
  complete?: Partial<Manifest>;
}

/**
 * Check --dir before any request: its parent exists, and DIR does not (or, with --replace, is a
 * previous snapshot; or, with --resume, is this export already complete). No side effect.
 */
export async function checkTarget(plan: ExportPlan, session: { origin: string; profile: string }): Promise<Target> {
  const parent = dirname(plan.dir);
  if ((await entryType(parent)) !== 'directory') throw new UsageError(`--dir ${plan.dirGiven}: ${parent} is not an existing directory`);
  const temp = join(parent, `.${basename(plan.dir)}.export-partial`);
  const lock = join(parent, `.${basename(plan.dir)}.export-lock`);
  const existing = await entryType(plan.dir);
  if (existing === 'missing') return { parent, temp, lock, replacing: false };
  const previous =
    existing === 'directory' ? ((await readJson(join(plan.dir, MANIFEST_FILE))) as Partial<Manifest> | undefined) : undefined;
  if (!plan.replace) {
    // A run resumed after it finished (the cron line run twice a day) has nothing left to do.
    const differs = previous?.kind === MANIFEST_KIND ? snapshotDifference(previous, plan, session) : 'no manifest';
    if (plan.mode === 'resume' && differs === undefined) return { parent, temp, lock, replacing: false, complete: previous };
    const what = plan.mode === 'resume' && previous?.kind === MANIFEST_KIND ? ` and holds another export (${differs})` : '';
    throw new UsageError(`--dir ${plan.dirGiven} already exists${what}; a snapshot is written to a new directory`, {
      hint: 'name a new one (e.g. with the date), or pass --replace to replace a previous snapshot there',
    });
  }
  if (previous?.kind !== MANIFEST_KIND) {
    throw new UsageError(
      `--replace: ${plan.dirGiven} is not a snapshot written by \`appraisal export\` (no ${MANIFEST_FILE}); refusing to replace it`,
    );
  }
  return { parent, temp, lock, replacing: true };
}

export class SnapshotDir {
  private constructor(
    private readonly plan: ExportPlan,
    private readonly target: Target,
    /** When the run began (the interrupted run's start, when resumed). */
    readonly startedAt: string,
    /** The same by the service's clock: the next --since-last starts there. */
    readonly serviceStartedAt: string,
  ) {}

  get temp(): string {
    return this.target.temp;
  }

  /** Start a new run, or take up an interrupted one (--resume), or replace it (with a notice). */
  static async open(ctx: Context, plan: ExportPlan, target: Target, identity: RunIdentity, time: ServiceTime): Promise<SnapshotDir> {
    const { temp } = target;
    const where = `${plan.dirGiven} (in ${basename(temp)} beside it)`;
    if ((await entryType(temp)) !== 'missing') {
      const problem = privateDirProblem(await lstat(temp));
      if (problem !== undefined) {
        throw new UnsafeFileError(
          temp,
          problem,
          `this CLI makes it 0700 and its own: remove ${temp} (or find out who put it there), then run the export again`,
        );
      }
      const state = (await readJson(join(temp, RUN_FILE))) as RunState | undefined;
      if (state?.kind !== RUN_KIND) {
        throw new UsageError(`${temp} is in the way and is not an interrupted export`, { hint: 'remove it, then run the export again' });
      }
      const names = await readdir(temp);
      const finished = identity.families.filter((family) => names.includes(doneName(family)));
      if (plan.mode === 'resume') {
        const differs = mismatch(state, identity);
        if (differs !== undefined) {
          throw new UsageError(`--resume: the interrupted export to ${where} is another export (${differs})`, {
            hint: 'run the same command as the one that was interrupted, or pass --restart to start this one from the beginning',
          });
        }
        ctx.io.notice(
          `Resuming the export to ${plan.dirGiven} started ${state.startedAt}${finished.length > 0 ? `: ${finished.join(', ')} finished and are not fetched again` : ''}`,
        );
        // The interrupted run's start by the service's clock; a run file without it (an older
        // appraisal) has only this machine's, moved by the skew measured now.
        const serviceStartedAt =
          typeof state.serviceStartedAt === 'string' && Number.isFinite(Date.parse(state.serviceStartedAt))
            ? state.serviceStartedAt
            : new Date(Date.parse(state.startedAt) + (time.offsetMs ?? 0)).toISOString();
        return new SnapshotDir(plan, target, state.startedAt, serviceStartedAt);
      }
      if (plan.mode === 'auto') {
        ctx.io.notice(
          `An interrupted export to ${where}, started ${state.startedAt}, is replaced; run with --resume to continue such an export instead`,
        );
      }
      await rm(temp, { recursive: true, force: true });
    } else if (plan.mode === 'resume') {
      ctx.io.notice(`Nothing to resume for ${plan.dirGiven}: starting from the beginning`);
    }
    const startedAt = ctx.now().toISOString();
    const serviceStartedAt = new Date(time.now).toISOString();
    try {
      await mkdir(temp, { mode: 0o700 });
      // Exactly 0700 whatever the umask: a resumed run checks it (privateDirProblem).
      await chmod(temp, 0o700);
      const state: RunState = { kind: RUN_KIND, version: 1, startedAt, serviceStartedAt, ...identity };
      await writeFileAtomic(join(temp, RUN_FILE), `${JSON.stringify(state)}\n`, { mode: 0o600 });
      await syncDirectory(target.parent);
    } catch (error) {
      throw new LocalEnvironmentError(`--dir ${plan.dirGiven}: cannot create ${temp} (${fileErrorWords(error)})`, { cause: error });
    }
    return new SnapshotDir(plan, target, startedAt, serviceStartedAt);
  }

  pathOf(file: string): string {
    return join(this.temp, file);
  }

  /**
   * The family's entry, when an earlier attempt of this run finished it and its files are still what
   * its done-marker records (size and sha256 of each); undefined otherwise (it is exported again).
   */
  async finished(ctx: Context, family: string, file: string): Promise<FamilyEntry | undefined> {
    const done = (await readJson(join(this.temp, doneName(family)))) as Partial<FamilyEntry> | undefined;
    if (done?.family !== family || done.file !== file) return undefined;
    const recorded = done.parts ?? [{ file, bytes: done.bytes, sha256: done.sha256 }];
    for (const part of recorded) {
      const found = await fileDigest(this.pathOf(part.file)).catch(() => undefined);
      if (found === undefined || found.bytes !== part.bytes || found.sha256 !== part.sha256) {
        ctx.io.notice(`${part.file} is not what the interrupted run finished (size or sha256 differ): ${family} is exported again`);
        return undefined;
      }
    }
    return done as FamilyEntry;
  }

  /** Record a finished family with the size and sha256 of its files (see finished()). */
  async markFinished(entry: FamilyEntry): Promise<void> {
    await writeFileAtomic(join(this.temp, doneName(entry.family)), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }

  /** Whether anything of this run is worth keeping for --resume. */
  async hasProgress(): Promise<boolean> {
    const names = await readdir(this.temp).catch(() => [] as string[]);
    return names.some((name) => name !== RUN_FILE);
  }

  /** A run that failed before anything was kept leaves nothing behind. */
  async discard(): Promise<void> {
    await rm(this.temp, { recursive: true, force: true });
  }

  /** Write the manifest, drop the run's own files, fsync, and rename the whole directory to DIR. */
  async complete(manifest: Manifest): Promise<void> {
    const { temp, parent } = this.target;
    try {
      await writeFileAtomic(join(temp, MANIFEST_FILE), manifestText(manifest), { mode: defaultFileMode() });
      for (const entry of manifest.families) await rm(join(temp, doneName(entry.family)), { force: true });
      await rm(join(temp, RUN_FILE), { force: true });
      // Private while it was built; a finished snapshot gets a directory's usual mode (ours to set).
      await chmod(temp, defaultDirMode());
      await syncDirectory(temp);
      if (this.target.replacing) {
        // No rename replaces a non-empty directory: the old snapshot steps aside first, and goes
        // only once the new one is in place.
        const old = join(parent, `.${basename(this.plan.dir)}.replaced-${randomBytes(4).toString('hex')}`);
        await rename(this.plan.dir, old);
        await rename(temp, this.plan.dir);
        await syncDirectory(parent);
        await rm(old, { recursive: true, force: true });
      } else {
        await rename(temp, this.plan.dir);
      }
      await syncDirectory(parent);
    } catch (error) {
      throw new LocalEnvironmentError(`could not put the snapshot in place at ${this.plan.dirGiven}: ${fileErrorWords(error)}`, {
        cause: error,
      });
    }
  }
}
