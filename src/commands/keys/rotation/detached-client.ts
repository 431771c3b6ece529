// The client a key rotation works with. Unlike ctx.api(), a Ctrl-C does not abort its requests:
// the rotation checks for the interrupt between steps, lets the step in flight finish (each request
// is still bounded by --timeout), and then rolls back — which needs requests of its own.
import type { ApiClient } from '../../../core/api-client.js';
import type { Context } from '../../../core/context.js';
import type { ResolvedCredential } from '../../../core/credentials/credential.js';
import type { Session } from '../../../core/session-types.js';

export async function detachedClient(ctx: Context, session: Session, credential: ResolvedCredential): Promise<ApiClient> {
  ctx.io.redactor.register(credential.secret);
  const { createApiClient } = await import('../../../core/http/client.js');
  return createApiClient({
    baseUrl: session.baseUrl,
    credential,
    profileName: session.profileName,
    caFile: session.caFile,
    timeoutMs: ctx.globals.timeoutMs,
    retries: ctx.globals.retries,
    userAgent: `appraisal-cli/${ctx.version}`,
    io: ctx.io,
    env: ctx.env,
    signal: new AbortController().signal,
  });
}
