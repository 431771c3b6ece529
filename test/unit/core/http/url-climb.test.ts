// Issue 14 item 8: a path that resolves outside the base URL's path is refused before any request.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { buildUrl } from '../../../../src/core/http/url-guard.js';

const base = new URL('https://host.example/s/ok');

describe('buildUrl refuses paths that climb out of the base path', () => {
  it.each(['/api/%2E%2e/%2e%2e/x', '/api/../../x', '/../x', '/api/..%2f..%2fx', '/api/%252e%252e/%252e%252e/x', '/api/..%5c..%5cx'])(
    '%s',
    (path) => {
      expect(() => buildUrl(base, path)).toThrow(UsageError);
      expect(() => buildUrl(base, path)).toThrow(/climbs out of the base URL's path \/s\/ok/);
    },
  );

  it('keeps paths that stay inside, normalised', () => {
    expect(buildUrl(base, '/api/properties/x/../y').pathname).toBe('/s/ok/api/properties/y');
    expect(buildUrl(base, '/api/properties', { q: '../..' }).href).toBe('https://host.example/s/ok/api/properties?q=..%2F..');
    expect(buildUrl(new URL('https://host.example'), '/api/a%2Eb').pathname).toBe('/api/a%2Eb');
  });
});
