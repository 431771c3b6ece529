// Where the service's description comes from, in order:
//   1. `--spec URL|PATH` (or APPRAISAL_SPEC): this run only, never cached;
//   2. the profile's `--spec-url` (auth login), cached;
//   3. discovery (discover.ts): where an RFC 8631 `Link: <…>; rel="service-desc"` on any answer of
//      an earlier run announced it (announced.ts), else GET /api/openapi.json, following its Link;
//   4. the bundled openapi.json when the service publishes none (said once per profile) — or answers
//      something that is no OpenAPI description there (an HTML page: said with a warning).
// Cached per service with its ETag (cache.ts): fresh for a day without any request, revalidated when
// stale, and the last good copy is used, with a warning, when the service cannot be asked or answers
// no description. A description the user named (--spec, --spec-url) that is none is an error.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ApiClient } from '../api-client.js';
import type { Context } from '../context.js';
import { AppError, ContractError, HttpError, InterruptedError, NetworkError, UsageError } from '../errors.js';
import { isFresh, readCache, writeCache, type CacheEntry } from './cache.js';
import { discover, fetchOne, type Fetched } from './discover.js';
import { readContract, type PublishedContract } from './document.js';
import {
  BUNDLED_SOURCE,
  bundledDescription,
  contractOf,
  discoveryFailed,
  fromEntry,
  type DescriptionKind,
  type LoadedDescription,
} from './loaded.js';

export { BUNDLED_SOURCE, bundledDescription, type DescriptionKind, type LoadedDescription };
import { plainGet, type PlainGet } from './fetch.js';
import { fileErrorWords } from '../file-error-words.js';

export interface LoadOptions {
  /** Ask the service now even if the cache is fresh (`spec sync`). */
  refresh?: boolean;
  /** An API client for the service's own origin (the raw client, when binding builds the bound one). */
  api?: ApiClient;
  /** For tests: how a description is fetched without a credential. */
  get?: PlainGet;
  /** The command the description is for (`props list`): a failed discovery's warning names it. */
  command?: string;
  /**
   * A failed discovery is said with a warning (default); only reported in `discoveryError` (smoke's
   * spec check fails with it); or thrown (`api`, whose public-contract check has its own rules).
   */
  failures?: 'warn' | 'report' | 'throw';
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

/** `--spec` / a profile's PATH: a local file, relative to the working directory. */
async function readLocal(ctx: Context, spec: string, label: string): Promise<LoadedDescription> {
  const path = resolve(ctx.cwd, spec);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${label} ${spec}: ${fileErrorWords(error)}`);
  }
  let contract: PublishedContract;
  try {
    contract = parseDocument(text, `${label} ${spec}`);
  } catch (error) {
    // The ContractError kept as the cause: `api` tells "not a description" (warned, then sent) from a bad path.
    throw new UsageError((error as Error).message, { cause: error });
  }
  return {
    contract,
    source: path,
    kind: label === '--spec' ? 'option' : 'profile',
    fromCache: false,
    fetchedAt: undefined,
    checkedAt: undefined,
    etag: undefined,
  };
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

/** Errors that mean "the service could not be asked": the last good copy is the best answer. */
function unreachable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof HttpError && error.status >= 500) || error instanceof ContractError;
}

function noticeBundled(ctx: Context, baseUrl: string): void {
  ctx.io.notice(`${baseUrl} publishes no API description; using ${BUNDLED_SOURCE} (see \`appraisal spec show\`)`);
}

/** The answer as a contract, or why it is none: no JSON, or JSON without `paths` (an HTML page, a catch-all route). */
function readFetched(fetched: Fetched): { contract: PublishedContract } | { unusable: string } | undefined {
  if (fetched.kind === 'unusable') return { unusable: fetched.reason };
  if (fetched.kind !== 'document') return undefined;
  try {
    return { contract: parseDocument(fetched.body, fetched.url.href) };
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    return { unusable: error.message };
  }
}

export async function loadDescription(ctx: Context, options: LoadOptions = {}): Promise<LoadedDescription> {
  const loaded = await load(ctx, options);
  ctx.io.debug(
    `service description: ${loaded.source}${loaded.fromCache ? ` (cached copy of ${loaded.fetchedAt ?? 'an unknown date'})` : ''}`,
  );
  if (loaded.kind === 'service' || loaded.kind === 'bundled') {
    // Kept on the context: an answer's service-desc Link is compared with it (announced.ts).
    ctx.description.inUse = { baseUrl: (await ctx.session()).baseUrl, url: loaded.kind === 'service' ? loaded.source : undefined };
  }
  return loaded;
}

async function load(ctx: Context, options: LoadOptions): Promise<LoadedDescription> {
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
    const api = () => (options.api ? Promise.resolve(options.api) : ctx.api());
    const fetched = await fetchOne(ctx, url, {}, baseUrl || 'http://no-service.invalid', api, get);
    // Named by the user: a document that is no description is an error, never replaced by another.
    if (fetched.kind === 'unusable') throw new ContractError(`--spec ${url.href}: ${fetched.reason}`);
    if (fetched.kind !== 'document') throw new UsageError(`--spec ${url.href} answered ${fetched.kind === 'none' ? fetched.status : 304}`);
    return {
      contract: parseDocument(fetched.body, `--spec ${url.href}`),
      source: url.href,
      kind: 'option',
      fromCache: false,
      fetchedAt: undefined,
      checkedAt: undefined,
      etag: undefined,
    };
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
  // An answer of an earlier run announced the description elsewhere: ask there now, fresh or not.
  const announcedElsewhere = entry?.announced !== undefined && entry.announced !== entry.url;
  if (entry && !options.refresh && isFresh(ctx, entry) && !announcedElsewhere) {
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
    // Discovery never blocks the command it is for (issue 26 item 19): whatever went wrong, the
    // last good copy, else the bundled model. An explicit request (`spec sync`, `spec diff`) or the
    // profile's own spec URL keeps the stricter rule: only an unreachable service falls back.
    if (
      !options.refresh &&
      !configured &&
      options.failures !== 'throw' &&
      error instanceof AppError &&
      !(error instanceof InterruptedError)
    ) {
      return discoveryFailed(ctx, error, entry, options);
    }
    if (entry && unreachable(error)) {
      ctx.io.warn(`could not check the service description (${(error as Error).message}); using the copy of ${entry.fetchedAt}`);
      return fromEntry(entry, await contractOf(entry));
    }
    throw error;
  }

  if (fetched.kind === 'not-modified' && entry) {
    const renewed = { ...entry, checkedAt: now, announced: undefined };
    await writeCache(ctx, renewed);
    return { ...fromEntry(renewed, await contractOf(renewed)), revalidated: true };
  }
  const read = readFetched(fetched);
  if (read && 'unusable' in read) {
    // Something answered where the description should be, but it is no OpenAPI description (a web
    // page, a catch-all route, a maintenance page). The last good copy if there is one (and ask
    // again next run); else the service publishes none this CLI can read: our own model.
    if (entry?.kind === 'service') {
      ctx.io.warn(`${read.unusable}; that is not an OpenAPI description: using the copy of ${entry.fetchedAt}`);
      return fromEntry(entry, await contractOf(entry));
    }
    if (configured)
      throw new ContractError(`the profile's spec URL ${configured.href}: ${read.unusable}`, {
        hint: 'set another with `appraisal auth login --spec-url URL|PATH`',
      });
    ctx.io.warn(
      `${read.unusable}; that is not an OpenAPI description, so the service publishes none this CLI can read: using ${BUNDLED_SOURCE}`,
    );
    return useBundled(ctx, baseUrl, session.profileName, profileSpec, entry, now, true);
  }
  if (read && fetched.kind === 'document') {
    const source = fetched.url.href;
    const headers = fetched.headers;
    const renewed: CacheEntry = {
      baseUrl,
      kind: 'service',
      configured: profileSpec ?? null,
      url: source,
      etag: headers.etag,
      lastModified: headers['last-modified'],
      fetchedAt: now,
      checkedAt: now,
      document: read.contract.document,
    };
    await writeCache(ctx, renewed);
    const previous = entry ? await contractOf(entry).catch(() => undefined) : undefined;
    return { ...fromEntry(renewed, read.contract), fromCache: false, previous };
  }
  if (configured)
    throw new UsageError(`the profile's spec URL ${configured.href} answered ${fetched.kind === 'none' ? fetched.status : 304}`);
  return useBundled(ctx, baseUrl, session.profileName, profileSpec, entry, now, false);
}

/** The service publishes none: our own model, said once per profile (`warned`: a warning already said so). */
async function useBundled(
  ctx: Context,
  baseUrl: string,
  profileName: string,
  profileSpec: string | undefined,
  entry: CacheEntry | undefined,
  now: string,
  warned: boolean,
): Promise<LoadedDescription> {
  const noticed = new Set(entry?.kind === 'bundled' ? (entry.noticed ?? []) : []);
  if (!noticed.has(profileName)) {
    if (!warned) noticeBundled(ctx, baseUrl);
    noticed.add(profileName);
  }
  const renewed: CacheEntry = {
    baseUrl,
    kind: 'bundled',
    configured: profileSpec ?? null,
    fetchedAt: entry?.kind === 'bundled' ? entry.fetchedAt : now,
    checkedAt: now,
    noticed: [...noticed],
  };
  await writeCache(ctx, renewed);
  const previous = entry?.kind === 'service' ? readContract(entry.document) : undefined;
  return { ...fromEntry(renewed, await bundledDescription()), fromCache: false, previous };
}
