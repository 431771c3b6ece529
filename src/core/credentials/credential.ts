// A credential as the CLI holds it once read: the secret plus what may be shown of it, and the one
// place a secret is registered with the redactor: every secret the process learns (a resolved
// credential, a candidate key at login, a key the service creates, a client's derived credential)
// becomes a credential here, so no later line of output can print it.
import { keyPrefix, type SecretRedactor } from '../redact.js';

/** What may be shown of a credential: shown and recorded instead of the secret. */
export interface CredentialInfo {
  prefix: string;
  source: CredentialSource;
  kind: 'api-key' | 'bearer';
}

export type CredentialSource = 'api-key-file' | 'env' | 'keychain' | 'insecure-file';

export interface ResolvedCredential extends CredentialInfo {
  secret: string;
}

/** Make the redactor cut `secret` from every line written from now on. The only caller of register(). */
export function rememberSecret(io: { readonly redactor: SecretRedactor }, secret: string): void {
  io.redactor.register(secret);
}

/** A secret as a credential the CLI may send; remembered first. */
export function holdSecret(
  io: { readonly redactor: SecretRedactor },
  secret: string,
  source: CredentialSource,
  kind: CredentialInfo['kind'] = 'api-key',
): ResolvedCredential {
  rememberSecret(io, secret);
  return { secret, prefix: keyPrefix(secret), source, kind };
}

/** Where a credential came from, for people: --verbose, HTTP error messages and `keys revoke` say it (one wording). */
export function describeSource(credential: Pick<CredentialInfo, 'source' | 'kind'>, apiKeyFile?: string): string {
  switch (credential.source) {
    case 'api-key-file':
      return apiKeyFile === '-' ? '--api-key-file - (stdin)' : `--api-key-file ${apiKeyFile ?? ''}`.trim();
    case 'env':
      return credential.kind === 'bearer' ? 'APPRAISAL_TOKEN' : 'APPRAISAL_API_KEY';
    case 'keychain':
      return 'the OS keychain';
    case 'insecure-file':
      return 'the insecure-storage file';
  }
}
