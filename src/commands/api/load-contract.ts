// Loads the service's published OpenAPI document: `GET /api/openapi.json`, cached per base URL in
// <config dir>/cache with its ETag / Last-Modified and revalidated on every use (a 304 costs one small
// round trip), or from `--spec URL|PATH`. A stored key is never sent to any origin but its own.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ApiClient, ApiResponse } from '../../core/api-client.js';
import { writeFileAtomic } from '../../core/atomic-file.js';
import { userAgent } from '../../core/client-builder.js';
import type { Context } from '../../core/context.js';
import { AppError, ContractError, HttpError, UsageError } from '../../core/errors.js';
import { readContract, type PublishedContract } from '../../core/description/document.js';

export const OPENAPI_PATH = '/api/openapi.json';

export interface LoadedContract {
  contract: PublishedContract;
  /** Where it came from, for messages: a URL or a file path. */
  source: string;
  /** True when the cached copy was used (the service answered 304, or could not be asked). */
  fromCache: boolean;
}

export interface LoadOptions {
  /** `--spec URL|PATH`: read this document instead of the service's own (never cached). */
  spec?: string | undefined;
}

interface CacheEntry {
  baseUrl: string;
  etag?: string | undefined;
  lastModified?: string | undefined;
  fetchedAt: string;
  document: unknown;
}

/** Cache file for one service: the hash keeps host names out of file names. */
export function cacheFileName(baseUrl: string): string {
  return `openapi-${createHash('sha256').update(baseUrl.replace(/\/+$/, '')).digest('hex')}.json`;
}

async function cacheDir(ctx: Context): Promise<string | undefined> {
  try {
    const config = await ctx.config();
    if (config.dir) return join(config.dir, 'cache');
  } catch {
    // No usable config store: fall back to where it would be.
  }
  try {
    const { configDir } = await import('../../core/config.js');
    return join(configDir(ctx.env), 'cache');
  } catch {
    return undefined;
  }
}

async function readCache(file: string, baseUrl: string): Promise<CacheEntry | undefined> {
  try {
    const entry = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheEntry>;
    if (entry && entry.baseUrl === baseUrl && entry.document !== undefined && typeof entry.fetchedAt === 'string') {
      return entry as CacheEntry;
    }
  } catch {
    // Missing or damaged: fetch afresh.
  }
  return undefined;
}

/** Temp file + rename, mode 0600: a concurrent reader sees the old copy or the new one, never half. */
async function writeCache(ctx: Context, dir: string, file: string, entry: CacheEntry): Promise<void> {
  const { ensurePrivateDir } = await import('../../core/config.js');
  try {
    ensurePrivateDir(dir);
    await writeFileAtomic(file, JSON.stringify(entry), { mode: 0o600 });
  } catch (error) {
    ctx.io.debug(`could not cache the OpenAPI document in ${dir}: ${(error as Error).message}`);
  }
}

function header(response: ApiResponse, name: string): string | undefined {
  const value = response.headers[name] ?? response.headers[name.toLowerCase()];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function parseDocument(body: unknown, source: string): unknown {
  if (typeof body === 'string') {
    try {
      return JSON.parse(body);
    } catch {
      throw new UsageError(`${source} is not a JSON OpenAPI document`);
    }
  }
  if (body instanceof Uint8Array) return parseDocument(Buffer.from(body).toString('utf8'), source);
  return body;
}

/** A 304 to our conditional GET, however the client chose to report it. */
function notModified(error: unknown): boolean {
  if (error instanceof HttpError) return error.status === 304;
  return error instanceof ContractError && /\b304 Not Modified\b/.test(error.message);
}

/** The service's own document, revalidated against the cached copy. */
async function loadFromService(ctx: Context, api: ApiClient): Promise<LoadedContract> {
  const source = `${api.baseUrl.replace(/\/+$/, '')}${OPENAPI_PATH}`;
  const dir = await cacheDir(ctx);
  const file = dir === undefined ? undefined : join(dir, cacheFileName(api.baseUrl));
  const cached = file === undefined ? undefined : await readCache(file, api.baseUrl);
  const headers: Record<string, string> = {};
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
  const fromCache = (): LoadedContract => ({ contract: readContract(cached!.document), source, fromCache: true });

  let response: ApiResponse;
  try {
    response = await api.request({ method: 'GET', path: OPENAPI_PATH, headers, signal: ctx.signal });
  } catch (error) {
    if (cached && notModified(error)) return fromCache();
    // The service could not be asked (or refused): a cached copy is still the best answer we have.
    if (cached && !(error instanceof HttpError && error.status === 404)) {
      ctx.io.debug(`using the cached OpenAPI document of ${cached.fetchedAt}: ${(error as Error).message}`);
      return fromCache();
    }
    throw error;
  }
  if (response.status === 304 && cached) return fromCache();
  const document = parseDocument(response.body, source);
  const contract = readContract(document);
  if (dir !== undefined && file !== undefined) {
    await writeCache(ctx, dir, file, {
      baseUrl: api.baseUrl,
      etag: header(response, 'etag'),
      lastModified: header(response, 'last-modified'),
      fetchedAt: ctx.now().toISOString(),
      document,
    });
  }
  return { contract, source, fromCache: false };
}

/** A document at a URL of another origin: fetched without any credential. */
async function fetchForeign(ctx: Context, url: URL): Promise<unknown> {
  const { Agent, EnvHttpProxyAgent, request } = await import('undici');
  let caFile: string | undefined;
  try {
    caFile = (await ctx.session()).caFile;
  } catch {
    caFile = ctx.globals.caFile ?? ctx.env.APPRAISAL_CA_FILE;
  }
  let dispatcher;
  if (caFile) {
    const { rootCertificates } = await import('node:tls');
    const ca = [...rootCertificates, await readFile(resolve(ctx.cwd, caFile), 'utf8')];
    dispatcher = new Agent({ connect: { ca } });
  } else {
    dispatcher = new EnvHttpProxyAgent();
  }
  try {
    const response = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': userAgent(ctx.version) },
      dispatcher,
      headersTimeout: ctx.globals.timeoutMs,
      bodyTimeout: ctx.globals.timeoutMs,
      signal: ctx.signal,
    });
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new UsageError(`--spec ${url.href} answered HTTP ${response.statusCode}`);
    }
    return parseDocument(text, `--spec ${url.href}`);
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}

/** `--spec URL|PATH`. A URL under the base URL goes through the API client (with the key); any other never gets it. */
async function loadFromSpec(ctx: Context, spec: string): Promise<LoadedContract> {
  if (/^https?:\/\//i.test(spec)) {
    let url: URL;
    try {
      url = new URL(spec);
    } catch {
      throw new UsageError(`--spec is not a valid URL: "${spec}"`);
    }
    if (url.username || url.password) throw new UsageError('--spec must not contain a user name or password');
    let document: unknown;
    let base: string | undefined;
    try {
      base = (await ctx.session()).baseUrl.replace(/\/+$/, '');
    } catch {
      base = undefined;
    }
    if (base !== undefined && (url.href === base || url.href.startsWith(`${base}/`))) {
      const api = await ctx.api();
      const response = await api.request({ method: 'GET', path: url.href.slice(base.length) || '/', signal: ctx.signal });
      document = parseDocument(response.body, `--spec ${url.href}`);
    } else {
      document = await fetchForeign(ctx, url);
    }
    return { contract: readContract(document), source: url.href, fromCache: false };
  }
  const path = resolve(ctx.cwd, spec);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --spec ${spec}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return { contract: readContract(parseDocument(text, `--spec ${spec}`)), source: path, fromCache: false };
}

export async function loadPublishedContract(ctx: Context, options: LoadOptions = {}): Promise<LoadedContract> {
  if (options.spec !== undefined && options.spec !== '') return loadFromSpec(ctx, options.spec);
  return loadFromService(ctx, await ctx.api());
}

/** A one-line reason for a failed load, for warnings. */
export function loadFailureReason(error: unknown): string {
  if (error instanceof AppError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
