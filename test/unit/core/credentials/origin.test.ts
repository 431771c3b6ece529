import { describe, expect, it } from 'vitest';
import { defaultEnvironmentFor, displayOrigin, normalizeBaseUrl, originOf } from '../../../../src/core/credentials/origin.js';
import { UsageError } from '../../../../src/core/errors.js';

describe('origins', () => {
  it('makes the default port explicit and lower-cases the host', () => {
    expect(originOf('https://API.Example.com/api')).toBe('https://api.example.com:443');
    expect(originOf('https://api.example.com:443')).toBe('https://api.example.com:443');
    expect(originOf('http://api.example.com')).toBe('http://api.example.com:80');
    expect(originOf('https://localhost:4000/x')).toBe('https://localhost:4000');
    expect(displayOrigin('https://api.example.com:443/v1')).toBe('https://api.example.com');
  });

  it('normalizes base URLs and refuses credentials, queries and other schemes', () => {
    expect(normalizeBaseUrl(' https://api.example.com/ ')).toBe('https://api.example.com');
    expect(normalizeBaseUrl('https://api.example.com:8443/base//')).toBe('https://api.example.com:8443/base');
    for (const bad of [
      'https://k:s@api.example.com',
      'https://api.example.com?api_key=1',
      'https://api.example.com#x',
      'file:///etc',
      '',
    ]) {
      expect(() => normalizeBaseUrl(bad), bad).toThrow(UsageError);
    }
    // The message never repeats a user:password part.
    expect(() => normalizeBaseUrl('https://apk_AAAAaaaa_secretsecret@x.example.com')).toThrow(/^(?!.*secretsecret)/);
  });

  it('makes loopback hosts local (the rule itself: test/unit/core/loopback.test.ts)', () => {
    expect(defaultEnvironmentFor('https://[::ffff:127.0.0.1]:4000')).toBe('local');
    expect(defaultEnvironmentFor('https://api.example.com')).toBe('production');
  });
});
