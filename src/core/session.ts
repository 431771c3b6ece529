// Resolves which profile, base URL and credential a command uses.
// PLACEHOLDER until the credentials issue: credentials come from APPRAISAL_API_KEY / APPRAISAL_TOKEN
// and the base URL from --base-url / APPRAISAL_BASE_URL. The credentials issue adds the keychain,
// --api-key-file, insecure storage, origin binding and the resolution order of CLI.md.
import type { CredentialInfo } from './api-client.js';
import type { Context } from './context.js';
import type { Environment, Profile } from './config.js';
import { UsageError } from './errors.js';

export interface ResolvedCredential extends CredentialInfo {
  secret: string;
}

export interface Session {
  profileName: string;
  /** The stored profile, when one exists. */
  profile: Profile | undefined;
  /** Effective base URL (profile, overridden by --base-url / APPRAISAL_BASE_URL). */
  baseUrl: string;
  environment: Environment;
  caFile: string | undefined;
  credential: ResolvedCredential | undefined;
}

export async function resolveSession(ctx: Context): Promise<Session> {
  const config = await ctx.config();
  const profileName = ctx.globals.profile ?? ctx.env.APPRAISAL_PROFILE ?? config.activeProfileName();
  const profile = config.getProfile(profileName);
  const baseUrl = ctx.globals.baseUrl ?? ctx.env.APPRAISAL_BASE_URL ?? profile?.baseUrl;
  if (!baseUrl) {
    throw new UsageError(`no base URL for profile "${profileName}"`, {
      hint: 'pass --base-url URL, set APPRAISAL_BASE_URL, or run `appraisal auth login --base-url URL`',
    });
  }
  const apiKey = ctx.env.APPRAISAL_API_KEY;
  const token = ctx.env.APPRAISAL_TOKEN;
  const { keyPrefix } = await import('./redact.js');
  let credential: ResolvedCredential | undefined;
  if (apiKey) credential = { secret: apiKey, prefix: keyPrefix(apiKey), source: 'env', kind: 'api-key' };
  else if (token) credential = { secret: token, prefix: keyPrefix(token), source: 'env', kind: 'bearer' };
  return {
    profileName,
    profile,
    baseUrl,
    environment: profile?.environment ?? 'production',
    caFile: ctx.globals.caFile ?? ctx.env.APPRAISAL_CA_FILE ?? profile?.caFile,
    credential,
  };
}
