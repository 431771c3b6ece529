// The slowest transfer the CLI waits for (`--min-rate`, APPRAISAL_MIN_RATE): at least SIZE must move
// in every DURATION of an upload's or a download's body, as curl's --speed-limit/--speed-time. An
// idle timeout alone lets a server that sends (or reads) a byte a second keep a cron job alive
// forever; an overall deadline would cut off a large file on a slow link that is still moving. A
// floor on the rate bounds the first and spares the second.
import { formatDuration, parseDuration } from './duration.js';
import { UsageError } from './errors.js';
import { formatBytes, sizeInBytes } from './size.js';

export interface MinRate {
  /** At least this many bytes… */
  bytes: number;
  /** …in every window this long (milliseconds). */
  windowMs: number;
}

/** 30 KiB in every 30 s (1 KiB/s on average): far below any link a file is sent over, far above a trickle. */
export const DEFAULT_MIN_RATE: MinRate = { bytes: 30 * 1024, windowMs: 30_000 };

/** The spelling `--min-rate` takes, for messages and help. */
export const MIN_RATE_EXAMPLE = '30KiB/30s';

const WINDOW_LIMITS = { minMs: 1_000, maxMs: 3_600_000 };

/** `SIZE/DURATION` (`30KiB/30s`), or `0`/`off` for no floor; else one usage line naming `name`. */
export function parseMinRate(raw: string, name: string): MinRate | 'off' {
  const text = raw.trim();
  if (text === '0' || text.toLowerCase() === 'off') return 'off';
  const slash = text.indexOf('/');
  const bytes = slash === -1 ? undefined : sizeInBytes(text.slice(0, slash));
  if (bytes === undefined || bytes < 1) {
    throw new UsageError(
      `${name} must be a size per duration such as ${MIN_RATE_EXAMPLE} or 1KiB/10s (or 0 for no floor), got "${text.slice(0, 40)}"`,
    );
  }
  return { bytes, windowMs: parseDuration(text.slice(slash + 1), `the duration of ${name}`, WINDOW_LIMITS) };
}

/** The spelling that parses back to `rate` (`30720/30000ms`, `0`): a child's APPRAISAL_MIN_RATE. */
export function minRateSetting(rate: MinRate | 'off'): string {
  return rate === 'off' ? '0' : `${rate.bytes}/${rate.windowMs}ms`;
}

/** "30 KiB per 30s", for messages. */
export function formatMinRate(rate: MinRate): string {
  return `${formatBytes(rate.bytes)} per ${formatDuration(rate.windowMs)}`;
}

/** --min-rate (the flag's raw value), else APPRAISAL_MIN_RATE; neither set, undefined: the client's default. */
export function readMinRate(flag: unknown, variable: string | undefined): MinRate | 'off' | undefined {
  if (flag !== undefined) return parseMinRate(String(flag), '--min-rate');
  return variable === undefined ? undefined : parseMinRate(variable, 'APPRAISAL_MIN_RATE');
}
