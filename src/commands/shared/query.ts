// Turns list filter flags into query parameters, validating each before any request.
import type { Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
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

/** `--param name=value`, repeatable: any other query parameter the operation publishes. */
export function paramQuery(raw: readonly string[] | undefined): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const entry of raw ?? []) {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError(`--param needs name=value, got "${entry.slice(0, 40)}"`);
    const name = entry.slice(0, eq).trim();
    const value = entry.slice(eq + 1);
    if (/key|token|secret|password/i.test(name)) throw new UsageError(`--param ${name}: credentials never go in a URL`);
    if (name === 'page' || name === 'limit') throw new UsageError(`--param ${name}: paging is set with --page and --page-size`);
    const previous = query[name];
    query[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return query;
}

/**
 * Every query parameter must be one the service publishes for this operation (when the command is
 * bound to a description): refused before any request, naming the published ones.
 */
export function checkPublishedQuery(
  published: readonly string[] | undefined,
  operation: string,
  query: Query,
  flagOf: (param: string) => string,
): void {
  if (published === undefined) return;
  const known = new Set(published);
  for (const name of Object.keys(query)) {
    if (query[name] === undefined || known.has(name)) continue;
    const list = published.filter((param) => param !== 'page' && param !== 'limit');
    throw new UsageError(`${flagOf(name)}: the service does not publish a query parameter "${name}" for ${operation}`, {
      hint:
        list.length > 0 ? `published query parameters: ${list.join(', ')} (use --param name=value)` : 'this operation publishes no filters',
    });
  }
}

/** The published query parameters of the operation `GET path` is bound to, if the command is bound. */
async function publishedQuery(ctx: Context, path: string): Promise<{ names: string[]; operation: string } | undefined> {
  const { bindingOf } = await import('../../core/description/routed-client.js');
  const route = bindingOf(await ctx.api())?.route('GET', path);
  if (!route) return undefined;
  const { queryParameterNames } = await import('../../core/description/document.js');
  const { published } = route.bound;
  return {
    names: queryParameterNames(published),
    operation: `${published.method} ${published.path}${published.operationId ? ` (${published.operationId})` : ''}`,
  };
}

/**
 * What a list may ask of `GET path`, checked against the description before any request: a list
 * answered in one piece takes --page/--page-size only as its published page/limit and no --resume;
 * every filter must be a published query parameter.
 */
export async function checkListRequest(
  ctx: Context,
  path: string,
  query: Query,
  flags: { resume?: boolean | undefined; flagOf?: ((param: string) => string) | undefined },
): Promise<void> {
  const paging = { page: ctx.globals.page, pageSize: ctx.globals.pageSize, resume: flags.resume === true };
  if (paging.page !== undefined || paging.pageSize !== undefined || paging.resume) {
    const { checkOnePiecePaging } = await import('../../core/description/routed-client.js');
    checkOnePiecePaging(await ctx.api(), path, paging);
  }
  if (Object.keys(query).length > 0) {
    const published = await publishedQuery(ctx, path);
    checkPublishedQuery(published?.names, published?.operation ?? path, query, flags.flagOf ?? ((param) => `--param ${param}`));
  }
}
