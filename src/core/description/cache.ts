// The description cache: one file per service origin in <config dir>/cache, written atomically with
// mode 0600. It holds the last good document with its ETag, when it was fetched and last checked,
// or the fact that the service publishes none (then the bundled model is used).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import type { Context } from '../context.js';

export interface CacheEntry {
  /** The service base URL this entry belongs to. */
  baseUrl: string;
  /** `service`: a document the service published; `bundled`: it publishes none. */
  kind: 'service' | 'bundled';
  /** The profile's --spec-url when the entry was made (a changed setting makes the entry void). */
  configured: string | null;
  /** Where the document came from (kind service). */
  url?: string | undefined;
  etag?: string | undefined;
  lastModified?: string | undefined;
  /** When this document was last downloaded (a 200). */
  fetchedAt: string;
  /** When the service was last asked (a 200 or 304); freshness counts from here. */
  checkedAt: string;
  document?: unknown;
  /**
   * Where an answer of a later run announced the description (an RFC 8631 service-desc Link that
   * differs from `url`): the next run asks there first, fresh or not (announced.ts).
   */
  announced?: string | undefined;
  /** Profiles already told that the CLI uses its own model for this service. */
  noticed?: string[] | undefined;
}

/** Default freshness: a day, so a command does not pay a round trip for the description. */
export const DEFAULT_MAX_AGE_SECONDS = 24 * 60 * 60;

/** Cache file for one service: the hash keeps host names out of file names. */
export function cacheFileName(baseUrl: string): string {
  return `description-${createHash('sha256').update(baseUrl.replace(/\/+$/, '')).digest('hex').slice(0, 32)}.json`;
}

export async function cacheDir(ctx: Context): Promise<string | undefined> {
  try {
    const config = await ctx.config();
    if (config.dir) return join(config.dir, 'cache');
  } catch {
    // No usable config store: fall back to where it would be.
  }
  try {
    const { configDir } = await import('../config.js');
    return join(configDir(ctx.env), 'cache');
  } catch {
    return undefined;
  }
}

export async function readCache(ctx: Context, baseUrl: string): Promise<CacheEntry | undefined> {
  const dir = await cacheDir(ctx);
  if (dir === undefined) return undefined;
  try {
    // Read synchronously: tens of KB, and the only file most commands read after start-up, where an
    // async read starts libuv's thread pool (4 threads) for it alone.
    const entry = JSON.parse(readFileSync(join(dir, cacheFileName(baseUrl)), 'utf8')) as Partial<CacheEntry>;
    if (
      entry &&
      entry.baseUrl === baseUrl &&
      (entry.kind === 'bundled' || (entry.kind === 'service' && entry.document !== undefined)) &&
      typeof entry.checkedAt === 'string' &&
      typeof entry.fetchedAt === 'string'
    ) {
      return entry as CacheEntry;
    }
  } catch {
    // Missing or damaged: ask the service afresh.
  }
  return undefined;
}

/** Temp file + rename: a concurrent reader sees the old copy or the new one, never half. */
export async function writeCache(ctx: Context, entry: CacheEntry): Promise<void> {
  const dir = await cacheDir(ctx);
  if (dir === undefined) return;
  try {
    const { ensurePrivateDir } = await import('../config.js');
    ensurePrivateDir(dir);
    await writeFileAtomic(join(dir, cacheFileName(entry.baseUrl)), JSON.stringify(entry), { mode: 0o600 });
  } catch (error) {
    ctx.io.debug(`could not cache the service description in ${dir}: ${(error as Error).message}`);
  }
}

/** APPRAISAL_SPEC_MAX_AGE (seconds) or a day. */
export function maxAgeSeconds(ctx: Context): number {
  const raw = ctx.env.APPRAISAL_SPEC_MAX_AGE;
  if (raw === undefined || raw.trim() === '') return DEFAULT_MAX_AGE_SECONDS;
  const value = Number(raw.trim());
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_MAX_AGE_SECONDS;
}

export function isFresh(ctx: Context, entry: CacheEntry): boolean {
  const age = (ctx.now().getTime() - Date.parse(entry.checkedAt)) / 1000;
  return age >= 0 && age < maxAgeSeconds(ctx);
}
