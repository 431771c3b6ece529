// The one way to build an API client: settings assembled from the context in one function (timeouts,
// retries, proxies, user-agent), for the context's own client and for the clients that work with
// another credential (login's candidate key, a rotation's detached client).
import type { ApiClient } from './api-client.js';
import type { Context } from './context.js';
import type { ResolvedCredential } from './credentials/credential.js';
import type { ClientSettings } from './http/client.js';

/** Sent with every request the CLI makes. */
export function userAgent(version: string): string {
  return `appraisal-cli/${version}`;
}

/** Where a client talks to and as whom; everything else comes from the context. */
export interface ClientTarget {
  baseUrl: string;
  profileName: string;
  caFile: string | undefined;
  /** Made by holdSecret (credentials/credential.ts), so the redactor already knows it. */
  credential: ResolvedCredential | undefined;
  /** Default: the context's (Ctrl-C aborts requests). */
  signal?: AbortSignal | undefined;
  /** Sees the headers of every answer (see ClientSettings). */
  onAnswer?: ClientSettings['onAnswer'];
}

export type ClientContext = Pick<Context, 'globals' | 'io' | 'env' | 'signal' | 'version'>;

export function clientSettings(ctx: ClientContext, target: ClientTarget): ClientSettings {
  return {
    baseUrl: target.baseUrl,
    credential: target.credential,
    profileName: target.profileName,
    caFile: target.caFile,
    timeoutMs: ctx.globals.timeoutMs,
    retries: ctx.globals.retries,
    userAgent: userAgent(ctx.version),
    maxResponseBytes: ctx.globals.maxResponseBytes,
    minRate: ctx.globals.minRate,
    io: ctx.io,
    env: ctx.env,
    signal: target.signal ?? ctx.signal,
    onAnswer: target.onAnswer,
  };
}

/** A client for `target`; undici and the HTTP code are loaded here, on first use. */
export async function buildClient(ctx: ClientContext, target: ClientTarget): Promise<ApiClient> {
  const { createApiClient } = await import('./http/client.js');
  return createApiClient(clientSettings(ctx, target));
}
