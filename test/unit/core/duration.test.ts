import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { DAY_MS, formatDuration, parseDuration, spanInWords, wholeDays } from '../../../src/core/duration.js';

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
    expect(() => parseDuration('500ms', '--interval', limits)).toThrow('--interval must be between 1s and 168h, got "500ms"');
    // Repeated as typed, not as normalised (`0s` used to come back as `0ms`).
    expect(() => parseDuration('0s', '--interval', limits)).toThrow('--interval must be between 1s and 168h, got "0s"');
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

describe('spanInWords: the one rounding rule for "expires in N days" (issue 25 §5)', () => {
  const HOUR = 3_600_000;
  const MINUTE = 60_000;
  it.each([
    [30 * DAY_MS - 10_000, '30 days'], // a 30-day key read a few seconds after it was made
    [9 * DAY_MS + 12 * HOUR - 1, '9 days'],
    [9 * DAY_MS + 12 * HOUR, '10 days'],
    [DAY_MS, '1 day'],
    [DAY_MS - 1, '24 hours'],
    [2 * HOUR + 29 * MINUTE, '2 hours'],
    [2 * HOUR + 30 * MINUTE, '3 hours'],
    [HOUR, '1 hour'],
    [HOUR - 1, '60 minutes'],
    [90_000, '2 minutes'],
    [1_000, '1 minute'],
    [0, '1 minute'],
    [-3 * DAY_MS, '3 days'],
  ])('%i ms -> %s', (ms, text) => {
    expect(spanInWords(ms)).toBe(text);
  });

  it('wholeDays counts days the same way, with the sign', () => {
    expect([9.49, 9.5, -9.5, -0.4, 0].map((days) => wholeDays(days * DAY_MS))).toEqual([9, 10, -10, 0, 0]);
  });

  it('is the rule of every message that counts days: expiry notice, rotate schedule, smoke, audit, doctor', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const root = join(__dirname, '../../../src');
    const users = [
      'core/credentials/expiry.ts',
      'commands/keys/rotation/schedule.ts',
      'commands/keys/audit-findings.ts',
      'commands/smoke/checks/built-in.ts',
      'commands/doctor/service-checks.ts',
      'commands/doctor/network-checks.ts',
    ];
    for (const file of users) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(text, file).toContain('spanInWords(');
      // No second rounding of a span into days.
      expect(text, file).not.toMatch(/\/ (DAY_MS|86_400_000|864e5)\b/);
    }
  });
});
