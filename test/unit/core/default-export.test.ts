// A library's default export in each shape it reaches the CLI in: Node's ES module namespace (tests),
// a CommonJS object holding it (ajv bundled), and an ES module package's namespace handed over whole
// as the default (p-limit bundled in a vendor file).
import { describe, expect, it } from 'vitest';
import { defaultExport } from '../../../src/core/default-export.js';

describe('defaultExport', () => {
  const value = function pLimit() {};
  it('finds the value in every shape', () => {
    expect(defaultExport({ default: value })).toBe(value);
    expect(defaultExport(value)).toBe(value);
    expect(defaultExport({ default: { __esModule: true, default: value, limitFunction: () => 0 } })).toBe(value);
    expect(defaultExport({ __esModule: true, default: value })).toBe(value);
  });
});
