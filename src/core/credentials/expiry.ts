// "Your key expires soon": one function, so `auth status` and the once-a-day check of every command
// word it the same way.

export const EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface KeyExpiryFacts {
  prefix?: unknown;
  expiresAt?: unknown;
}

function when(ms: number): string {
  if (ms < DAY_MS) {
    const hours = Math.max(1, Math.ceil(ms / (60 * 60 * 1000)));
    return `${hours} hour${hours === 1 ? '' : 's'}`;
  }
  const days = Math.round(ms / DAY_MS);
  return `${days} day${days === 1 ? '' : 's'}`;
}

/**
 * The warning (without the `warning: ` lead) for a key that expires within `withinDays`, or that has
 * already expired; undefined when it does not expire soon, never expires, or the date is unreadable.
 */
export function expiryWarning(record: KeyExpiryFacts, now: Date, withinDays = EXPIRY_WARNING_DAYS): string | undefined {
  if (typeof record.expiresAt !== 'string' || record.expiresAt === '') return undefined;
  const expires = new Date(record.expiresAt);
  if (Number.isNaN(expires.getTime())) return undefined;
  const left = expires.getTime() - now.getTime();
  const key = typeof record.prefix === 'string' && record.prefix ? `key ${record.prefix}…` : 'the key';
  if (left <= 0) return `${key} expired on ${expires.toISOString()}; create a new one (appraisal keys create) and log in with it`;
  if (left > withinDays * DAY_MS) return undefined;
  return `${key} expires in ${when(left)} (${expires.toISOString()}); rotate it with appraisal keys rotate`;
}
