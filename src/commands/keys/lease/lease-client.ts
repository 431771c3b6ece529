// The API client a lease is minted and revoked with (`keys lease`, `mcp --lease`): its own client,
// not aborted by Ctrl-C or SIGTERM — the revoke after an interrupt needs requests of its own, each
// still bounded by --timeout — and watching the service's `Date` header, the clock of the expiry.
import type { ApiClient } from '../../../core/api-client.js';
import type { Context } from '../../../core/context.js';
import { requireCredential } from '../../../core/session.js';
import type { Session } from '../../../core/session.js';
import type { ServiceClock } from './mint.js';

export async function leaseClient(ctx: Context, session: Session): Promise<{ api: ApiClient; clock: ServiceClock }> {
  const clock: ServiceClock = { lastDate: undefined };
  const api = await ctx.clientFor({
    ...session,
    credential: requireCredential(session),
    signal: new AbortController().signal,
    onAnswer: (headers) => {
      if (headers.date !== undefined) clock.lastDate = headers.date;
    },
  });
  return { api, clock };
}
