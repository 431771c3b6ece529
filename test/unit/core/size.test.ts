// The one size parser (--max-response-size, APPRAISAL_MAX_RESPONSE_SIZE): binary units, one usage line otherwise.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { formatBytes, parseSize, sizeInBytes } from '../../../src/core/size.js';

describe('sizes', () => {
  it('reads bytes and binary units, KB and KiB alike', () => {
    expect(sizeInBytes('2048')).toBe(2048);
    expect(sizeInBytes('512KiB')).toBe(512 * 1024);
    expect(sizeInBytes('512 kb')).toBe(512 * 1024);
    expect(sizeInBytes('64MiB')).toBe(64 * 1024 ** 2);
    expect(sizeInBytes('1.5G')).toBe(1.5 * 1024 ** 3);
    expect(sizeInBytes(' 10 bytes ')).toBe(10);
    for (const bad of ['', 'lots', '-1MiB', '1e9', '5 parsecs', '1MiBs', '99999999999T']) expect(sizeInBytes(bad), bad).toBeUndefined();
  });

  it('refuses no size or one under the minimum with one line naming the option', () => {
    expect(parseSize('1MiB', '--max-response-size', 1024)).toBe(1024 ** 2);
    expect(() => parseSize('100', '--max-response-size', 1024)).toThrow(UsageError);
    expect(() => parseSize('lots', 'APPRAISAL_MAX_RESPONSE_SIZE', 1024)).toThrow(
      'APPRAISAL_MAX_RESPONSE_SIZE must be a size of at least 1 KiB such as 64MiB or 512KiB, got "lots"',
    );
  });

  it('formats sizes for messages', () => {
    expect(formatBytes(64 * 1024 ** 2)).toBe('64 MiB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2 GiB');
    expect(formatBytes(512 * 1024)).toBe('512 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(1.5 * 1024 ** 2)).toBe('1.5 MiB');
    expect(formatBytes(999)).toBe('999 bytes');
  });
});
