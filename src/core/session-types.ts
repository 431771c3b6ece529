// What a resolved session is. Data only, apart from src/core/session.ts (which resolves one from a
// Context), so that the Context can name it without importing the resolver: that was a cycle.
import type { Environment, Profile } from './config.js';
import type { ResolvedCredential } from './credentials/credential.js';

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
