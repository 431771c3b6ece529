// Where the service's description comes from, in order:
//   1. `--spec URL|PATH` (or APPRAISAL_SPEC): this run only, never cached;
//   2. the profile's `--spec-url` (auth login), cached;
//   3. discovery: an RFC 8631 `Link: <…>; rel="service-desc"` on the answer, then GET /api/openapi.json;
//   4. the bundled openapi.json when the service publishes none (said once per profile).
// Cached per service with its ETag (cache.ts): fresh for a day without any request, revalidated when
// stale, and the last good copy is used, with a warning, when the service cannot be asked.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ApiClient } from '../api-client.js';
import type { Context } from '../context.js';
import { AuthenticationError, ContractError, HttpError, NetworkError, PermissionError, UsageError } from '../errors.js';
import { isFresh, readCache, writeCache, type CacheEntry } from './cache.js';
import { readContract, type PublishedContract } from './document.js';
import { plainGet, serviceDescLink, type PlainGet } from './fetch.js';

export const OPENAPI_PATH = '/api/openapi.json';
export const BUNDLED_SOURCE = "the CLI's own model (bundled openapi.json)";

export type DescriptionKind = 'option' | 'profile' | 'service' | 'bundled';

export interface LoadedDescription {
  contract: PublishedContract;
  /** Where it came from, for messages: a URL, a file path, or BUNDLED_SOURCE. */
  source: string;
  kind: DescriptionKind;
  /** True when no download happened in this run (a fresh cache, a 304, or the last good copy). */
  fromCache: boolean;
  fetchedAt: string | undefined;
  checkedAt: string | undefined;
  etag: string | undefined;
  /** The cached copy this run replaced, for `spec diff`. */
  previous?: PublishedContract | undefined;
}

export interface LoadOptions {
  /** Ask the service now even if the cache is fresh (`spec sync`). */
  refresh?: boolean;
  /** An API client for the service's own origin (the raw client, when binding builds the bound one). */
  api?: ApiClient;
  /** For tests: how a description is fetched without a credential. */
  get?: PlainGet;
}

function parseDocument(body: unknown, source: string): PublishedContract {
  let document: unknown = body;
  if (body instanceof Uint8Array) document = Buffer.from(body).toString('utf8');
  if (typeof document === 'string') {
    try {
      document = JSON.parse(document);
    } catch {
      throw new ContractError(`${source} is not a JSON OpenAPI document`);
    }
  }
  try {
    return readContract(document);
  } catch (error) {
    throw new ContractError(`${source}: ${(error as Error).message}`);
  }
}

let bundledContract: PublishedContract | undefined;

/** The bundled model, parsed once (only when a command needs it). */
export async function bundledDescription(): Promise<PublishedContract> {
  if (!bundledContract) {
    const module = (await import('../../../openapi.json', { with: { type: 'json' } })) as { default: unknown };
    bundledContract = readContract(module.default);
  }
  return bundledContract;
}

/** `--spec` / a profile's PATH: a local file, relative to the working directory. */
async function readLocal(ctx: Context, spec: string, label: string): Promise<LoadedDescription> {
  const path = resolve(ctx.cwd, spec);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${label} ${spec}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let contract: PublishedContract;
  try {
    contract = parseDocument(text, `${label} ${spec}`);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return { contract, source: path, kind: label === '--spec' ? 'option' : 'profile', fromCache: false, fetchedAt: undefined, checkedAt: undefined, etag: undefined };
}

function parseUrl(raw: string, label: string): URL | undefined {
  if (!/^https?:\/\//i.test(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${label} is not a valid URL: "${raw}"`);
  }
  if (url.username || url.password) throw new UsageError(`${label} must not contain a user name or password`);
  return url;
}

type Fetched =
  | { kind: 'document'; body: unknown; headers: Readonly<Record<string, string | undefined>>; url: URL }
  | { kind: 'not-modified'; url: URL }
  | { kind: 'none'; status: number; headers: Readonly<Record<string, string | undefined>>; url: URL };

function underBase(url: URL, baseUrl: string): boolean {
  const base = baseUrl.replace(/\/+$/, '');
  return url.href === base || url.href.startsWith(`${base}/`);
}

/** A 304 to our conditional GET, however the client chose to report it. */
function notModified(error: unknown): boolean {
  if (error instanceof HttpError) return error.status === 304;
  return error instanceof ContractError && /\b304 Not Modified\b/.test(error.message);
}

/**
 * GET one description URL. The service's own origin is asked through its API client, first without
 * the key (descriptions are normally public), with it only after a 401/403. Any other origin is
 * fetched without any credential, ever.
 */
async function fetchOne(ctx: Context, url: URL, conditional: Record<string, string>, baseUrl: string, api: () => Promise<ApiClient>, get: PlainGet): Promise<Fetched> {
  if (!underBase(url, baseUrl)) {
    const response = await get(ctx, url, conditional);
    if (response.status === 304) return { kind: 'not-modified', url };
    if (response.status >= 200 && response.status < 300) return { kind: 'document', body: response.text, headers: response.headers, url };
    if (response.status === 404 || response.status === 410) return { kind: 'none', status: response.status, headers: response.headers, url };
    throw new NetworkError(`GET ${url.origin}${url.pathname}: the service answered ${response.status}`);
  }
  const client = await api();
  const path = url.href.slice(baseUrl.replace(/\/+$/, '').length) || '/';
  const ask = async (auth: boolean): Promise<Fetched> => {
    try {
      const answer = await client.request({ method: 'GET', path, headers: conditional, auth, signal: ctx.signal });
      if (answer.status === 304) return { kind: 'not-modified', url };
      return { kind: 'document', body: answer.body, headers: answer.headers, url };
    } catch (error) {
      if (notModified(error)) return { kind: 'not-modified', url };
      if (error instanceof HttpError && (error.status === 404 || error.status === 410)) return { kind: 'none', status: error.status, headers: { link: error.link }, url };
      if (!auth && (error instanceof AuthenticationError || error instanceof PermissionError) && client.credential) return ask(true);
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

/** Discovery (or the profile's URL): follows a service-desc Link once; `none` when nothing is published. */
async function discover(ctx: Context, baseUrl: string, configured: URL | undefined, entry: CacheEntry | undefined, api: () => Promise<ApiClient>, get: PlainGet): Promise<Fetched> {
  const base = baseUrl.replace(/\/+$/, '');
  // Where it was last time first: a stale copy revalidates with one conditional request.
  const first = configured ?? (entry?.kind === 'service' && entry.url ? new URL(entry.url) : new URL(`${base}${OPENAPI_PATH}`));
  let fetched = await fetchOne(ctx, first, conditionalFor(entry, first), baseUrl, api, get);
  if (fetched.kind === 'not-modified' || configured) return fetched;
  const link = fetched.kind === 'document' || fetched.kind === 'none' ? serviceDescLink(fetched.headers, first) : undefined;
  if (link && link.href !== first.href) {
    ctx.io.debug(`service-desc link: ${link.href}`);
    fetched = await fetchOne(ctx, link, conditionalFor(entry, link), baseUrl, api, get);
  } else if (fetched.kind === 'none' && first.pathname !== `${new URL(base).pathname.replace(/\/+$/, '')}${OPENAPI_PATH}`) {
    // The last known place is gone: start discovery again from the well-known path.
    return discover(ctx, baseUrl, undefined, undefined, api, get);
  }
  return fetched;
}

function fromEntry(entry: CacheEntry, contract: PublishedContract): LoadedDescription {
  return {
    contract,
    source: entry.kind === 'bundled' ? BUNDLED_SOURCE : entry.url!,
    kind: entry.kind === 'bundled' ? 'bundled' : entry.configured ? 'profile' : 'service',
    fromCache: true,
    fetchedAt: entry.fetchedAt,
    checkedAt: entry.checkedAt,
    etag: entry.etag,
  };
}

async function contractOf(entry: CacheEntry): Promise<PublishedContract> {
  return entry.kind === 'bundled' ? bundledDescription() : readContract(entry.document);
}

/** Errors that mean "the service could not be asked": the last good copy is the best answer. */
function unreachable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof HttpError && error.status >= 500) || error instanceof ContractError;
}

function noticeBundled(ctx: Context, baseUrl: string): void {
  ctx.io.notice(`${baseUrl} publishes no API description; using ${BUNDLED_SOURCE} (see \`appraisal spec show\`)`);
}

export async function loadDescription(ctx: Context, options: LoadOptions = {}): Promise<LoadedDescription> {
  const get = options.get ?? plainGet;
  const spec = ctx.globals.spec ?? ctx.env.APPRAISAL_SPEC;
  if (spec !== undefined && spec !== '') {
    const url = parseUrl(spec, '--spec');
    if (!url) return readLocal(ctx, spec, '--spec');
    let baseUrl = '';
    try {
      baseUrl = (await ctx.session()).baseUrl;
    } catch {
      // No service configured: a foreign URL is fetched without any credential anyway.
    }
    const api = () => options.api ? Promise.resolve(options.api) : ctx.api();
    const fetched = await fetchOne(ctx, url, {}, baseUrl || 'http://no-service.invalid', api, get);
    if (fetched.kind !== 'document') throw new UsageError(`--spec ${url.href} answered ${fetched.kind === 'none' ? fetched.status : 304}`);
    return { contract: parseDocument(fetched.body, `--spec ${url.href}`), source: url.href, kind: 'option', fromCache: false, fetchedAt: undefined, checkedAt: undefined, etag: undefined };
  }

  const session = await ctx.session();
  const baseUrl = session.baseUrl;
  const profileSpec = session.profile?.specUrl;
  let configured: URL | undefined;
  if (profileSpec) {
    configured = parseUrl(profileSpec, `the profile's spec URL`);
    if (!configured) return readLocal(ctx, profileSpec, 'the profile spec');
  }
  const api = () => (options.api ? Promise.resolve(options.api) : ctx.api());
  const cached = await readCache(ctx, baseUrl);
  const entry = cached && cached.configured === (profileSpec ?? null) ? cached : undefined;
  if (entry && !options.refresh && isFresh(ctx, entry)) {
    ctx.io.debug(`service description: cached copy of ${entry.fetchedAt} (${entry.kind})`);
    if (entry.kind === 'bundled' && !(entry.noticed ?? []).includes(session.profileName)) {
      noticeBundled(ctx, baseUrl);
      await writeCache(ctx, { ...entry, noticed: [...(entry.noticed ?? []), session.profileName] });
    }
    return fromEntry(entry, await contractOf(entry));
  }

  const now = ctx.now().toISOString();
  let fetched: Fetched;
  try {
    fetched = await discover(ctx, baseUrl, configured, entry, api, get);
  } catch (error) {
    if (entry && unreachable(error)) {
      ctx.io.warn(`could not check the service description (${(error as Error).message}); using the copy of ${entry.fetchedAt}`);
      return fromEntry(entry, await contractOf(entry));
    }
    throw error;
  }

  if (fetched.kind === 'not-modified' && entry) {
    const renewed = { ...entry, checkedAt: now };
    await writeCache(ctx, renewed);
    return fromEntry(renewed, await contractOf(renewed));
  }
  if (fetched.kind === 'document') {
    const source = fetched.url.href;
    const contract = parseDocument(fetched.body, source);
    const renewed: CacheEntry = {
      baseUrl,
      kind: 'service',
      configured: profileSpec ?? null,
      url: source,
      etag: fetched.headers.etag,
      lastModified: fetched.headers['last-modified'],
      fetchedAt: now,
      checkedAt: now,
      document: contract.document,
    };
    await writeCache(ctx, renewed);
    const previous = entry ? await contractOf(entry).catch(() => undefined) : undefined;
    return { ...fromEntry(renewed, contract), fromCache: false, previous };
  }
  if (configured) throw new UsageError(`the profile's spec URL ${configured.href} answered ${fetched.kind === 'none' ? fetched.status : 304}`);
  // The service publishes none: our own model, said once per profile.
  const noticed = new Set(entry?.kind === 'bundled' ? (entry.noticed ?? []) : []);
  if (!noticed.has(session.profileName)) {
    noticeBundled(ctx, baseUrl);
    noticed.add(session.profileName);
  }
  const renewed: CacheEntry = { baseUrl, kind: 'bundled', configured: profileSpec ?? null, fetchedAt: entry?.kind === 'bundled' ? entry.fetchedAt : now, checkedAt: now, noticed: [...noticed] };
  await writeCache(ctx, renewed);
  const previous = entry?.kind === 'service' ? readContract(entry.document) : undefined;
  return { ...fromEntry(renewed, await bundledDescription()), fromCache: false, previous };
}
