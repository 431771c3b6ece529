// Where the next incremental run will most likely start: the watermark the last run on this machine
// left in the same database, kept beside the description cache (a file per origin, target, schema
// and family, named by a hash). With it, the first page is asked for while DuckDB loads and opens
// its file, instead of after (~25 ms of a short run, measured: CHANGELOG). Only a hint: the state row
// in the database still decides, and a page asked from a watermark the row does not confirm (a
// database copied, restored or synced from another machine) is dropped and asked again. A machine
// with an empty cache (a CI runner) reads as if there were none; losing the file loses nothing.
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import type { Context } from '../../core/context.js';
import { cacheDir } from '../../core/description/cache.js';
import { readOwnedSync } from '../../core/owned-file.js';
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
  } catch (error) {
    ctx.io.debug(`could not keep the sync's watermark hint in ${file}: ${(error as Error).message}`);
  }
}
