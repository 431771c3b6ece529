// Issue 26 items 16 and 18 at the parser: integers a JavaScript number would change are found in the
// raw text (never inside strings), and a UTF-8 byte order mark before the JSON is not refused.
import { describe, expect, it } from 'vitest';
import { ContractError } from '../../../../src/core/errors.js';
import { inexactIntegerIn } from '../../../../src/core/http/exact-numbers.js';
import { parseJsonBody } from '../../../../src/core/http/response-body.js';

const request = { method: 'GET', target: '/api/properties' };

describe('inexactIntegerIn', () => {
  it('finds an integer beyond 2^53 that a number would change', () => {
    expect(inexactIntegerIn('{"n":9007199254740993}')).toBe('9007199254740993');
    expect(inexactIntegerIn('[1,2,{"a":{"b":-123456789012345678901}}]')).toBe('-123456789012345678901');
    // Held exactly by a double, but printed by every format as 1152921504606847000.
    expect(inexactIntegerIn('{"n":1152921504606846976}')).toBe('1152921504606846976');
  });

  it('lets pass what a number holds exactly, floats, and digits inside strings', () => {
    for (const text of [
      '{"n":9007199254740991}',
      '{"n":10000000000000000}',
      '{"n":9007199254740992}',
      '{"n":1.2345678901234567}',
      '{"n":12345678901234567e3}',
      '{"id":"9007199254740993","s":"a \\" 123456789012345678901"}',
      '{"9007199254740993":1}',
    ]) {
      expect(inexactIntegerIn(text), text).toBeUndefined();
    }
  });
});

describe('parseJsonBody', () => {
  it('refuses a big integer with a contract error naming it (exit 9), never changes it', () => {
    const parse = () => parseJsonBody('{"items":[{"id":"a","n":9007199254740993}]}', 200, {}, request);
    expect(parse).toThrow(ContractError);
    expect(parse).toThrow(/the integer 9007199254740993, larger than this CLI can keep exact/);
  });

  it('accepts a body that starts with a UTF-8 byte order mark', () => {
    const text = Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('{"success":true,"data":{"id":"a"}}')]).toString('utf8');
    expect(parseJsonBody(text, 200, { 'content-type': 'application/json' }, request)).toEqual({ success: true, data: { id: 'a' } });
  });
});

describe('the fast check', () => {
  it('finds a 16-digit run wherever it starts (every offset modulo 16)', () => {
    for (let pad = 0; pad < 20; pad++) {
      const text = `{"${'x'.repeat(pad)}":[9007199254740993]}`;
      expect(inexactIntegerIn(text), `offset ${pad}`).toBe('9007199254740993');
    }
  });
});
