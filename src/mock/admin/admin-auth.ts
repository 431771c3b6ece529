// Who may use /__mock/: the mock's own admin key (even after it was revoked through /api/keys, so a
// test can always reset), or any valid key with api:admin.
import type { IncomingHttpHeaders } from 'node:http';
import { authenticate, credentialOf } from '../auth/authenticate.js';
import { keyPrefixOf } from '../auth/key-secret.js';
import { MockHttpError } from '../http/http-error.js';
import type { MockState } from '../state/mock-state.js';

/** The caller's key prefix when allowed; throws 401/403 otherwise. */
export function authorizeAdmin(headers: IncomingHttpHeaders, state: MockState, nowMs: number): string {
  const secret = credentialOf(headers);
  if (secret !== undefined && state.isAdminSecret(secret)) return keyPrefixOf(secret) ?? 'admin';
  const key = authenticate(headers, state.keys, nowMs);
  if (!key.scopes.includes('api:admin')) {
    throw new MockHttpError(403, 'INSUFFICIENT_SCOPE', "the /__mock/ routes need the mock's admin key or a key with api:admin");
  }
  return key.prefix;
}
