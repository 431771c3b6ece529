import { describe, expect, it } from 'vitest';
import { lifetimeOf, parseDuration, parseExpiresAt, requestedExpiry } from '../../../../src/commands/keys/expires.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const HOUR = 3_600_000;

describe('--expires-in', () => {
  it('takes hours, days and weeks', () => {
    expect(parseDuration('12h')).toBe(12 * HOUR);
    expect(parseDuration('90d')).toBe(90 * 24 * HOUR);
    expect(parseDuration('2W')).toBe(14 * 24 * HOUR);
  });

  it('refuses anything else before any request', () => {
    for (const bad of ['90', 'd', '1.5d', '10m', '-1d', '0h', '3651d', '90 days'])
      expect(() => parseDuration(bad), bad).toThrow(/--expires-in/);
  });
});

describe('--expires-at', () => {
  it('takes a future ISO date or timestamp with a zone', () => {
    expect(parseExpiresAt('2027-01-31', NOW).toISOString()).toBe('2027-01-31T00:00:00.000Z');
    expect(parseExpiresAt('2027-01-31T12:00:00+02:00', NOW).toISOString()).toBe('2027-01-31T10:00:00.000Z');
  });

  it('refuses a past time, a time without a zone, and nonsense', () => {
    expect(() => parseExpiresAt('2026-02-01T00:00:00Z', NOW)).toThrow(/in the future/);
    expect(() => parseExpiresAt('2027-01-31T12:00:00', NOW)).toThrow(/ISO 8601/);
    expect(() => parseExpiresAt('tomorrow', NOW)).toThrow(/ISO 8601/);
  });
});

describe('requestedExpiry', () => {
  it('one flag or the other, as an ISO timestamp', () => {
    expect(requestedExpiry({}, NOW)).toBeUndefined();
    expect(requestedExpiry({ expiresIn: '1d' }, NOW)).toBe('2026-03-02T12:00:00.000Z');
    expect(requestedExpiry({ expiresAt: '2026-04-01T00:00:00Z' }, NOW)).toBe('2026-04-01T00:00:00.000Z');
    expect(() => requestedExpiry({ expiresIn: '1d', expiresAt: '2026-04-01' }, NOW)).toThrow(/not both/);
  });

  it('lifetimeOf: expiresAt − createdAt, when both are readable', () => {
    expect(lifetimeOf({ createdAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-02T00:00:00Z' })).toBe(24 * HOUR);
    expect(lifetimeOf({ createdAt: '2026-01-01T00:00:00Z', expiresAt: null })).toBeUndefined();
    expect(lifetimeOf({ createdAt: 'x', expiresAt: '2026-01-02T00:00:00Z' })).toBeUndefined();
  });
});
