// The documented scope set (API.md "Scopes"): checked before `keys create` sends anything, so a
// typo is exit 2 with the valid names instead of a 422 from the service.
import { quoteInput } from '../../core/ids.js';
import { UsageError } from '../../core/errors.js';

export const API_SCOPES = ['api:read', 'api:write', 'api:delete', 'api:admin'] as const;
export const SCOPE_FAMILIES = ['properties', 'assignments', 'clients', 'files', 'reference'] as const;
export const SCOPE_LEVELS = ['read', 'write', 'delete'] as const;

/** Every scope a key can be created with, in a stable order. */
export const KEY_SCOPES: readonly string[] = [
  ...API_SCOPES,
  ...SCOPE_FAMILIES.flatMap((family) => SCOPE_LEVELS.map((level) => `${family}:${level}`)),
  'keys:admin',
];

/** The scopes that allow key management (list, create, get, revoke). */
export const KEY_ADMIN_SCOPES: readonly string[] = ['api:admin', 'keys:admin'];

export function isKeyScope(scope: string): boolean {
  return KEY_SCOPES.includes(scope);
}

/** `--scope` values, repeated and/or comma separated, checked and deduplicated in the given order. */
export function parseScopes(values: readonly string[] | undefined): string[] {
  const scopes: string[] = [];
  for (const value of values ?? []) {
    for (const part of value.split(',')) {
      const scope = part.trim();
      if (scope !== '' && !scopes.includes(scope)) scopes.push(scope);
    }
  }
  if (scopes.length === 0) {
    throw new UsageError('give at least one --scope', { hint: `valid scopes: ${KEY_SCOPES.join(', ')}` });
  }
  const unknown = scopes.filter((scope) => !isKeyScope(scope));
  if (unknown.length > 0) {
    const names = unknown.map(quoteInput).join(', ');
    throw new UsageError(`unknown scope${unknown.length === 1 ? '' : 's'} ${names}; valid scopes: ${KEY_SCOPES.join(', ')}`, {
      hint: 'repeat --scope for each scope (or separate them with commas), e.g. --scope api:read --scope keys:admin',
    });
  }
  return scopes;
}

/** Whether a key with these scopes may manage keys (for messages; the service decides). */
export function canManageKeys(scopes: readonly unknown[] | undefined): boolean {
  return (scopes ?? []).some((scope) => typeof scope === 'string' && KEY_ADMIN_SCOPES.includes(scope));
}
