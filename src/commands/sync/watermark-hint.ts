// Where the next incremental run will most likely start: the watermark the last run on this machine
// left in the same database, kept beside the description cache (a file per origin, target, schema
// and family, named by a hash). With it, a run asks for its first family's first page while DuckDB
// loads and opens its file, instead of after (~10 ms of a short run, measured: CHANGELOG). Only a
// hint: the state row in the database still decides, and a page asked from a watermark the row does
// not confirm (a database copied, restored or synced from another machine) is stopped (its request
// aborted) and asked again. A machine with an empty cache (a CI runner) reads as if there were none;
// losing the file loses nothing. A hint not written for STALE_DAYS is removed when another is kept,
// so a machine that syncs into many databases (a test run's temporary files) does not gather them.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import type { Context } from '../../core/context.js';
import { cacheDir } from '../../core/description/cache.js';
import { readOwnedSync } from '../../core/owned-file.js';
import type { ResourceFamily } from '../../core/resources.js';
import { sinceOf } from './family-sync.js';
import type { SyncPlan } from './plan.js';
import { startPass, type Reading } from './reading.js';
import type { SyncTarget } from './target.js';

/** What a hint belongs to. */
export interface HintKey {
  origin: string;
  target: SyncTarget;
  /** --schema as given (undefined: the database's default). */
  schema: string | undefined;
  /** The family's name (`props`). */
  family: string;
}

/** A hint is a few bytes; anything longer is not one of ours. */
const MAX_BYTES = 256;
/** A hint's file name. */
const HINT_FILE = /^sync-[0-9a-f]{32}\.json$/;
/** Days after which a hint no run has written is removed. */
const STALE_DAYS = 30;

/** The database a target names, without a password a libpq URL may hold; undefined for one that cannot be read as a URL. */
function databaseOf(target: SyncTarget): string | undefined {
  if (target.kind === 'duckdb') return `duckdb:${target.path}`;
  try {
    const url = new URL(target.url);
    url.password = '';
    url.searchParams.delete('password');
    return url.href;
  } catch {
    return undefined;
  }
}

async function hintFile(ctx: Context, key: HintKey): Promise<string | undefined> {
  const database = databaseOf(key.target);
  const dir = database === undefined ? undefined : await cacheDir(ctx);
  if (dir === undefined) return undefined;
  const name = createHash('sha256')
    .update(JSON.stringify([key.origin, database, key.schema ?? null, key.family]))
    .digest('hex')
    .slice(0, 32);
  return join(dir, `sync-${name}.json`);
}

/** Remove the hints in `dir` no run has written for STALE_DAYS (this machine's clock: file times are its own). */
function removeStale(dir: string, now: number): void {
  for (const name of readdirSync(dir)) {
    if (!HINT_FILE.test(name)) continue;
    const file = join(dir, name);
    // Gone meanwhile (another sync on this machine pruned it): nothing to do.
    const info = lstatSync(file, { throwIfNoEntry: false });
    if (info !== undefined && now - info.mtimeMs > STALE_DAYS * 86_400_000) rmSync(file, { force: true });
  }
}

/** The watermark (service time, ms) the last run on this machine left, if it left one we can read. */
export async function readHint(ctx: Context, key: HintKey): Promise<number | undefined> {
  const file = await hintFile(ctx, key);
  if (file === undefined) return undefined;
  try {
    const text = readOwnedSync(file, MAX_BYTES);
    const watermark = text === undefined ? undefined : (JSON.parse(text) as { watermark?: unknown }).watermark;
    return typeof watermark === 'number' && Number.isSafeInteger(watermark) ? watermark : undefined;
  } catch {
    // Damaged, another user's, not a file: no hint.
    return undefined;
  }
}

/**
 * Keep the watermark a run has just committed. Not made durable (no fsync): a crash loses the hint,
 * never data, and a short run does not wait for the disk.
 */
export async function writeHint(ctx: Context, key: HintKey, watermark: number): Promise<void> {
  const file = await hintFile(ctx, key);
  if (file === undefined) return;
  try {
    const { ensurePrivateDir } = await import('../../core/config.js');
    ensurePrivateDir(dirname(file));
    writeFileAtomicSync(file, JSON.stringify({ watermark: Math.floor(watermark) }), { durable: false });
    removeStale(dirname(file), ctx.now().getTime());
  } catch (error) {
    ctx.io.debug(`could not keep the sync's watermark hint in ${file}: ${(error as Error).message}`);
  }
}

/** One run's hints: its first family's page asked from one, and the watermarks its passes commit kept after it. */
export class RunHints {
  /** The page asked from the hint, until a pass takes it or it is stopped. */
  private early: Reading | undefined;
  private readonly committed: Array<[HintKey, number]> = [];

  constructor(
    private readonly ctx: Context,
    private readonly plan: Pick<SyncPlan, 'target' | 'schema' | 'overlapMs' | 'full'>,
    private readonly origin: string,
  ) {}

  private keyOf(family: ResourceFamily): HintKey {
    return { origin: this.origin, target: this.plan.target, schema: this.plan.schema, family: family.name };
  }

  /** Asks for `family`'s first page now, when a hint is kept for it (never for --full). */
  async askEarly(family: ResourceFamily): Promise<void> {
    const hinted = this.plan.full ? undefined : await readHint(this.ctx, this.keyOf(family));
    if (hinted === undefined) return;
    this.ctx.io.debug(
      `sync: ${family.view.label} asked from the watermark this machine kept (${new Date(hinted).toISOString()}), before the database answers`,
    );
    this.early = startPass(this.ctx, family, sinceOf(hinted, this.plan.overlapMs));
  }

  /**
   * The page asked early, for the pass whose state row says to read from `since` (null: the whole
   * family), when it was asked from there; otherwise it is stopped, and undefined.
   */
  async take(since: string | null, table: string): Promise<Reading | undefined> {
    const early = this.early;
    this.early = undefined;
    if (early === undefined || early.since === since) return early;
    this.ctx.io.debug(`sync: the database's state of ${table} is not the watermark this machine kept: its page is asked again`);
    await early.stop();
    return undefined;
  }

  /** Stops a page asked early that no pass took (a refusal came first). */
  async stop(): Promise<void> {
    const early = this.early;
    this.early = undefined;
    await early?.stop();
  }

  /** The watermark a family's pass committed (a family read whole every run has none worth keeping). */
  note(family: ResourceFamily, watermark: number | null, incremental: boolean): void {
    if (watermark !== null && incremental) this.committed.push([this.keyOf(family), watermark]);
  }

  /** Keeps the watermarks noted (and not kept yet), for the next run on this machine. */
  async keep(): Promise<void> {
    for (const [key, watermark] of this.committed.splice(0)) await writeHint(this.ctx, key, watermark);
  }
}
