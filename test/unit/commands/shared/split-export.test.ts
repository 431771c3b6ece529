import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { splitLimits } from '../../../../src/commands/shared/split-export.js';

describe('--split-rows / --split-size', () => {
  it('reads rows, sizes with units, both, or neither', () => {
    expect(splitLimits({})).toBeUndefined();
    expect(splitLimits({ splitRows: '100000' })).toEqual({ rows: 100_000, bytes: undefined });
    expect(splitLimits({ splitSize: '500MiB' })).toEqual({ rows: undefined, bytes: 500 * 1024 ** 2 });
    expect(splitLimits({ splitRows: '10', splitSize: '64K' })).toEqual({ rows: 10, bytes: 65_536 });
  });

  it.each([
    [{ splitRows: '0' }, '--split-rows must be a whole number of records, at least 1; got "0"'],
    [{ splitRows: '-3' }, '--split-rows must be a whole number of records, at least 1; got "-3"'],
    [{ splitRows: '1.5' }, '--split-rows must be a whole number of records, at least 1; got "1.5"'],
    [{ splitRows: '1e3' }, '--split-rows must be a whole number of records, at least 1; got "1e3"'],
    [{ splitSize: '12XB' }, '--split-size must be a size such as 500MiB, 2GB, 64K or a number of bytes; got "12XB"'],
    [{ splitSize: '0' }, '--split-size must be a size such as 500MiB, 2GB, 64K or a number of bytes; got "0"'],
    [{ splitSize: '' }, '--split-size must be a size such as 500MiB, 2GB, 64K or a number of bytes; got ""'],
  ])('refuses %j with one line (exit 2)', (flags, message) => {
    let error: unknown;
    try {
      splitLimits(flags);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(message);
  });
});
