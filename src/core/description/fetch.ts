// One GET of a description document, answering with status, headers and text whatever the status
// (discovery needs the Link header of a 404 too). Sent WITHOUT a credential: descriptions are
// normally public. Only for the service's own origin, and only if it answers 401/403, does load.ts
// ask again through the API client with the key; a key never goes to another origin.
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import { NetworkError } from '../errors.js';
import { userAgent } from '../client-builder.js';

export interface PlainResponse {
  status: number;
  headers: Readonly<Record<string, string | undefined>>;
  text: string;
}

/** Descriptions are big but bounded: a 16 MiB answer is not a description. */
const MAX_BYTES = 16 * 1024 * 1024;

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
    timeoutMs: ctx.globals.timeoutMs,
  });
  try {
    const response = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { accept: 'application/openapi+json, application/json;q=0.9', 'user-agent': userAgent(ctx.version), ...headers },
      signal: ctx.signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BYTES) {
        response.body.destroy();
        throw new NetworkError(`GET ${url.href}: the description is larger than 16 MiB; refusing to read it`);
      }
      chunks.push(chunk as Buffer);
    }
    const out: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    return { status: response.statusCode, headers: out, text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    if (error instanceof NetworkError || ctx.signal.aborted) throw error;
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
