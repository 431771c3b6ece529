// Deciding what changed. A record's version is its `updatedAt`; the state remembers the version last
// seen per id. Comparisons tolerate what a real deployment may send: sub-millisecond precision, and
// (should a record lack `updatedAt`) a content hash instead.
import { createHash } from 'node:crypto';
import type { ApiRecord } from '../../core/api-client.js';

export type ChangeType = 'created' | 'updated' | 'deleted';

/** How the very first poll treats the records it finds (there is nothing to compare them with). */
export interface BaselinePolicy {
  /** --emit-existing: every record is a "created" event. */
  emitExisting: boolean;
  /** --since ISO: records updated at or after it are events ("created" if created at or after it). */
  since: string | undefined;
}

const HASH_PREFIX = '#';

/** The version to remember for a record: `updatedAt`, else a hash of its content. */
export function versionOf(record: ApiRecord): string {
  const updatedAt = record.updatedAt;
  if (typeof updatedAt === 'string' && updatedAt !== '' && !updatedAt.startsWith(HASH_PREFIX)) return updatedAt;
  return HASH_PREFIX + createHash('sha256').update(JSON.stringify(record)).digest('hex').slice(0, 24);
}

/** The record's `updatedAt` when it is a usable timestamp. */
export function timestampOf(record: ApiRecord): string | undefined {
  const updatedAt = record.updatedAt;
  return typeof updatedAt === 'string' && Number.isFinite(Date.parse(updatedAt)) ? updatedAt : undefined;
}

/**
 * Whether `candidate` is a later version than `known`. Equal strings are the same version (a record
 * seen again on an overlapping poll); an earlier timestamp is a stale copy. Two different strings in
 * the same millisecond (finer precision) or versions that are not timestamps count as newer: a rare
 * extra event beats a missed one.
 */
export function isNewer(candidate: string, known: string): boolean {
  if (candidate === known) return false;
  const a = Date.parse(candidate);
  const b = Date.parse(known);
  if (Number.isFinite(a) && Number.isFinite(b) && a !== b) return a > b;
  return true;
}

/** The later of two timestamps (either may be missing). */
export function laterOf(a: string | null | undefined, b: string | null | undefined): string | null {
  if (a == null) return b ?? null;
  if (b == null) return a;
  return isNewer(b, a) ? b : a;
}

/**
 * The change a record is, given the version last seen for its id (undefined: never seen).
 * `unseen` says what an unknown id means: "created" on every poll after the first; on the first,
 * whatever the baseline policy decides (undefined = record it silently).
 */
export function changeFor(known: string | undefined, record: ApiRecord, unseen: ChangeType | undefined): ChangeType | undefined {
  if (known === undefined) return unseen;
  return isNewer(versionOf(record), known) ? 'updated' : undefined;
}

/**
 * What an unknown record on the first poll is. With --since: records updated before it are silent;
 * the rest are "created" when their `createdAt` is at or after it, else "updated" (they existed
 * before, and changed since).
 */
export function baselineChange(record: ApiRecord, policy: BaselinePolicy): ChangeType | undefined {
  if (policy.since !== undefined) {
    const since = Date.parse(policy.since);
    const updated = Date.parse(timestampOf(record) ?? '');
    if (!Number.isFinite(updated) || updated < since) return undefined;
    const created = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN;
    return Number.isFinite(created) && created >= since ? 'created' : 'updated';
  }
  return policy.emitExisting ? 'created' : undefined;
}
