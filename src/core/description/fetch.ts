// One GET of a description document, answering with status, headers and text whatever the status
// (discovery needs the Link header of a 404 too). Sent WITHOUT a credential: descriptions are
// normally public. Only for the service's own origin, and only if it answers 401/403, does load.ts
// ask again through the API client with the key; a key never goes to another origin.
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import { NetworkError } from '../errors.js';
import { userAgent } from '../api-client.js';
import { formatDuration } from '../duration.js';

export interface PlainResponse {
  status: number;
  headers: Readonly<Record<string, string | undefined>>;
  text: string;
}

/**
 * A description's own bounds, smaller than a data page's (issue 26 item 19): the bundled one is
 * ~100 KB, so an 8 MiB answer is not a description; and asking for it must never hold up the command
 * it is for, so each request waits at most 10 s (or --timeout, if shorter) and is not retried.
 */
export const DESCRIPTION_MAX_BYTES = 8 * 1024 * 1024;
export const DESCRIPTION_TIMEOUT_MS = 10_000;

/** How long one request for a description may take in this run. */
export function descriptionTimeoutMs(ctx: Context): number {
  return Math.min(DESCRIPTION_TIMEOUT_MS, ctx.globals.timeoutMs);
}

export type PlainGet = (ctx: Context, url: URL, headers: Record<string, string>) => Promise<PlainResponse>;

export const plainGet: PlainGet = async (ctx, url, headers) => {
  let caFile: string | undefined;
  try {
    caFile = (await ctx.session()).caFile;
  } catch {
    caFile = ctx.globals.caFile ?? ctx.env.APPRAISAL_CA_FILE;
  }
  // The same dispatcher as every request (extra CA, proxies, loopback never proxied), but its own:
  // this one carries no credential, and is closed after the one GET.
  const { createDispatcher } = await import('../http/agent.js');
  const dispatcher = createDispatcher({
    caFile: caFile ? resolve(ctx.cwd, caFile) : undefined,
    env: ctx.env,
    timeoutMs: descriptionTimeoutMs(ctx),
  });
  const deadline = AbortSignal.timeout(descriptionTimeoutMs(ctx));
  try {
    const response = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { accept: 'application/openapi+json, application/json;q=0.9', 'user-agent': userAgent(ctx.version), ...headers },
      signal: AbortSignal.any([ctx.signal, deadline]),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > DESCRIPTION_MAX_BYTES) {
        response.body.destroy();
        throw new NetworkError(`GET ${url.href}: the description is larger than 8 MiB; refusing to read it`);
      }
      chunks.push(chunk as Buffer);
    }
    const out: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    return { status: response.statusCode, headers: out, text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    if (error instanceof NetworkError || ctx.signal.aborted) throw error;
    if (deadline.aborted)
      throw new NetworkError(`GET ${url.origin}${url.pathname}: no answer within ${formatDuration(descriptionTimeoutMs(ctx))}`);
    throw new NetworkError(`GET ${url.origin}${url.pathname}: ${(error as Error).message}`, { cause: error });
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
};

/** RFC 8631: the target of `Link: <…>; rel="service-desc"`, resolved against the answering URL. */
export function serviceDescLink(headers: Readonly<Record<string, string | undefined>>, base: URL): URL | undefined {
  const header = headers.link;
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(match[2]!);
    const values = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (!values.includes('service-desc')) continue;
    try {
      const url = new URL(match[1]!, base);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url;
    } catch {
      // A broken link is no link.
    }
  }
  return undefined;
}
