// A credential as the CLI holds it once read: the secret plus what may be shown of it. A leaf module
// (types only), so session, resolution and the HTTP client can all name it without a cycle.
import type { CredentialInfo } from '../api-client.js';

export interface ResolvedCredential extends CredentialInfo {
  secret: string;
}
