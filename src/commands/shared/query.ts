// Turns list filter flags into query parameters, validating each before any request (whether the
// service publishes them is the list contract's check, core/description/list-contract.ts).
import type { Query } from '../../core/api-client.js';
import { UsageError } from '../../core/errors.js';
import { requireUuid } from '../../core/ids.js';
import type { ListFilter } from '../../core/resources.js';

/** commander's attribute name for a flag spec: `--updated-since <ts>` → `updatedSince`. */
export function optionKey(flags: string): string {
  const long = /--([a-z0-9-]+)/i.exec(flags)?.[1] ?? flags;
  return long.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function requireTimestamp(value: string, flag: string): string {
  if (!ISO_TIMESTAMP.test(value) || Number.isNaN(Date.parse(value))) {
    throw new UsageError(
      `${flag} must be an ISO 8601 date or timestamp (e.g. 2026-01-31 or 2026-01-31T12:00:00Z), got "${value.slice(0, 40)}"`,
    );
  }
  return value;
}

export function filterQuery(filters: readonly ListFilter[], options: Record<string, unknown>): Query {
  const query: Record<string, string> = {};
  for (const filter of filters) {
    const raw = options[optionKey(filter.flags)] ?? (filter.alias === undefined ? undefined : options[optionKey(filter.alias)]);
    if (raw === undefined) continue;
    const value = String(raw);
    const flag = `--${/--([a-z0-9-]+)/i.exec(filter.flags)?.[1]}`;
    if (filter.kind === 'uuid') query[filter.param] = requireUuid(value, flag);
    else if (filter.kind === 'timestamp') query[filter.param] = requireTimestamp(value, flag);
    else query[filter.param] = value;
  }
  return query;
}

/**
 * `--param name=value`, repeatable: any other query parameter the operation publishes. One that a
 * filter flag already set (`--type land --param propertyType=office`) is refused: sent once, one of
 * them would silently lose.
 */
export function paramQuery(
  raw: readonly string[] | undefined,
  setByFlags: Query = {},
  flagOf: (param: string) => string = (param) => param,
): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const entry of raw ?? []) {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError(`--param needs name=value, got "${entry.slice(0, 40)}"`);
    const name = entry.slice(0, eq).trim();
    const value = entry.slice(eq + 1);
    if (/key|token|secret|password/i.test(name)) throw new UsageError(`--param ${name}: credentials never go in a URL`);
    if (name === 'page' || name === 'limit') throw new UsageError(`--param ${name}: paging is set with --page and --page-size`);
    if (setByFlags[name] !== undefined) throw new UsageError(`--param ${name}: ${flagOf(name)} already sets it; give it once`);
    const previous = query[name];
    query[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return query;
}
