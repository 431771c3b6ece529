// Old keys kept alive for a while after a rotation (`keys rotate --grace 24h`), to be revoked once
// their time has come by `keys revoke --due`; `auth status` shows them. Kept per profile in
// <config dir>/pending-revocations.json (ids, prefixes and times only, never a key; mode 0600,
// written atomically).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { ensurePrivateDir } from '../config.js';
import { LocalEnvironmentError } from '../errors.js';

export const PENDING_FILE = 'pending-revocations.json';

export interface PendingRevocation {
  id: string;
  prefix: string;
  /** The profile whose key replaced it. */
  profile: string;
  /** Origin of the service the key belongs to. */
  origin: string;
  /** ISO time from which `keys revoke --due` revokes it. */
  dueAt: string;
  recordedAt: string;
}

function pathOf(configDir: string): string {
  return join(configDir, PENDING_FILE);
}

function isPending(value: unknown): value is PendingRevocation {
  const entry = value as Partial<PendingRevocation> | null;
  return (
    typeof entry?.id === 'string' &&
    typeof entry.prefix === 'string' &&
    typeof entry.profile === 'string' &&
    typeof entry.origin === 'string' &&
    typeof entry.dueAt === 'string' &&
    !Number.isNaN(Date.parse(entry.dueAt))
  );
}

/** Every pending revocation (a missing or unreadable file: none). */
export function readPending(configDir: string): PendingRevocation[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(pathOf(configDir), 'utf8'));
  } catch {
    return [];
  }
  const items = (raw as { pending?: unknown } | null)?.pending;
  return Array.isArray(items) ? items.filter(isPending) : [];
}

function writePending(configDir: string, items: readonly PendingRevocation[]): void {
  const path = pathOf(configDir);
  try {
    ensurePrivateDir(configDir);
    writeFileAtomicSync(path, `${JSON.stringify({ pending: items }, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new LocalEnvironmentError(`cannot write ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** Record (or replace, by key id) a pending revocation. */
export function addPending(configDir: string, entry: PendingRevocation): void {
  writePending(configDir, [...readPending(configDir).filter((item) => item.id !== entry.id), entry]);
}

/** Forget the ones done (revoked, or already gone on the service). */
export function removePending(configDir: string, ids: readonly string[]): void {
  const done = new Set(ids);
  const before = readPending(configDir);
  const after = before.filter((item) => !done.has(item.id));
  if (after.length !== before.length) writePending(configDir, after);
}

export function pendingFor(configDir: string, profile: string): PendingRevocation[] {
  return readPending(configDir).filter((item) => item.profile === profile);
}

export function isDue(entry: PendingRevocation, now: Date): boolean {
  return Date.parse(entry.dueAt) <= now.getTime();
}
