// Checks a candidate key against the service before it is stored: `GET /api/keys/current`, or, where
// a deployment lacks that route, a one-record read. Builds its own client because the context's
// client carries the session's credential, not the candidate.
import type { ApiClient, CredentialSource } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { NotFoundError, PermissionError } from '../../core/errors.js';
import { holdSecret } from '../../core/credentials/credential.js';
import type { KeyRecord } from '../../core/credentials/key-record.js';

export interface VerifyTarget {
  baseUrl: string;
  secret: string;
  profileName: string;
  caFile: string | undefined;
  source?: CredentialSource;
}

export async function clientFor(ctx: Context, target: VerifyTarget): Promise<ApiClient> {
  const { buildClient } = await import('../../core/client-builder.js');
  const credential = holdSecret(ctx.io, target.secret, target.source ?? 'keychain');
  return buildClient(ctx, { baseUrl: target.baseUrl, profileName: target.profileName, caFile: target.caFile, credential });
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
  const client = await clientFor(ctx, target);
  try {
    return await currentKey(client);
  } finally {
    await client.close();
  }
}
