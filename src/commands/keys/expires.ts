// When a new key expires: `--expires-in 90d|12h|2w` (from now) or `--expires-at ISO` (a moment in
// the future). Checked before any request; the service receives an ISO 8601 timestamp in UTC.
import { quoteInput } from '../../core/ids.js';
import { UsageError } from '../../core/errors.js';

const HOUR_MS = 60 * 60 * 1000;
const UNIT_MS: Readonly<Record<string, number>> = { h: HOUR_MS, d: 24 * HOUR_MS, w: 7 * 24 * HOUR_MS };
/** Ten years: anything longer is a typo (or should be no expiry at all). */
const MAX_LIFETIME_MS = 3650 * 24 * HOUR_MS;

const DURATION = /^(\d{1,6})\s*([hdw])$/i;
/** A date, or a date and time with seconds optional and a zone (Z or ±hh:mm) required. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;

/** `90d` → milliseconds. */
export function parseDuration(text: string, flag = '--expires-in'): number {
  const match = DURATION.exec(text.trim());
  if (!match) {
    throw new UsageError(`${flag} must be a whole number of hours, days or weeks such as 12h, 90d or 2w; got ${quoteInput(text)}`);
  }
  const ms = Number(match[1]) * UNIT_MS[match[2]!.toLowerCase()]!;
  if (ms <= 0) throw new UsageError(`${flag} must be at least 1h; got ${quoteInput(text)}`);
  if (ms > MAX_LIFETIME_MS) throw new UsageError(`${flag} must be at most 3650d (ten years); got ${quoteInput(text)}`);
  return ms;
}

/** `--expires-at`: a future instant. A bare date means midnight UTC of that day. */
export function parseExpiresAt(text: string, now: Date, flag = '--expires-at'): Date {
  const trimmed = text.trim();
  const at = TIMESTAMP.test(trimmed) ? new Date(trimmed) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) {
    throw new UsageError(
      `${flag} must be an ISO 8601 date or timestamp with a zone, e.g. 2027-01-31 or 2027-01-31T12:00:00Z; got ${quoteInput(text)}`,
    );
  }
  if (at.getTime() <= now.getTime()) throw new UsageError(`${flag} must be in the future; got ${at.toISOString()}`);
  return at;
}

export interface ExpiryOptions {
  expiresIn?: string | undefined;
  expiresAt?: string | undefined;
}

/**
 * The expiry the user asked for: an ISO timestamp, or undefined when neither flag was given.
 * The two flags exclude each other.
 */
export function requestedExpiry(options: ExpiryOptions, now: Date): string | undefined {
  if (options.expiresIn !== undefined && options.expiresAt !== undefined) {
    throw new UsageError('give --expires-in or --expires-at, not both');
  }
  if (options.expiresIn !== undefined) return new Date(now.getTime() + parseDuration(options.expiresIn)).toISOString();
  if (options.expiresAt !== undefined) return parseExpiresAt(options.expiresAt, now).toISOString();
  return undefined;
}

/** How long a key was meant to live (expiresAt − createdAt), or undefined when it never expires or the dates are unreadable. */
export function lifetimeOf(record: { createdAt?: unknown; expiresAt?: unknown }): number | undefined {
  if (typeof record.expiresAt !== 'string' || typeof record.createdAt !== 'string') return undefined;
  const ms = Date.parse(record.expiresAt) - Date.parse(record.createdAt);
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_LIFETIME_MS) : undefined;
}
