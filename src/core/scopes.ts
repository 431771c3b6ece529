// The scope rules of API.md "Scopes", once for the CLI: which scope names exist and what a key with
// a set of scopes may do. `keys create` checks names against them, `smoke` decides what to skip,
// and 403 hints name what was missing. The names are the service model's (src/model/scopes.ts, which
// the mock reads too).
//   api:read / api:write / api:delete   every resource family at that level (not key management)
//   api:admin                            everything, key management included
//   <family>:read|write|delete           one family; write implies read, delete implies write
//   keys:admin                           key management
import { SCOPE_LEVELS, type ScopeFamily, type ScopeLevel } from '../model/scopes.js';

export { API_SCOPES, KEY_SCOPES, SCOPE_FAMILIES, SCOPE_LEVELS, type ScopeFamily, type ScopeLevel } from '../model/scopes.js';

/** The scopes that allow key management (list, create, get, revoke). */
export const KEY_ADMIN_SCOPES: readonly string[] = ['api:admin', 'keys:admin'];

/** The levels at or above `level` (a family's delete scope also allows write and read). */
function levelsFrom(level: ScopeLevel): readonly ScopeLevel[] {
  return SCOPE_LEVELS.slice(SCOPE_LEVELS.indexOf(level));
}

/** The scopes that allow `level` on `family`, broad ones first. */
export function scopesAllowing(family: ScopeFamily, level: ScopeLevel): string[] {
  const levels = levelsFrom(level);
  return [...levels.map((l) => `api:${l}`), 'api:admin', ...levels.map((l) => `${family}:${l}`)];
}

/** Whether a key with these scopes may read/write/delete a family. */
export function allows(scopes: readonly string[], family: ScopeFamily, level: ScopeLevel): boolean {
  const allowing = scopesAllowing(family, level);
  return scopes.some((scope) => allowing.includes(scope));
}

/** "needs api:read or clients:read": the narrowest broad scope and the family's own. */
export function needs(family: ScopeFamily, level: ScopeLevel): string {
  return `needs api:${level} or ${family}:${level}`;
}

/** Whether a key with these scopes may manage keys (for messages; the service decides). */
export function canManageKeys(scopes: readonly unknown[] | undefined): boolean {
  return (scopes ?? []).some((scope) => typeof scope === 'string' && KEY_ADMIN_SCOPES.includes(scope));
}
