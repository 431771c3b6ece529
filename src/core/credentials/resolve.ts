// Which credential a command uses — CLI.md "Credentials", first found wins:
//   1. --api-key-file PATH|-      2. APPRAISAL_API_KEY / APPRAISAL_TOKEN (notice when it shadows a stored key)
//   3. the profile's keychain entry   4. the profile's --insecure-storage file (warning on every use)
// A stored key (3, 4) is bound to the origin it was stored for and is never sent anywhere else.
// The keychain is consulted only when the profile says its key is there, so env-only CI runs never
// touch it.
import type { Env } from '../env.js';
import type { Profile } from '../config.js';
import { MissingCredentialError, SafetyError } from '../errors.js';
import { keyPrefix } from '../redact.js';
import type { ResolvedCredential } from './credential.js';
import { insecureStorageWarning } from './insecure-file.js';
import { hasStoredKey, storedKeyOrigin, type KeySlot } from './key-slot.js';
import { displayOrigin, originOf } from './origin.js';

export interface CredentialRequest {
  profileName: string;
  profile: Profile | undefined;
  /** The effective base URL of this run (profile, or --base-url / APPRAISAL_BASE_URL). */
  baseUrl: string;
  /** `--api-key-file`, as given. */
  apiKeyFile: string | undefined;
  env: Env;
}

export interface CredentialDeps {
  readApiKeyFile(pathOrDash: string): Promise<string>;
  /** Where the profile's stored key is (see key-slot.ts). */
  slot(profile: Profile & { keyStorage: NonNullable<Profile['keyStorage']> }): KeySlot;
  /** Informational (quiet-able) and warning lines on stderr. */
  notice(message: string): void;
  warn(message: string): void;
  /** The insecure-storage warning (under -q only once a day). */
  insecureWarning(message: string): void;
}

/** The hint every "you have no working credential" message ends with. */
export function loginHint(profileName: string): string {
  return `run \`appraisal auth login --profile ${profileName}\`, or set APPRAISAL_API_KEY for automation`;
}

export function missingCredentialError(profileName: string): MissingCredentialError {
  return new MissingCredentialError(`no credential for profile "${profileName}": no --api-key-file, no APPRAISAL_API_KEY, no stored key`, {
    hint: loginHint(profileName),
  });
}

function fromEnv(env: Env): ResolvedCredential | undefined {
  const apiKey = env.APPRAISAL_API_KEY?.trim();
  if (apiKey) return { secret: apiKey, prefix: keyPrefix(apiKey), source: 'env', kind: 'api-key' };
  const token = env.APPRAISAL_TOKEN?.trim();
  if (token) return { secret: token, prefix: keyPrefix(token), source: 'env', kind: 'bearer' };
  return undefined;
}

/** Refuse, before any request, to send a stored key to an origin other than its own. */
export function assertOriginMatches(profileName: string, profile: Profile, baseUrl: string): void {
  const bound = storedKeyOrigin(profile);
  if (originOf(baseUrl) === bound) return;
  throw new SafetyError(
    `the key stored for profile "${profileName}" belongs to ${displayOrigin(bound)}; refusing to send it to ${displayOrigin(baseUrl)}`,
    {
      hint: `a stored key is only sent to the origin it was stored for: drop --base-url/APPRAISAL_BASE_URL, log in to that origin with another profile (\`appraisal auth login --profile NAME --base-url ${displayOrigin(baseUrl)}\`), or give a key for this run with APPRAISAL_API_KEY`,
    },
  );
}

export async function resolveCredential(request: CredentialRequest, deps: CredentialDeps): Promise<ResolvedCredential | undefined> {
  const { profileName, profile } = request;

  if (request.apiKeyFile !== undefined) {
    const secret = await deps.readApiKeyFile(request.apiKeyFile);
    return { secret, prefix: keyPrefix(secret), source: 'api-key-file', kind: 'api-key' };
  }

  const envCredential = fromEnv(request.env);
  if (envCredential) {
    if (hasStoredKey(profile)) {
      const variable = envCredential.kind === 'bearer' ? 'APPRAISAL_TOKEN' : 'APPRAISAL_API_KEY';
      const stored = profile.keyPrefix ? ` (${profile.keyPrefix}…)` : '';
      deps.notice(`notice: ${variable} overrides the key stored for profile ${profileName}${stored}`);
    }
    return envCredential;
  }

  if (!hasStoredKey(profile)) return undefined;
  assertOriginMatches(profileName, profile, request.baseUrl);

  const slot = deps.slot(profile);
  const secret = await slot.read();
  if (secret === undefined) {
    const what =
      profile.keyStorage === 'keychain'
        ? `the key of profile "${profileName}"${profile.keyPrefix ? ` (${profile.keyPrefix}…)` : ''} is no longer in the OS keychain`
        : `the key file of profile "${profileName}" (${slot.where}) is missing or empty`;
    throw new MissingCredentialError(what, { hint: loginHint(profileName) });
  }
  if (profile.keyStorage === 'keychain') return { secret, prefix: keyPrefix(secret), source: 'keychain', kind: 'api-key' };
  deps.insecureWarning(insecureStorageWarning(profileName, slot.where));
  return { secret, prefix: keyPrefix(secret), source: 'insecure-file', kind: 'api-key' };
}
