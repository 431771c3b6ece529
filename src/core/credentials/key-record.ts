// An API key's record as the service returns it: never its secret (only `POST /api/keys` answers
// with the secret, once). One type for `auth` (verifying a key) and the keys commands.
import type { ApiRecord } from '../api-client.js';

export interface KeyRecord extends ApiRecord {
  name?: string;
  prefix?: string;
  scopes?: string[];
  expiresAt?: string | null;
  createdAt?: string;
  lastUsedAt?: string | null;
  revokedAt?: string | null;
}
