// Who is calling: the key in `x-api-key` (or `Authorization: Bearer <key>`). Keys are never read
// from the query string. Every failure is a 401 that says which of missing / malformed / unknown /
// expired / revoked it was.
import type { IncomingHttpHeaders } from 'node:http';
import { MockHttpError } from '../http/http-error.js';
import type { ApiKeyRecord } from '../state/records.js';
import type { KeyStore } from './key-store.js';

/** The credential a request carries, or undefined. */
export function credentialOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-api-key'];
  const apiKey = (Array.isArray(header) ? header[0] : header)?.trim();
  if (apiKey) return apiKey;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return bearer?.[1];
}

export function authenticate(headers: IncomingHttpHeaders, keys: KeyStore, nowMs: number): ApiKeyRecord {
  const secret = credentialOf(headers);
  if (secret === undefined) {
    throw new MockHttpError(401, 'API_KEY_MISSING', 'missing credential: send the API key in the x-api-key header');
  }
  const checked = keys.check(secret, nowMs);
  if (!checked.ok) throw new MockHttpError(401, checked.code, checked.message);
  return checked.key;
}
