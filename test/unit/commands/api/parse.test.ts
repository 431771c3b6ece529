import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { fieldsAsQuery, parseHeaders, parseMethod, parseTarget } from '../../../../src/commands/api/parse.js';
import { SecretRedactor } from '../../../../src/core/redact.js';

describe('parseMethod', () => {
  it('accepts the six methods in any case', () => {
    expect(parseMethod('get')).toBe('GET');
    expect(parseMethod(' Patch ')).toBe('PATCH');
    expect(parseMethod('head')).toBe('HEAD');
  });
  it('refuses anything else', () => {
    expect(() => parseMethod('TRACE')).toThrow(UsageError);
    expect(() => parseMethod('/api/properties')).toThrow(/unknown method/);
  });
});

describe('parseTarget', () => {
  it('splits the path from its query, repeating names as lists', () => {
    expect(parseTarget('/api/properties?limit=5&q=a%20b&tag=x&tag=y')).toEqual({
      path: '/api/properties',
      query: { limit: '5', q: 'a b', tag: ['x', 'y'] },
    });
  });
  it('accepts api/… without the leading slash', () => {
    expect(parseTarget('api/keys/current').path).toBe('/api/keys/current');
  });
  it('refuses URLs, relative paths, fragments and white space', () => {
    expect(() => parseTarget('https://evil.example/api/properties')).toThrow(/not a URL/);
    expect(() => parseTarget('properties')).toThrow(/must start with \//);
    expect(() => parseTarget('//evil.example/api')).toThrow(UsageError);
    expect(() => parseTarget('/api/properties#x')).toThrow(/fragment/);
    expect(() => parseTarget('/api/a b')).toThrow(/white space/);
  });
  it('refuses a credential in the query or the path', () => {
    expect(() => parseTarget('/api/properties?api_key=abc')).toThrow(/credential in the URL/);
    expect(() => parseTarget('/api/properties?TOKEN=abc')).toThrow(/credential in the URL/);
    expect(() => parseTarget('/api/properties?q=apk_AbCdEf12_0123456789abcdef')).toThrow(/API key in the URL/);
    expect(() => parseTarget('/api/apk_AbCdEf12_0123456789abcdef')).toThrow(/API key in the URL/);
  });
});

describe('parseHeaders', () => {
  it('parses name: value pairs, lower-casing names and joining repeats', () => {
    expect(parseHeaders(['Accept: application/json', 'X-Mock-Fault: 503', 'accept: text/plain'])).toEqual({
      accept: 'application/json, text/plain',
      'x-mock-fault': '503',
    });
  });
  it.each(['x-api-key: apk_x', 'Authorization: Bearer abc', 'proxy-authorization: x', 'Cookie: a=b'])(
    'refuses the credential header %s',
    (header) => {
      expect(() => parseHeaders([header])).toThrow(/the CLI sends the credential itself/);
    },
  );
  it('refuses headers the client owns, malformed ones, and key-shaped values', () => {
    expect(() => parseHeaders(['Host: evil.example'])).toThrow(/set by the HTTP client/);
    expect(() => parseHeaders(['Content-Length: 5'])).toThrow(/set by the HTTP client/);
    expect(() => parseHeaders(['no colon'])).toThrow(/name: value/);
    expect(() => parseHeaders(['bad name: x'])).toThrow(/invalid header name/);
    expect(() => parseHeaders(['x-note: apk_AbCdEf12_0123456789abcdef'])).toThrow(/API key in the header/);
  });
});

describe('fieldsAsQuery', () => {
  it('adds -f strings and -F JSON values to the query', () => {
    expect(
      fieldsAsQuery({ limit: '5' }, ['q=harbor', 'propertyType=Office'], ['page=2', 'ids=["a","b"]', 'flag=true', 'raw=not json']),
    ).toEqual({
      limit: '5',
      q: 'harbor',
      propertyType: 'Office',
      page: '2',
      ids: ['a', 'b'],
      flag: 'true',
      raw: 'not json',
    });
  });
  it('refuses malformed pairs and credentials', () => {
    expect(() => fieldsAsQuery({}, ['novalue'], [])).toThrow(/key=value/);
    expect(() => fieldsAsQuery({}, ['api_key=x'], [])).toThrow(/credential/);
  });
});

describe('redactHeader (api -i)', () => {
  it('never prints credential headers or key-shaped values', () => {
    const redactor = new SecretRedactor();
    expect(redactor.redactHeader('Set-Cookie', 'session=1')).toBe('[redacted]');
    expect(redactor.redactHeader('x-api-key', 'anything')).toBe('[redacted]');
    expect(redactor.redactHeader('x-echo', 'key apk_AbCdEf12_0123456789abcdef here')).toBe('key apk_AbCdEf12_… here');
    expect(redactor.redactHeader('x-echo-auth', 'Bearer eyJhbGciOi.J9x.y')).toBe('Bearer …');
  });
});
