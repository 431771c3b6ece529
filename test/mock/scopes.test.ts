// The scope model: inclusion rules, the narrowest scopes named in a 403, and "never more than the creator".
import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, isAllowed, isKnownScope, scopesAllowing, scopesBeyond } from '../../src/mock/auth/scopes.js';

describe('scopes', () => {
  it('knows the api scopes, <family>:read|write|delete for each family, and keys:admin', () => {
    expect(ALL_SCOPES).toEqual(
      expect.arrayContaining([
        'api:read',
        'api:write',
        'api:delete',
        'api:admin',
        'properties:read',
        'clients:delete',
        'reference:read',
        'files:write',
        'keys:admin',
      ]),
    );
    expect(ALL_SCOPES).toHaveLength(4 + 5 * 3 + 1);
    expect(isKnownScope('contacts:read')).toBe(false);
    expect(isKnownScope('api:*')).toBe(false);
  });

  it.each([
    [['api:read'], 'properties:read', true],
    [['api:read'], 'properties:write', false],
    [['api:write'], 'clients:write', true],
    [['api:write'], 'clients:delete', false],
    [['api:delete'], 'files:delete', true],
    [['api:delete'], 'keys:admin', false],
    [['api:admin'], 'keys:admin', true],
    [['api:admin'], 'assignments:delete', true],
    [['properties:write'], 'properties:read', true],
    [['properties:write'], 'properties:delete', false],
    [['properties:delete'], 'properties:write', true],
    [['properties:delete'], 'clients:read', false],
    [['keys:admin'], 'keys:admin', true],
    [['keys:admin'], 'reference:read', false],
    [[], 'reference:read', false],
  ] as const)('%j allows %s: %s', (scopes, permission, allowed) => {
    expect(isAllowed(scopes, permission)).toBe(allowed);
  });

  it('names the narrowest scopes that allow an operation', () => {
    expect(scopesAllowing('properties:write')).toEqual(['api:write', 'properties:write']);
    expect(scopesAllowing('clients:read')).toEqual(['api:read', 'clients:read']);
    expect(scopesAllowing('keys:admin')).toEqual(['api:admin', 'keys:admin']);
  });

  it('finds requested scopes that grant more than the creator holds', () => {
    expect(scopesBeyond(['api:admin'], ALL_SCOPES)).toEqual([]);
    expect(scopesBeyond(['api:write'], ['api:read', 'properties:write'])).toEqual([]);
    expect(scopesBeyond(['api:write'], ['api:delete', 'keys:admin', 'properties:delete'])).toEqual([
      'api:delete',
      'keys:admin',
      'properties:delete',
    ]);
    expect(scopesBeyond(['properties:read', 'clients:read', 'assignments:read', 'files:read', 'reference:read'], ['api:read'])).toEqual([]);
    expect(scopesBeyond(['properties:read'], ['api:read'])).toEqual(['api:read']);
  });
});
