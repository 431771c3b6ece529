// `appraisal mcp --lease`: the session runs on a key of its own with only the scopes its tools need,
// minted and revoked exactly as `keys lease` does (keys/lease/: the service's clock for the expiry,
// a name that marks it as a lease, a client no interrupt aborts), revoked when the session ends.
// --ttl is the backstop: a killed server leaves a key that dies by itself.
import type { Context } from '../../core/context.js';
import { ownProcess } from '../../core/process-facts.js';
import { leaseClient, leaseName, mintLease, parseTtl, revokeCommand, revokeLease, scopesForOperations } from '../keys/public.js';
import type { Tool } from './catalogue.js';

export interface ToolLease {
  secret: string;
  prefix: string;
  revoke(): Promise<void>;
}

/** The narrowest scopes that let every tool run: `properties:read`, `clients:write`, … */
export function scopesForTools(tools: readonly Tool[]): string[] {
  return scopesForOperations(tools.flatMap((tool) => tool.operations));
}

export async function leaseForTools(ctx: Context, tools: readonly Tool[], ttl: string): Promise<ToolLease> {
  const ttlMs = parseTtl(ttl);
  const session = await ctx.session();
  const { api, clock } = await leaseClient(ctx, session);
  const me = ownProcess();
  const lease = await mintLease(ctx, api, clock, {
    name: leaseName({ command: 'appraisal mcp', host: me.host, pid: me.pid }),
    scopes: scopesForTools(tools),
    ttlMs,
  });
  return {
    secret: lease.secret,
    prefix: lease.prefix,
    async revoke() {
      const failure = await revokeLease(api, lease);
      await api.close().catch(() => undefined);
      if (failure === undefined) ctx.io.notice(`revoked leased key ${lease.prefix}`);
      else
        ctx.io.warn(
          `could not revoke leased key ${lease.prefix} (${failure}); it works until ${lease.expiresAt}: ${revokeCommand(lease, session, ctx.globals.baseUrl)}`,
        );
    },
  };
}
