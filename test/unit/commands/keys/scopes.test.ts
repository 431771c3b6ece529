import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { KEY_SCOPES, canManageKeys, parseScopes } from '../../../../src/commands/keys/scopes.js';

describe('scopes', () => {
  it('is the documented set: api:*, <family>:read|write|delete, keys:admin', () => {
    expect(KEY_SCOPES).toHaveLength(4 + 5 * 3 + 1);
    expect(KEY_SCOPES).toContain('api:admin');
    expect(KEY_SCOPES).toContain('reference:delete');
    expect(KEY_SCOPES).toContain('keys:admin');
    expect(KEY_SCOPES).not.toContain('contacts:read');
  });

  it('takes repeated and comma-separated --scope values, deduplicated in order', () => {
    expect(parseScopes(['api:read', 'properties:write,files:read', ' api:read '])).toEqual(['api:read', 'properties:write', 'files:read']);
  });

  it('refuses unknown scopes with exit 2, listing the valid ones', () => {
    const error = (() => {
      try {
        parseScopes(['api:read', 'props:read', 'API:READ']);
      } catch (e) {
        return e as UsageError;
      }
    })()!;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/^unknown scopes "props:read", "API:READ"; valid scopes: api:read, api:write, .*keys:admin$/);
  });

  it('needs at least one scope', () => {
    expect(() => parseScopes(undefined)).toThrow(/at least one --scope/);
    expect(() => parseScopes([' , '])).toThrow(/at least one --scope/);
  });

  it('canManageKeys', () => {
    expect(canManageKeys(['api:read', 'keys:admin'])).toBe(true);
    expect(canManageKeys(['api:delete'])).toBe(false);
  });
});
