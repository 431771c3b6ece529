// Record ids on the command line. Checked before any request, so a typo is exit 2 with a clear
// message instead of a 404 from the service.
import { UsageError } from './errors.js';
import { terminalSafe } from './terminal-text.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const MAX_SHOWN = 40;

/** Text from the command line made safe to echo in one error line: no control characters, bounded length. */
export function quoteInput(value: string): string {
  // On one line: a line break or tab would split or shift it; other controls as terminal-text.ts shows them.
  const clean = terminalSafe(value.replace(/[\r\n\t]/g, '?'));
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
