import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { formatDuration, parseDuration } from '../../../src/core/duration.js';

const limits = { minMs: 1000, maxMs: 7 * 24 * 3_600_000 };

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['1h15m', 4_500_000],
    ['90', 90_000],
    ['1.5', 1_500],
    ['1500ms', 1_500],
    ['0.5m', 30_000],
    [' 2S ', 2_000],
  ])('%s -> %i ms', (text, ms) => {
    expect(parseDuration(text, '--interval', limits)).toBe(ms);
  });

  it.each(['', 'abc', '5x', '5 m', 'm5', '-5s', '1s2', '1e3'])('rejects %j', (text) => {
    expect(() => parseDuration(text, '--interval', limits)).toThrow(UsageError);
  });

  it('enforces the limits, naming them', () => {
    expect(() => parseDuration('500ms', '--interval', limits)).toThrow('--interval must be between 1s and 168h, got 500ms');
    expect(() => parseDuration('8d', '--interval', limits)).toThrow(UsageError);
    expect(() => parseDuration('200h', '--interval', limits)).toThrow(/between/);
    expect(parseDuration('1s', '--interval', limits)).toBe(1000);
  });
});

describe('formatDuration', () => {
  it.each([
    [250, '250ms'],
    [1_000, '1s'],
    [1_500, '1.5s'],
    [90_000, '1m30s'],
    [3_600_000, '1h'],
    [3_723_000, '1h2m3s'],
  ])('%i -> %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
