// Where --forward-to may point, and how much of it messages show: a catch hook's URL is a capability
// (its token in the path or the query), and messages end up in logs.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { parseForwardTarget, shownFailure, shownLocation, shownTarget } from '../../../../src/commands/watch/forward/target.js';

const shown = (raw: string) => shownTarget(parseForwardTarget(raw));

describe('--forward-to', () => {
  it('messages show the origin and the first segment of the path, never the rest or the query', () => {
    expect(shown('https://hooks.example.com')).toBe('https://hooks.example.com');
    expect(shown('https://hooks.example.com/appraisal')).toBe('https://hooks.example.com/appraisal');
    expect(shown('https://hooks.zapier.com/hooks/catch/1234567/abcdefg/')).toBe('https://hooks.zapier.com/hooks/…');
    expect(shown('https://n8n.example.com/webhook?token=s3cret')).toBe('https://n8n.example.com/webhook/…');
    expect(shown('https://discord.com/api/webhooks/1/T0KEN#frag')).toBe('https://discord.com/api/…');
    expect(shown('http://127.0.0.1:8080/hooks/appraisal')).toBe('http://127.0.0.1:8080/hooks/…');
  });

  it('refuses plain http:// off this machine without repeating the path it was given', () => {
    let refused: unknown;
    try {
      parseForwardTarget('http://hooks.zapier.com/hooks/catch/1234567/s3cretpath/');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(UsageError);
    const error = refused as UsageError;
    expect(error.message).toContain('plain http:// is allowed only to this machine');
    expect(`${error.message} ${error.hint ?? ''}`).not.toContain('s3cretpath');
  });

  it("a transport failure's words lose the request line, and with it the receiver's path", () => {
    const url = parseForwardTarget('https://hooks.zapier.com/hooks/catch/1234567/s3cretpath/?t=q');
    expect(shownFailure('POST /hooks/catch/1234567/s3cretpath/: cannot connect to https://hooks.zapier.com: connection refused', url)).toBe(
      'cannot connect to https://hooks.zapier.com: connection refused',
    );
    expect(shownFailure('the request for /hooks/catch/1234567/s3cretpath/ failed', url)).toBe('the request for /hooks/… failed');
    // A path of one segment hides nothing: the words are left as they are.
    const short = parseForwardTarget('https://h.example.com/h');
    expect(shownFailure('POST /h: the request to https://h.example.com failed', short)).toBe('the request to https://h.example.com failed');
  });

  it('a URL without its scheme (`localhost:18080/hook`): the hint shows the form, not the path it was given', () => {
    for (const raw of ['localhost:18080/hooks/s3cretpath', 'ftp://127.0.0.1/hooks/s3cretpath']) {
      let refused: unknown;
      try {
        parseForwardTarget(raw);
      } catch (error) {
        refused = error;
      }
      expect(refused, raw).toBeInstanceOf(UsageError);
      const error = refused as UsageError;
      expect(error.message).toContain('--forward-to must be an https:// URL');
      expect(error.hint).toBe(
        'give the whole URL, scheme first: https://HOST/PATH, or http://HOST/PATH when HOST is this machine (localhost, 127.0.0.1, [::1])',
      );
      expect(`${error.message} ${error.hint}`).not.toContain('s3cretpath');
    }
  });

  it("a redirect's Location: scheme, host and port only, resolved against the receiver's URL", () => {
    const base = parseForwardTarget('https://hooks.example.com/hooks/catch/1/abc');
    expect(shownLocation('https://new.example.com:8443/T0KEN?sig=s3cret', base)).toBe('https://new.example.com:8443/…');
    expect(shownLocation('https://new.example.com', base)).toBe('https://new.example.com');
    expect(shownLocation('/moved/T0KEN', base)).toBe('https://hooks.example.com/…');
    expect(shownLocation('http://user:pw@[::1]:9/x', base)).toBe('http://[::1]:9/…');
    expect(shownLocation('javascript:alert(1)', base)).toBe('a javascript: URL');
    expect(shownLocation('http://exa mple.com/\u0007', base)).toBe('a location that is not a URL');
  });
});
