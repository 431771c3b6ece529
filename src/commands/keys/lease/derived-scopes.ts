// The narrowest scopes for an `appraisal` command a lease runs without --scope, from the operations
// that command declares it calls: each family at the highest level any of its operations needs
// (GET reads, POST/PUT/PATCH write, DELETE deletes), `keys:admin` for key management, nothing for
// the caller's own key record or the public description. And the scopes a creating key lacks, to
// name them when the service refuses a lease wider than its creator.
import type { Operation } from '../../../core/description/operations.js';
import { scopeFamilyOfPath } from '../../../core/resources.js';
import { KEY_ADMIN_SCOPES, SCOPE_FAMILIES, SCOPE_LEVELS, allows, type ScopeFamily, type ScopeLevel } from '../../../core/scopes.js';
import { CURRENT_KEY_PATH, KEYS_PATH } from '../records.js';

function levelOf(method: Operation['method']): ScopeLevel {
  if (method === 'GET' || method === 'HEAD') return 'read';
  if (method === 'DELETE') return 'delete';
  return 'write';
}

function isKeyManagement(path: string): boolean {
  return (path === KEYS_PATH || path.startsWith(`${KEYS_PATH}/`)) && path !== CURRENT_KEY_PATH;
}

/** `properties:read`, `files:write`, `keys:admin`… in table order; empty when nothing needs a scope. */
export function scopesForOperations(operations: readonly Operation[]): string[] {
  const levels = new Map<ScopeFamily, ScopeLevel>();
  let keys = false;
  for (const operation of operations) {
    if (isKeyManagement(operation.path)) {
      keys = true;
      continue;
    }
    const family = scopeFamilyOfPath(operation.path);
    if (family === undefined) continue;
    const level = levelOf(operation.method);
    const current = levels.get(family);
    if (current === undefined || SCOPE_LEVELS.indexOf(level) > SCOPE_LEVELS.indexOf(current)) levels.set(family, level);
  }
  const scopes = SCOPE_FAMILIES.flatMap((family) => (levels.has(family) ? [`${family}:${levels.get(family)!}`] : []));
  return keys ? [...scopes, 'keys:admin'] : scopes;
}

/** What one scope allows, as (family, level) pairs and key management. */
function grants(scope: string): { pairs: Array<[ScopeFamily, ScopeLevel]>; keys: boolean } {
  const [left, right] = scope.split(':') as [string, string | undefined];
  const levelsUpTo = (level: ScopeLevel) => SCOPE_LEVELS.slice(0, SCOPE_LEVELS.indexOf(level) + 1);
  if (scope === 'api:admin')
    return { pairs: SCOPE_FAMILIES.flatMap((f) => SCOPE_LEVELS.map((l) => [f, l] as [ScopeFamily, ScopeLevel])), keys: true };
  if (scope === 'keys:admin') return { pairs: [], keys: true };
  const level = (SCOPE_LEVELS as readonly string[]).includes(right ?? '') ? (right as ScopeLevel) : undefined;
  if (level === undefined) return { pairs: [], keys: false };
  if (left === 'api')
    return { pairs: SCOPE_FAMILIES.flatMap((f) => levelsUpTo(level).map((l) => [f, l] as [ScopeFamily, ScopeLevel])), keys: false };
  if ((SCOPE_FAMILIES as readonly string[]).includes(left))
    return { pairs: levelsUpTo(level).map((l) => [left as ScopeFamily, l]), keys: false };
  return { pairs: [], keys: false };
}

/** The requested scopes that allow something the holder's scopes do not (the service has the last word). */
export function scopesBeyond(holder: readonly string[], requested: readonly string[]): string[] {
  return requested.filter((scope) => {
    const granted = grants(scope);
    if (granted.keys && !holder.some((held) => KEY_ADMIN_SCOPES.includes(held))) return true;
    return granted.pairs.some(([family, level]) => !allows(holder, family, level));
  });
}
