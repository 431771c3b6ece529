// "Your key expires soon", for every command, at most once a day per profile — without a request
// and without touching the keychain. What the service said about a profile's key (its prefix and
// expiresAt) is cached in <config dir>/key-expiry.json when it is learnt (auth login, auth status,
// keys rotate, keys create --store-as), together with the day the warning was last shown.
// The file holds prefixes and dates only, never a key (mode 0600, written atomically).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { ensurePrivateDir } from '../config.js';
import type { Context } from '../context.js';
import type { IO } from '../io.js';
import type { Session } from '../session.js';
import { expiryWarning } from './expiry.js';

export const EXPIRY_STATE_FILE = 'key-expiry.json';

export interface KeyExpiryFacts {
  prefix: string;
  /** The key's name, when the service said it: a lease's is not warned of (expiry.ts). */
  name?: unknown;
  expiresAt: string | null | undefined;
  scopes?: readonly string[] | undefined;
}

interface Entry {
  prefix: string;
  expiresAt: string | null;
  scopes?: string[];
  /** Local date (YYYY-MM-DD) the warning was last printed. */
  warnedOn?: string;
}

type State = Record<string, Entry>;

function statePath(configDir: string): string {
  return join(configDir, EXPIRY_STATE_FILE);
}

function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Read tolerantly: a missing, unreadable or hand-edited file is an empty cache. */
function readState(configDir: string): State {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(statePath(configDir), 'utf8'));
  } catch {
    return {};
  }
  const profiles = (raw as { profiles?: unknown } | null)?.profiles;
  if (!profiles || typeof profiles !== 'object') return {};
  const state: State = {};
  for (const [name, value] of Object.entries(profiles as Record<string, unknown>)) {
    const entry = value as Partial<Entry> | null;
    if (!entry || typeof entry.prefix !== 'string') continue;
    state[name] = {
      prefix: entry.prefix,
      expiresAt: typeof entry.expiresAt === 'string' ? entry.expiresAt : null,
      ...(Array.isArray(entry.scopes) ? { scopes: entry.scopes.map(String) } : {}),
      ...(typeof entry.warnedOn === 'string' ? { warnedOn: entry.warnedOn } : {}),
    };
  }
  return state;
}

function writeState(configDir: string, state: State): void {
  const path = statePath(configDir);
  try {
    ensurePrivateDir(configDir);
    writeFileAtomicSync(path, `${JSON.stringify({ profiles: state }, null, 2)}\n`, { mode: 0o600 });
  } catch {
    // A cache: failing to write it only means the warning may come again.
  }
}

/** Remember what the service said about a profile's key. A new key or a new expiry resets the daily warning. */
export function rememberKeyExpiry(configDir: string, profileName: string, facts: KeyExpiryFacts): void {
  if (!/^apk_[A-Za-z0-9]{8}$/.test(facts.prefix)) return;
  const state = readState(configDir);
  const expiresAt = typeof facts.expiresAt === 'string' && facts.expiresAt !== '' ? facts.expiresAt : null;
  const previous = state[profileName];
  const scopes = facts.scopes ? [...facts.scopes] : previous?.prefix === facts.prefix ? previous.scopes : undefined;
  const same =
    previous !== undefined &&
    previous.prefix === facts.prefix &&
    previous.expiresAt === expiresAt &&
    String(previous.scopes) === String(scopes);
  if (same) return;
  state[profileName] = { prefix: facts.prefix, expiresAt, ...(scopes ? { scopes } : {}) };
  writeState(configDir, state);
}

/** Forget a profile's key (it was removed or its key changed to one we know nothing about). */
export function forgetKeyExpiry(configDir: string, profileName: string): void {
  const state = readState(configDir);
  if (!(profileName in state)) return;
  delete state[profileName];
  writeState(configDir, state);
}

/** Once per run per key (auth status must not repeat the command-wide notice): the run's IO keeps count. */
const expiryKey = (prefix: string) => `key-expiry:${prefix}`;

/**
 * The once-a-day notice every command gets (called where the API client is created): the cached
 * expiry of the profile's key, if it is the key in use, within 14 days (or past). Never throws,
 * never makes a request, never reads the keychain.
 */
export async function noticeKeyExpiry(ctx: Pick<Context, 'io' | 'now' | 'config'>, session: Session): Promise<void> {
  try {
    const credential = session.credential;
    if (!credential) return;
    const { dir } = await ctx.config();
    const state = readState(dir);
    const entry = state[session.profileName];
    if (!entry || entry.prefix !== credential.prefix) return;
    const now = ctx.now();
    const warning = expiryWarning(entry, now, { profileName: session.profileName });
    const today = localDay(now);
    if (!warning || entry.warnedOn === today) return;
    ctx.io.warnOnce(expiryKey(entry.prefix), warning);
    state[session.profileName] = { ...entry, warnedOn: today };
    writeState(dir, state);
  } catch {
    // A notice must never break the command it rides on.
  }
}

/**
 * For `auth status`, which asks the service itself: print the warning every time (once per process:
 * the command-wide notice may already have shown it) and, for a stored key (`configDir` given),
 * cache the fresh facts and count this as the day's warning.
 */
export function warnKeyExpiry(io: IO, now: Date, facts: KeyExpiryFacts, stored?: { configDir: string; profileName: string }): void {
  const warning = expiryWarning(facts, now, { profileName: stored?.profileName });
  if (warning) io.warnOnce(expiryKey(facts.prefix), warning);
  if (!stored) return;
  try {
    rememberKeyExpiry(stored.configDir, stored.profileName, facts);
    if (!warning) return;
    const state = readState(stored.configDir);
    const entry = state[stored.profileName];
    if (entry) {
      state[stored.profileName] = { ...entry, warnedOn: localDay(now) };
      writeState(stored.configDir, state);
    }
  } catch {
    // A cache only.
  }
}
