// reportError must never throw itself, whatever was thrown (found by the reportError property in
// test/fuzz: `String(value)` throws for an object without a usable toString).
import { describe, expect, it } from 'vitest';
import { reportError } from '../../../src/core/report-error.js';
import { SecretRedactor } from '../../../src/core/redact.js';

function report(thrown: unknown, verbose = false): { code: number; text: string } {
  let text = '';
  const code = reportError(thrown, { write: (chunk: string) => (text += chunk) }, new SecretRedactor(), verbose);
  return { code, text };
}

describe('reportError with values that resist being turned into text', () => {
  it.each([
    ['an object with a null prototype', Object.create(null) as unknown, 'error: unexpected failure: {}'],
    ['an array holding one', [{ toString: 0 }], 'error: unexpected failure: [{"toString":0}]'],
    [
      'an object whose toString throws',
      {
        toString: () => {
          throw new Error('no');
        },
      },
      'error: unexpected failure: {}',
    ],
    [
      'a cyclic null-prototype object',
      (() => {
        const o = Object.create(null) as Record<string, unknown>;
        o.self = o;
        return o;
      })(),
      'error: unexpected failure: [object Object]',
    ],
  ])('%s: exit 1, one error line and the hint, no throw', (_name, thrown, first) => {
    const { code, text } = report(thrown);
    expect(code).toBe(1);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe(first);
    expect(lines[1]).toMatch(/^hint: this is a bug/);
    expect(lines).toHaveLength(2);
  });
});
