// Pure pieces of the HTTP core: retry policy, URL guards, error-body parsing, scope hints.
import { describe, expect, it } from 'vitest';
import { SafetyError, UsageError } from '../../../../src/core/errors.js';
import { proxySettings } from '../../../../src/core/http/agent.js';
import { likelyScopes, parseServiceError, scopesInMessage } from '../../../../src/core/http/http-errors.js';
import {
  backoffDelay,
  DEFAULT_RETRY_BASE_MS,
  mayRetry,
  parseRetryAfter,
  RETRY_AFTER_CAP_MS,
  retryPolicy,
} from '../../../../src/core/http/retry.js';
import { assertNoCredentialInUrl, assertSafeTransport, buildUrl } from '../../../../src/core/http/url-guard.js';

describe('retry policy', () => {
  it('retries GET/HEAD/PUT/DELETE by default, never POST/PATCH unless told', () => {
    expect(['GET', 'HEAD', 'PUT', 'DELETE'].map((m) => mayRetry(m as 'GET'))).toEqual([true, true, true, true]);
    expect(mayRetry('POST')).toBe(false);
    expect(mayRetry('PATCH')).toBe(false);
    expect(mayRetry('GET', false)).toBe(false);
    expect(mayRetry('POST', true)).toBe(true);
  });

  it('reads APPRAISAL_RETRY_BASE_MS, ignoring junk', () => {
    expect(retryPolicy(3, {}).baseMs).toBe(DEFAULT_RETRY_BASE_MS);
    expect(retryPolicy(3, { APPRAISAL_RETRY_BASE_MS: '5' }).baseMs).toBe(5);
    expect(retryPolicy(3, { APPRAISAL_RETRY_BASE_MS: 'soon' }).baseMs).toBe(DEFAULT_RETRY_BASE_MS);
    expect(retryPolicy(3, { APPRAISAL_RETRY_BASE_MS: '-1' }).baseMs).toBe(DEFAULT_RETRY_BASE_MS);
  });

  it('backs off exponentially with full jitter, capped', () => {
    const top = { ...retryPolicy(5, {}), random: () => 0.999999 };
    expect([1, 2, 3, 4, 5, 6, 10].map((n) => Math.round(backoffDelay(n, top) / 10) * 10)).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000]);
    const bottom = { ...retryPolicy(5, {}), random: () => 0 };
    expect(backoffDelay(3, bottom)).toBe(0);
  });

  it('parses Retry-After as seconds or an HTTP-date, capped', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('86400', now)).toBe(RETRY_AFTER_CAP_MS);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('URL guards', () => {
  it('allows https anywhere and http only to loopback', () => {
    expect(() => assertSafeTransport(new URL('https://api.example.com/x'))).not.toThrow();
    expect(() => assertSafeTransport(new URL('http://127.0.0.1:4000/x'))).not.toThrow();
    expect(() => assertSafeTransport(new URL('http://api.example.com/x'))).toThrow(SafetyError);
  });

  it('keeps requests on the base origin', () => {
    const base = new URL('https://h.example:4000/v/');
    expect(buildUrl(base, '//evil.example/x').origin).toBe('https://h.example:4000');
    expect(buildUrl(base, '/api/x').href).toBe('https://h.example:4000/v/api/x');
    expect(() => buildUrl(base, 'api/x')).toThrow(UsageError);
  });

  it('finds credentials in URLs but lets key prefixes through', () => {
    const check = (href: string, secret?: string) => () => assertNoCredentialInUrl(new URL(href), secret);
    expect(check('https://h/api/keys/apk_abcd1234')).not.toThrow();
    expect(check('https://h/api/x?API_KEY=1')).toThrow(UsageError);
    expect(check('https://h/api/x?q=apk_abcd1234_abcdefgh')).toThrow(UsageError);
    expect(check('https://h/api/x?q=my%20secret%20value', 'my secret value')).toThrow(UsageError);
  });
});

describe('service error bodies', () => {
  it('reads the documented shape', () => {
    expect(
      parseServiceError(
        '{"error":{"code":"FORBIDDEN","message":"no","requestId":"r","details":{"requiredScopes":["a:read"]}}}',
        'application/json',
      ),
    ).toEqual({ code: 'FORBIDDEN', message: 'no', requestId: 'r', requiredScopes: ['a:read'] });
  });

  it('copes with other shapes', () => {
    expect(parseServiceError('{"error":"NOT_FOUND"}', 'application/json')).toMatchObject({ code: 'NOT_FOUND', message: 'NOT_FOUND' });
    expect(parseServiceError('{"errors":[{"message":"a"},{"message":"b"}]}', 'application/json').message).toBe('a; b');
    expect(parseServiceError('{"error":{"message":"x\\n   y"}}', 'application/json').message).toBe('x y');
    expect(parseServiceError('null', 'application/json')).toEqual({});
    expect(parseServiceError('x'.repeat(1000), 'text/plain').message?.length).toBeLessThan(320);
  });

  it('finds scopes in messages and derives likely ones', () => {
    expect(scopesInMessage('This key requires one of: properties:read, api:read')).toEqual(['properties:read', 'api:read']);
    expect(scopesInMessage('Forbidden')).toEqual([]);
    expect(scopesInMessage('POST /api/properties requires one of: api:write, properties:write (key apk_x has: properties:read)')).toEqual([
      'api:write',
      'properties:write',
    ]);
    expect(scopesInMessage('key has properties:read')).toEqual([]);
    expect(scopesInMessage('missing scope files:delete')).toEqual(['files:delete']);
    expect(likelyScopes('GET', '/api/properties/1?x=1')).toEqual(['properties:read', 'api:read']);
    expect(likelyScopes('HEAD', '/api/files/1')).toEqual(['files:read', 'api:read']);
    expect(likelyScopes('DELETE', '/api/keys/1')).toEqual(['keys:admin', 'api:admin']);
    expect(likelyScopes('GET', '/api/keys/current')).toBeUndefined();
    expect(likelyScopes('POST', '/api/unknown')).toEqual(['api:write']);
  });
});

describe('proxy settings', () => {
  it('reads proxy variables from the given env (lower case first), or none', () => {
    expect(proxySettings({})).toBeUndefined();
    expect(proxySettings({ NO_PROXY: 'x' })).toBeUndefined();
    expect(proxySettings({ HTTPS_PROXY: 'http://p:1', https_proxy: 'http://q:2', NO_PROXY: 'a,b' })).toEqual({
      httpProxy: undefined,
      httpsProxy: 'http://q:2',
      noProxy: 'a,b',
    });
    expect(proxySettings({ HTTP_PROXY: ' ' })).toBeUndefined();
  });
});
