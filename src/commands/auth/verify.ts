// Checks a candidate key against the service before it is stored: `GET /api/keys/current`, or, where
// a deployment lacks that route, a one-record read. Uses a client of its own (ctx.clientFor) because
// the context's client carries the session's credential, not the candidate.
import type { ApiClient } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { NotFoundError, PermissionError } from '../../core/errors.js';
import type { ResolvedCredential } from '../../core/credentials/credential.js';
import type { KeyRecord } from '../../core/credentials/key-record.js';

export interface VerifyTarget {
  baseUrl: string;
  /** The candidate, already held (holdSecret): the redactor knows it. */
  credential: ResolvedCredential;
  profileName: string;
  caFile: string | undefined;
}

/**
 * The calling key's own record, or undefined when the service has no introspection route but the key
 * works. Throws the client's AuthenticationError (exit 4) for a key the service refuses.
 */
export async function currentKey(client: ApiClient): Promise<KeyRecord | undefined> {
  try {
    return await client.get<KeyRecord>('/api/keys/current');
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  try {
    await client.request({ method: 'GET', path: '/api/properties', query: { limit: 1 } });
  } catch (error) {
    // Authenticated but not allowed to read properties: the key itself is valid.
    if (!(error instanceof PermissionError)) throw error;
  }
  return undefined;
}

export async function verifyKey(ctx: Context, target: VerifyTarget): Promise<KeyRecord | undefined> {
  const client = await ctx.clientFor(target);
  try {
    return await currentKey(client);
  } finally {
    await client.close();
  }
}
