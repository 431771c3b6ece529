// keys rotate --if-expiring-within / --if-older-than: when it is not time, `because` follows the
// key's name in one sentence ("key apk_… of profile ci expires in 41 days and is 20 days old") for
// every combination of the flags and of what the key's record holds.
import { describe, expect, it } from 'vitest';
import { decide, parseSchedule } from '../../../../src/commands/keys/rotation/schedule.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const DAY = 86_400_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const ahead = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

const both = parseSchedule({ ifExpiringWithin: '14d', ifOlderThan: '90d' })!;
const expiring = parseSchedule({ ifExpiringWithin: '14d' })!;
const older = parseSchedule({ ifOlderThan: '90d' })!;

describe('decide: nothing to do, in words that follow "key apk_… of profile P"', () => {
  it.each([
    [
      'both flags, an expiring key',
      both,
      { expiresAt: ahead(41 * DAY), createdAt: ago(20 * DAY) },
      'expires in 41 days and is 20 days old',
    ],
    ['both flags, a key that never expires', both, { expiresAt: null, createdAt: ago(29 * 60_000) }, 'never expires and is 29 minutes old'],
    ['--if-expiring-within, an expiring key', expiring, { expiresAt: ahead(41 * DAY), createdAt: ago(DAY) }, 'expires in 41 days'],
    ['--if-expiring-within, a key that never expires', expiring, { createdAt: ago(DAY) }, 'never expires'],
    ['--if-older-than, an expiring key', older, { expiresAt: ahead(41 * DAY), createdAt: ago(60_000) }, 'is 1 minute old'],
    ['--if-older-than, a key that never expires', older, { expiresAt: null, createdAt: ago(3 * DAY) }, 'is 3 days old'],
    ['--if-older-than, no creation time', older, { expiresAt: null }, 'has no creation time on the service'],
    ['both flags, no creation time', both, { expiresAt: null }, 'never expires and has no creation time on the service'],
  ])('%s', (_name, schedule, record, because) => {
    expect(decide(schedule, { id: 'k', ...record }, NOW)).toEqual({ rotate: false, because });
  });
});

describe('decide: due, with the reason that holds', () => {
  it('names the expiry or the age, whichever made it due', () => {
    expect(decide(both, { id: 'k', expiresAt: ahead(3 * DAY), createdAt: ago(DAY) }, NOW)).toEqual({
      rotate: true,
      because: 'it expires in 3 days',
    });
    expect(decide(expiring, { id: 'k', expiresAt: ago(DAY) }, NOW)).toEqual({ rotate: true, because: 'it has expired' });
    expect(decide(both, { id: 'k', expiresAt: null, createdAt: ago(91 * DAY) }, NOW)).toEqual({
      rotate: true,
      because: 'it is 91 days old',
    });
  });
});
