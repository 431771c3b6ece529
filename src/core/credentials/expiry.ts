// "Your key expires soon": one function, so `auth status` and the once-a-day check of every command
// word it the same way.
import { DAY_MS, spanInWords } from '../duration.js';
import { isLeaseName } from './lease-name.js';

export const EXPIRY_WARNING_DAYS = 14;

export interface KeyExpiryFacts {
  prefix?: unknown;
  /** The key's name, when known: a lease's (`lease: …`) is made to expire, and is not warned of. */
  name?: unknown;
  expiresAt?: unknown;
  /** The key's scopes, when known: a key without an admin scope cannot rotate itself. */
  scopes?: unknown;
}

export interface ExpiryWarningOptions {
  /** The profile the key is stored for: the fix names it. */
  profileName?: string | undefined;
  withinDays?: number;
}

/** The scopes that may create keys (and so rotate): the service's key-admin scopes. */
const ROTATING_SCOPES = ['keys:admin', 'api:admin'];

/** False only when the scopes are known and none of them may create a key. */
export function canRotateItself(scopes: unknown): boolean {
  if (!Array.isArray(scopes)) return true;
  return scopes.some((scope) => ROTATING_SCOPES.includes(String(scope)));
}

function fix(record: KeyExpiryFacts, profileName: string | undefined): string {
  const profile = profileName ? ` --profile ${profileName}` : '';
  if (canRotateItself(record.scopes)) return `rotate it with appraisal keys rotate${profile}`;
  const scopes = (record.scopes as unknown[]).map(String);
  const target = profileName ? ` --store-as ${profileName}` : '';
  return `this key cannot rotate itself (scopes ${scopes.join(', ') || 'none'}, no keys:admin or api:admin): someone with such a key can replace it with appraisal keys create --name NAME ${scopes.map((scope) => `--scope ${scope}`).join(' ')}${target}`;
}

/**
 * The warning (without the `warning: ` lead) for a key that expires within `withinDays`, or that has
 * already expired; undefined when it does not expire soon, never expires, or the date is unreadable.
 */
export function expiryWarning(record: KeyExpiryFacts, now: Date, options: ExpiryWarningOptions = {}): string | undefined {
  // A job run under `keys lease` asked for a key that dies with it: "rotate it" would be wrong advice.
  if (isLeaseName(record.name)) return undefined;
  const withinDays = options.withinDays ?? EXPIRY_WARNING_DAYS;
  if (typeof record.expiresAt !== 'string' || record.expiresAt === '') return undefined;
  const expires = new Date(record.expiresAt);
  if (Number.isNaN(expires.getTime())) return undefined;
  const left = expires.getTime() - now.getTime();
  const key = typeof record.prefix === 'string' && record.prefix ? `key ${record.prefix}…` : 'the key';
  if (left <= 0) return `${key} expired on ${expires.toISOString()}; create a new one (appraisal keys create) and log in with it`;
  if (left > withinDays * DAY_MS) return undefined;
  return `${key} expires in ${spanInWords(left)} (${expires.toISOString()}); ${fix(record, options.profileName)}`;
}
