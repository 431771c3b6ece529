// Durations on the command line (watch --interval, smoke --wait-ready/--max-latency):
// `30s | 5m | 1h | 1m30s | 1500ms | 90` (plain number = seconds); and the one way a span of time is
// said in words ("expires in 9 days"), so two messages about the same key never disagree.
import { UsageError } from './errors.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;

export interface DurationLimits {
  minMs: number;
  maxMs: number;
}

export function parseDuration(raw: string, flag: string, limits: DurationLimits): number {
  const text = raw.trim().toLowerCase();
  let ms: number | undefined;
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    ms = Number(text) * 1000;
  } else if (text !== '') {
    PART.lastIndex = 0;
    let total = 0;
    let end = 0;
    let match: RegExpExecArray | null;
    while ((match = PART.exec(text)) !== null) {
      total += Number(match[1]) * UNIT_MS[match[2]!]!;
      end = PART.lastIndex;
    }
    if (end === text.length) ms = total;
  }
  if (ms === undefined || !Number.isFinite(ms)) {
    throw new UsageError(`${flag} must be a duration such as 30s, 5m, 1h, 1m30s or a number of seconds, got "${raw.slice(0, 40)}"`);
  }
  ms = Math.round(ms);
  if (ms < limits.minMs || ms > limits.maxMs) {
    throw new UsageError(
      `${flag} must be between ${formatDuration(limits.minMs)} and ${formatDuration(limits.maxMs)}, got "${raw.slice(0, 40)}"`,
    );
  }
  return ms;
}

/** 90_000 → "1m30s"; 1_500 → "1.5s"; 250 → "250ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = Math.round(((ms % 60_000) / 1000) * 10) / 10;
  const parts: string[] = [];
  if (hours) parts.push(`${hours}h`);
  if (minutes) parts.push(`${minutes}m`);
  if (seconds || parts.length === 0) parts.push(`${seconds}s`);
  return parts.join('');
}

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** Whole days in a span by the same rule (nearest, half away from zero): `daysLeft` fields agree with the words. */
export function wholeDays(ms: number): number {
  return Math.sign(ms) * Math.round(Math.abs(ms) / DAY_MS) || 0;
}

const count = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * A span in words, the one rounding rule for "expires in …", "… old", "unused for …": a day or
 * more in days, else hours, else minutes, each to the nearest whole unit (half up), at least 1
 * minute. Nearest, not down: a key made to last 30 days reads "30 days" a few seconds later; both
 * messages about one key use this, so they never read 10 and 9 days. The sign is ignored: the
 * caller says "in" or "ago". 9 d 11 h 59 m → "9 days"; 9 d 12 h → "10 days"; 23 h 40 m → "24 hours".
 */
export function spanInWords(ms: number): string {
  const abs = Math.abs(ms);
  if (abs >= DAY_MS) return count(Math.abs(wholeDays(abs)), 'day');
  if (abs >= HOUR_MS) return count(Math.round(abs / HOUR_MS), 'hour');
  return count(Math.max(1, Math.round(abs / MINUTE_MS)), 'minute');
}
