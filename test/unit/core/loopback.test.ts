// The one loopback rule (issue 26 item 8): `localhost`, 127.0.0.0/8 and ::1 only. `localhost.` (which
// glibc resolves through DNS) and other spellings are any other host: no plain http with the key, the
// proxy is used, and the profile defaults to production.
import { describe, expect, it } from 'vitest';
import { defaultEnvironmentFor } from '../../../src/core/credentials/origin.js';
import { SafetyError } from '../../../src/core/errors.js';
import { proxyFor } from '../../../src/core/http/agent.js';
import { assertSafeTransport } from '../../../src/core/http/url-guard.js';
import { isLoopbackHost } from '../../../src/core/loopback.js';

const LOOPBACK = [
  'localhost',
  'LOCALHOST',
  '127.0.0.1',
  '127.1.2.3',
  '127.255.255.255',
  '::1',
  '[::1]',
  '[::ffff:7f00:1]',
  '::ffff:127.0.0.1',
];
const NOT_LOOPBACK = [
  'localhost.',
  'LOCALHOST.',
  'a.localhost',
  'localhost.localdomain',
  'localhost.example.com',
  'example.com',
  '10.0.0.1',
  '0.0.0.0',
  '128.0.0.1',
  '127.0.0.256',
  '::2',
  '[::2]',
  '::ffff:10.0.0.1',
];

describe('isLoopbackHost', () => {
  it.each(LOOPBACK)('%s is loopback', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each(NOT_LOOPBACK)('%s is not loopback', (host) => expect(isLoopbackHost(host)).toBe(false));
});

describe('every guard uses it', () => {
  it('plain http with the key goes to loopback only, never to http://localhost./', () => {
    expect(() => assertSafeTransport(new URL('http://localhost:4000/api'))).not.toThrow();
    expect(() => assertSafeTransport(new URL('http://127.0.0.1:4000/api'))).not.toThrow();
    for (const url of ['http://localhost.:4000/api', 'http://a.localhost:4000/api', 'http://localhost.localdomain/api']) {
      expect(() => assertSafeTransport(new URL(url)), url).toThrow(SafetyError);
    }
  });

  it('the environment guard: local for loopback only', () => {
    expect(defaultEnvironmentFor('http://localhost:4000')).toBe('local');
    expect(defaultEnvironmentFor('https://[::ffff:127.0.0.1]:4000')).toBe('local');
    expect(defaultEnvironmentFor('https://localhost.:4000')).toBe('production');
    expect(defaultEnvironmentFor('https://dev.localhost:4000')).toBe('production');
  });

  it('the proxy is bypassed for loopback only', () => {
    const env = { HTTPS_PROXY: 'http://proxy.example:3128' };
    expect(proxyFor(new URL('https://localhost:4000/x'), env)).toBeUndefined();
    expect(proxyFor(new URL('https://localhost.:4000/x'), env)).toBe('http://proxy.example:3128');
  });
});
