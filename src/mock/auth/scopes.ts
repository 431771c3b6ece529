// Scopes and what they allow (API.md "Scopes", plus our model of the resource scopes):
//   api:read / api:write / api:delete   every resource family at that level (not key management)
//   api:admin                            everything, key management included
//   <family>:read|write|delete           one family; write implies read, delete implies write
//   keys:admin                           key management
// A permission is what one operation needs, e.g. "properties:write" or "keys:admin". The names are
// the service model's (src/model/scopes.ts), which the CLI reads too.
import {
  KEY_SCOPES,
  SCOPE_FAMILIES as RESOURCE_FAMILIES,
  SCOPE_LEVELS as LEVELS,
  type ScopeFamily as ResourceFamily,
  type ScopeLevel as Level,
} from '../../model/scopes.js';

export type Permission = `${ResourceFamily}:${Level}` | 'keys:admin';

/** Every scope name the mock accepts, in a stable order. */
export const ALL_SCOPES: readonly string[] = KEY_SCOPES;

const KNOWN = new Set(ALL_SCOPES);

export function isKnownScope(scope: string): boolean {
  return KNOWN.has(scope);
}

function levelsUpTo(level: Level): Level[] {
  return LEVELS.slice(0, LEVELS.indexOf(level) + 1);
}

/** The permissions one scope grants. */
export function grantsOf(scope: string): Set<Permission> {
  const grants = new Set<Permission>();
  const [left, right] = scope.split(':') as [string, string | undefined];
  if (scope === 'api:admin') {
    for (const family of RESOURCE_FAMILIES) for (const level of LEVELS) grants.add(`${family}:${level}`);
    grants.add('keys:admin');
  } else if (left === 'api' && (LEVELS as readonly string[]).includes(right ?? '')) {
    for (const family of RESOURCE_FAMILIES) for (const level of levelsUpTo(right as Level)) grants.add(`${family}:${level}`);
  } else if (scope === 'keys:admin') {
    grants.add('keys:admin');
  } else if ((RESOURCE_FAMILIES as readonly string[]).includes(left) && (LEVELS as readonly string[]).includes(right ?? '')) {
    for (const level of levelsUpTo(right as Level)) grants.add(`${left as ResourceFamily}:${level}`);
  }
  return grants;
}

export function isAllowed(scopes: readonly string[], permission: Permission): boolean {
  return scopes.some((scope) => grantsOf(scope).has(permission));
}

/** The narrowest scopes that allow a permission, for the 403 message ("requires one of: ..."). */
export function scopesAllowing(permission: Permission): string[] {
  if (permission === 'keys:admin') return ['api:admin', 'keys:admin'];
  const [, level] = permission.split(':') as [ResourceFamily, Level];
  return [`api:${level}`, permission];
}

/** The requested scopes that grant something the holder's scopes do not (a key never grants more than its creator has). */
export function scopesBeyond(holder: readonly string[], requested: readonly string[]): string[] {
  const held = new Set<Permission>();
  for (const scope of holder) for (const permission of grantsOf(scope)) held.add(permission);
  return requested.filter((scope) => [...grantsOf(scope)].some((permission) => !held.has(permission)));
}
