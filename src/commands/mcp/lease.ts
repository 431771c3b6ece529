// `appraisal mcp --lease`: the session runs on a key of its own with only the scopes its tools need,
// minted and revoked exactly as `keys lease` does (keys/lease/: the service's clock for the expiry,
// a name that marks it as a lease, a client no interrupt aborts), renewed before it expires and
// revoked when the session ends. --ttl is the backstop: a killed server leaves a key that dies by itself.
import type { Context } from '../../core/context.js';
import { ownProcess } from '../../core/process-facts.js';
import { leaseClient, leaseName, mintLease, parseTtl, revokeCommand, revokeLease, scopesForOperations } from '../keys/public.js';
import { DEFAULT_LIMITS } from './call.js';
import type { Tool } from './catalogue.js';
import { keepLease, type KeptKey } from './lease-keeper.js';

/** The narrowest scopes that let every tool run: `properties:read`, `clients:write`, … */
export function scopesForTools(tools: readonly Tool[]): string[] {
  return scopesForOperations(tools.flatMap((tool) => tool.operations));
}

/** The session's leased key, renewed before it expires (lease-keeper.ts), revoked when the session ends. */
/** How long a leased key lives when --ttl is not given (mcp's help says it): a killed server's key dies by itself within it. */
export const DEFAULT_LEASE_TTL = '1h';

export async function leaseForTools(ctx: Context, tools: readonly Tool[], ttl: string): Promise<KeptKey> {
  const ttlMs = parseTtl(ttl);
  const session = await ctx.session();
  const { api, clock } = await leaseClient(ctx, session);
  const me = ownProcess();
  const request = { name: leaseName({ command: 'appraisal mcp', host: me.host, pid: me.pid }), scopes: scopesForTools(tools), ttlMs };
  type Lease = Awaited<ReturnType<typeof mintLease>>;
  const kept = await keepLease<Lease>({
    ttlMs,
    graceMs: DEFAULT_LIMITS.timeoutMs,
    mint: () => mintLease(ctx, api, clock, request),
    async revoke(lease) {
      const failure = await revokeLease(api, lease);
      if (failure === undefined) ctx.io.notice(`revoked leased key ${lease.prefix}`);
      else
        ctx.io.warn(
          `could not revoke leased key ${lease.prefix} (${failure}); it works until ${lease.expiresAt}: ${revokeCommand(lease, session, ctx.globals.baseUrl)}`,
        );
    },
    notice: (text) => ctx.io.notice(text),
    warn: (text) => ctx.io.warn(text),
    later(ms, run) {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    },
  });
  return {
    ...kept,
    async end() {
      await kept.end();
      await api.close().catch(() => undefined);
    },
  };
}
