// Record ids on the command line. Checked before any request, so a typo is exit 2 with a clear
// message instead of a 404 from the service.
import { UsageError } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const MAX_SHOWN = 40;

/** Text from the command line made safe to echo in one error line: no control characters, bounded length. */
export function quoteInput(value: string): string {
  // C0/C1 controls (an ESC would reach the terminal) and bidi overrides that disguise text.
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '?');
  const chars = Array.from(clean);
  return `"${chars.length > MAX_SHOWN ? `${chars.slice(0, MAX_SHOWN).join('')}…` : clean}"`;
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * The value when it has the 8-4-4-4-12 hex shape of an RFC 4122 UUID (any version, any case),
 * returned exactly as given; otherwise a UsageError naming `what`.
 */
export function requireUuid(value: string | undefined, what: string): string {
  if (value === undefined) throw new UsageError(`${what} is required (a UUID)`);
  if (!UUID.test(value)) throw new UsageError(`${what} must be a UUID, got ${quoteInput(value)}`);
  return value;
}
