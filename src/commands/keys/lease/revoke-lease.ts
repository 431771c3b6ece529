// Revoking the lease when its command has ended. Never throws: the caller decides what a failure
// means (its own exit code, 23), and says it in one line with the key's prefix and the exact
// command that revokes it — the key keeps working until then, or until it expires.
import type { ApiClient } from '../../../core/api-client.js';
import { NotFoundError } from '../../../core/errors.js';
import type { Session } from '../../../core/session.js';
import { keyPath } from '../records.js';
import type { Lease } from './mint.js';

/** undefined when revoked (or already gone), else why not. */
export async function revokeLease(api: ApiClient, lease: Lease): Promise<string | undefined> {
  try {
    await api.send('DELETE', keyPath(lease.id));
    return undefined;
  } catch (error) {
    // Gone already (someone revoked it meanwhile): nothing is left to revoke.
    if (error instanceof NotFoundError) return undefined;
    return error instanceof Error ? error.message : String(error);
  }
}

/** `appraisal keys revoke apk_… --profile P --yes`: what the user runs when the revoke failed. */
export function revokeCommand(lease: Lease, session: Session, baseUrlFlag: string | undefined): string {
  const parts = ['appraisal', 'keys', 'revoke', lease.prefix];
  if (session.profile !== undefined) parts.push('--profile', session.profileName);
  if (baseUrlFlag !== undefined) parts.push('--base-url', baseUrlFlag);
  parts.push('--yes');
  return parts.join(' ');
}
