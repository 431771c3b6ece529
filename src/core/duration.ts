// Durations on the command line (watch --interval, smoke --wait-ready/--max-latency):
// `30s | 5m | 1h | 1m30s | 1500ms | 90` (plain number = seconds).
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
      `${flag} must be between ${formatDuration(limits.minMs)} and ${formatDuration(limits.maxMs)}, got ${formatDuration(ms)}`,
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
