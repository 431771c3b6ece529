// Asking the service for its description: one GET of a description URL (fetchOne), and discovery
// (the last known place, an announced service-desc Link, the well-known path, following a Link once).
// The service's own origin is asked through its API client, first without the key (descriptions are
// normally public), with it only after a 401/403; any other origin is fetched without any
// credential, ever (fetch.ts).
import type { ApiClient } from '../api-client.js';
import type { Context } from '../context.js';
import { AuthenticationError, ContractError, HttpError, NetworkError, NotJsonError, PermissionError } from '../errors.js';
import type { CacheEntry } from './cache.js';
import { DESCRIPTION_MAX_BYTES, descriptionTimeoutMs, serviceDescLink, type PlainGet } from './fetch.js';

export const OPENAPI_PATH = '/api/openapi.json';

export type Fetched =
  | { kind: 'document'; body: unknown; headers: Readonly<Record<string, string | undefined>>; url: URL }
  | { kind: 'not-modified'; url: URL }
  | { kind: 'none'; status: number; headers: Readonly<Record<string, string | undefined>>; url: URL }
  /** A 2xx answer that is no JSON document at all (an HTML page): `reason` says what came. */
  | { kind: 'unusable'; reason: string; url: URL };

export function underBase(url: URL, baseUrl: string): boolean {
  const base = baseUrl.replace(/\/+$/, '');
  return url.href === base || url.href.startsWith(`${base}/`);
}

/** A 304 to our conditional GET, however the client chose to report it. */
function notModified(error: unknown): boolean {
  if (error instanceof HttpError) return error.status === 304;
  return error instanceof ContractError && /\b304 Not Modified\b/.test(error.message);
}

/** GET one description URL (see the file comment for which credential goes where). */
export async function fetchOne(
  ctx: Context,
  url: URL,
  conditional: Record<string, string>,
  baseUrl: string,
  api: () => Promise<ApiClient>,
  get: PlainGet,
): Promise<Fetched> {
  if (!underBase(url, baseUrl)) {
    const response = await get(ctx, url, conditional);
    if (response.status === 304) return { kind: 'not-modified', url };
    if (response.status >= 200 && response.status < 300) return { kind: 'document', body: response.text, headers: response.headers, url };
    if (response.status === 404 || response.status === 410)
      return { kind: 'none', status: response.status, headers: response.headers, url };
    throw new NetworkError(`GET ${url.origin}${url.pathname}: the service answered ${response.status}`);
  }
  const client = await api();
  const path = url.href.slice(baseUrl.replace(/\/+$/, '').length) || '/';
  const ask = async (auth: boolean): Promise<Fetched> => {
    try {
      // The description's own bounds (fetch.ts): smaller than a data page's, and no retries.
      const answer = await client.request({
        method: 'GET',
        path,
        headers: conditional,
        auth,
        signal: ctx.signal,
        retry: false,
        maxResponseBytes: DESCRIPTION_MAX_BYTES,
        timeoutMs: descriptionTimeoutMs(ctx),
      });
      if (answer.status === 304) return { kind: 'not-modified', url };
      return { kind: 'document', body: answer.body, headers: answer.headers, url };
    } catch (error) {
      if (notModified(error)) return { kind: 'not-modified', url };
      if (error instanceof HttpError && (error.status === 404 || error.status === 410))
        return { kind: 'none', status: error.status, headers: { link: error.link }, url };
      if (!auth && (error instanceof AuthenticationError || error instanceof PermissionError) && client.credential) return ask(true);
      // The client reads answers as JSON: a web page comes back as an error naming what was answered.
      // (A redirect stays an error: what is behind it was not seen.)
      if (error instanceof NotJsonError) return { kind: 'unusable', reason: error.message, url };
      throw error;
    }
  };
  return ask(false);
}

function conditionalFor(entry: CacheEntry | undefined, url: URL): Record<string, string> {
  const headers: Record<string, string> = {};
  if (entry?.kind !== 'service' || entry.url !== url.href) return headers;
  if (entry.etag) headers['if-none-match'] = entry.etag;
  if (entry.lastModified) headers['if-modified-since'] = entry.lastModified;
  return headers;
}

/**
 * Discovery (or the profile's URL): where it was last time, or where an answer of an earlier run
 * announced it (a service-desc Link), else the well-known path; follows a service-desc Link once;
 * `none` when nothing is published.
 */
export async function discover(
  ctx: Context,
  baseUrl: string,
  configured: URL | undefined,
  entry: CacheEntry | undefined,
  api: () => Promise<ApiClient>,
  get: PlainGet,
): Promise<Fetched> {
  const base = baseUrl.replace(/\/+$/, '');
  const announced = !configured && entry?.announced ? new URL(entry.announced) : undefined;
  // Where it was last time first: a stale copy revalidates with one conditional request.
  const first =
    configured ?? announced ?? (entry?.kind === 'service' && entry.url ? new URL(entry.url) : new URL(`${base}${OPENAPI_PATH}`));
  if (announced) ctx.io.debug(`service description: announced at ${announced.href} by an earlier answer`);
  let fetched = await fetchOne(ctx, first, conditionalFor(entry, first), baseUrl, api, get);
  if (fetched.kind === 'not-modified' || configured) return fetched;
  const link = fetched.kind === 'document' || fetched.kind === 'none' ? serviceDescLink(fetched.headers, first) : undefined;
  if (link && link.href !== first.href) {
    ctx.io.debug(`service-desc link: ${link.href}`);
    fetched = await fetchOne(ctx, link, conditionalFor(entry, link), baseUrl, api, get);
  } else if (fetched.kind === 'none' && first.pathname !== `${new URL(base).pathname.replace(/\/+$/, '')}${OPENAPI_PATH}`) {
    // The last known (or announced) place is gone: start discovery again from the well-known path.
    return discover(ctx, baseUrl, undefined, undefined, api, get);
  }
  return fetched;
}
