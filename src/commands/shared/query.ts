// Turns list filter flags into query parameters, validating each before any request.
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
    throw new UsageError(`${flag} must be an ISO 8601 date or timestamp (e.g. 2026-01-31 or 2026-01-31T12:00:00Z), got "${value.slice(0, 40)}"`);
  }
  return value;
}

export function filterQuery(filters: readonly ListFilter[], options: Record<string, unknown>): Query {
  const query: Record<string, string> = {};
  for (const filter of filters) {
    const raw = options[optionKey(filter.flags)];
    if (raw === undefined) continue;
    const value = String(raw);
    const flag = `--${/--([a-z0-9-]+)/i.exec(filter.flags)?.[1]}`;
    if (filter.kind === 'uuid') query[filter.param] = requireUuid(value, flag);
    else if (filter.kind === 'timestamp') query[filter.param] = requireTimestamp(value, flag);
    else query[filter.param] = value;
  }
  return query;
}
