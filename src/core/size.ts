// Sizes on the command line and in the environment (`--max-response-size`,
// APPRAISAL_MAX_RESPONSE_SIZE): bytes, or a number with a unit — `64MiB`, `512KiB`, `1GiB`, `100MB`.
// Units are binary (K = 1024) whether written KB or KiB: the limits they set are memory limits.
import { UsageError } from './errors.js';

const UNIT_BYTES: Readonly<Record<string, number>> = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };
const SIZE = /^(\d+(?:\.\d+)?)\s*(b|bytes?|[kmgt](?:i?b)?)?$/i;

/** Bytes in `raw`, or undefined when it is no size. */
export function sizeInBytes(raw: string): number | undefined {
  const match = SIZE.exec(raw.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? 'b').toLowerCase()[0]!;
  const bytes = Math.floor(Number(match[1]) * UNIT_BYTES[unit]!);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** Bytes of `raw` given as `name` (a flag or a variable), at least `minBytes`; else one usage error line. */
export function parseSize(raw: string, name: string, minBytes: number): number {
  const bytes = sizeInBytes(raw);
  if (bytes === undefined || bytes < minBytes) {
    throw new UsageError(
      `${name} must be a size of at least ${formatBytes(minBytes)} such as 64MiB or 512KiB, got "${raw.trim().slice(0, 40)}"`,
    );
  }
  return bytes;
}

/** "64 MiB", "1.5 KiB", "1234 bytes", for messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
