// `--scope` values, checked against the documented scope set (core/scopes.ts) before `keys create`
// sends anything, so a typo is exit 2 with the valid names instead of a 422 from the service.
import { quoteInput } from '../../core/ids.js';
import { UsageError } from '../../core/errors.js';
import { KEY_SCOPES, canManageKeys } from '../../core/scopes.js';

export { KEY_SCOPES, canManageKeys };

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
