// The one parser of --min-rate / APPRAISAL_MIN_RATE: SIZE per DURATION, 0 or off for none, one usage
// line otherwise; and the spelling a child's environment gets parses back to the same floor.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { formatMinRate, minRateSetting, parseMinRate, readMinRate } from '../../../src/core/min-rate.js';

describe('--min-rate', () => {
  it('reads SIZE/DURATION, and 0 or off as no floor', () => {
    expect(parseMinRate('30KiB/30s', '--min-rate')).toEqual({ bytes: 30 * 1024, windowMs: 30_000 });
    expect(parseMinRate(' 1MiB/1m30s ', '--min-rate')).toEqual({ bytes: 1024 * 1024, windowMs: 90_000 });
    expect(parseMinRate('512/2', '--min-rate')).toEqual({ bytes: 512, windowMs: 2_000 });
    expect(parseMinRate('0', '--min-rate')).toBe('off');
    expect(parseMinRate('OFF', '--min-rate')).toBe('off');
  });

  it('refuses anything else with one line naming where it came from', () => {
    expect(() => parseMinRate('fast', '--min-rate')).toThrow(
      new UsageError('--min-rate must be a size per duration such as 30KiB/30s or 1KiB/10s (or 0 for no floor), got "fast"'),
    );
    expect(() => parseMinRate('30KiB', 'APPRAISAL_MIN_RATE')).toThrow(/^APPRAISAL_MIN_RATE must be a size per duration/);
    expect(() => parseMinRate('0B/30s', '--min-rate')).toThrow(UsageError);
    expect(() => parseMinRate('1KiB/soon', '--min-rate')).toThrow(/^the duration of --min-rate must be a duration/);
    expect(() => parseMinRate('1KiB/100ms', '--min-rate')).toThrow(/^the duration of --min-rate must be between 1s and 1h/);
  });

  it('the flag wins over the variable; neither leaves the default to the client', () => {
    expect(readMinRate('1KiB/10s', '2KiB/10s')).toEqual({ bytes: 1024, windowMs: 10_000 });
    expect(readMinRate(undefined, '2KiB/10s')).toEqual({ bytes: 2048, windowMs: 10_000 });
    expect(readMinRate(undefined, undefined)).toBeUndefined();
  });

  it('a child gets a spelling that parses back to the same floor', () => {
    const floor = parseMinRate('1.5KiB/1m', '--min-rate');
    expect(parseMinRate(minRateSetting(floor as Exclude<typeof floor, 'off'>), 'APPRAISAL_MIN_RATE')).toEqual(floor);
    expect(parseMinRate(minRateSetting('off'), 'APPRAISAL_MIN_RATE')).toBe('off');
    expect(formatMinRate({ bytes: 30 * 1024, windowMs: 30_000 })).toBe('30 KiB per 30s');
  });
});
