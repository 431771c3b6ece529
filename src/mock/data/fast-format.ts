// Formatting helpers for the seeded-data hot path (listing a filtered collection generates every
// seeded record, so these run millions of times): hex digits and ISO timestamps without
// Number#toString(16) or Date#toISOString, which are slow in bulk.

const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const TWO_DIGITS: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** The 8 hex digits of an unsigned 32-bit value. */
export function hex8(value: number): string {
  return HEX_BYTES[(value >>> 24) & 255]! + HEX_BYTES[(value >>> 16) & 255]! + HEX_BYTES[(value >>> 8) & 255]! + HEX_BYTES[value & 255]!;
}

const DAY_MS = 86_400_000;
const dayPrefixes = new Map<number, string>();

/** `new Date(ms).toISOString()` for non-negative times, faster (dates are cached per day). */
export function isoTimestamp(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    if (dayPrefixes.size < 100_000) dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${prefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[millis]}Z`;
}
