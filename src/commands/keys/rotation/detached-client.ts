// The client a key rotation works with. Unlike ctx.api(), a Ctrl-C does not abort its requests:
// the rotation checks for the interrupt between steps, lets the step in flight finish (each request
// is still bounded by --timeout), and then rolls back — which needs requests of its own.
import type { ApiClient } from '../../../core/api-client.js';
import type { Context } from '../../../core/context.js';
import type { ResolvedCredential } from '../../../core/credentials/credential.js';
import type { Session } from '../../../core/session.js';

export async function detachedClient(ctx: Context, session: Session, credential: ResolvedCredential): Promise<ApiClient> {
  return ctx.clientFor({ ...session, credential, signal: new AbortController().signal });
}
