// `keys rotate --if-expiring-within 14d` / `--if-older-than 90d`: rotate only when the key's record
// on the service (expiresAt, createdAt — not the local cache) says it is time, so cron and CI can
// run the command daily. Either condition is enough; when none holds, one line says why not.
import type { KeyRecord } from '../records.js';
import { parseDuration } from '../expires.js';
import { spanInWords } from '../../../core/duration.js';

export interface ScheduleOptions {
  ifExpiringWithin?: string | undefined;
  ifOlderThan?: string | undefined;
}

export interface Schedule {
  expiringWithinMs: number | undefined;
  olderThanMs: number | undefined;
}

/** Parsed before any request; undefined when neither flag was given (rotate unconditionally). */
export function parseSchedule(options: ScheduleOptions): Schedule | undefined {
  if (options.ifExpiringWithin === undefined && options.ifOlderThan === undefined) return undefined;
  return {
    expiringWithinMs: options.ifExpiringWithin === undefined ? undefined : parseDuration(options.ifExpiringWithin, '--if-expiring-within'),
    olderThanMs: options.ifOlderThan === undefined ? undefined : parseDuration(options.ifOlderThan, '--if-older-than'),
  };
}

export type Decision = { rotate: true; because: string } | { rotate: false; because: string };

/**
 * Whether the key's own record says it is time to rotate, and in words why (or why not). When it
 * is not time, `because` is what the key does, to follow its name in one sentence: "key apk_… of
 * profile ci expires in 41 days and is 20 days old".
 */
export function decide(schedule: Schedule, record: KeyRecord, now: Date): Decision {
  const reasons: string[] = [];
  if (schedule.expiringWithinMs !== undefined) {
    const expires = typeof record.expiresAt === 'string' ? Date.parse(record.expiresAt) : Number.NaN;
    if (Number.isNaN(expires)) reasons.push('never expires');
    else {
      const left = expires - now.getTime();
      if (left <= schedule.expiringWithinMs)
        return { rotate: true, because: left <= 0 ? 'it has expired' : `it expires in ${spanInWords(left)}` };
      reasons.push(`expires in ${spanInWords(left)}`);
    }
  }
  if (schedule.olderThanMs !== undefined) {
    const created = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN;
    if (Number.isNaN(created)) reasons.push('has no creation time on the service');
    else {
      const age = now.getTime() - created;
      if (age >= schedule.olderThanMs) return { rotate: true, because: `it is ${spanInWords(age)} old` };
      reasons.push(`is ${spanInWords(age)} old`);
    }
  }
  return { rotate: false, because: reasons.join(' and ') };
}
