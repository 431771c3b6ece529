import { describe, expect, it } from 'vitest';
import { expiryWarning } from '../../../../src/core/credentials/expiry.js';

const now = new Date('2026-03-01T12:00:00.000Z');
const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();

describe('expiryWarning', () => {
  it('warns within 14 days, naming the prefix, the date and the fix', () => {
    expect(expiryWarning({ prefix: 'apk_AAAAaaaa', expiresAt: inDays(3) }, now)).toBe(
      'key apk_AAAAaaaa… expires in 3 days (2026-03-04T12:00:00.000Z); rotate it with appraisal keys rotate',
    );
    // A few seconds of clock drift between creating the key and asking still reads "3 days".
    expect(expiryWarning({ prefix: 'apk_AAAAaaaa', expiresAt: inDays(3 - 10 / 86_400) }, now)).toMatch(/expires in 3 days/);
    expect(expiryWarning({ expiresAt: inDays(1) }, now)).toMatch(/^the key expires in 1 day /);
    expect(expiryWarning({ expiresAt: inDays(0.1) }, now)).toMatch(/expires in 2 hours/);
    expect(expiryWarning({ expiresAt: inDays(14) }, now)).toMatch(/expires in 14 days/);
  });

  it('is silent for a lease, which is made to expire (keys lease names it), and warns for a key merely named like one', () => {
    expect(
      expiryWarning({ prefix: 'apk_AAAAaaaa', name: 'lease: ./nightly.sh, host ci-7, pid 4242', expiresAt: inDays(0.01) }, now),
    ).toBeUndefined();
    expect(expiryWarning({ prefix: 'apk_AAAAaaaa', name: 'release: nightly', expiresAt: inDays(0.01) }, now)).toMatch(/expires in/);
  });

  it('is silent for keys that expire later, never, or with an unreadable date', () => {
    expect(expiryWarning({ expiresAt: inDays(15) }, now)).toBeUndefined();
    expect(expiryWarning({ expiresAt: null }, now)).toBeUndefined();
    expect(expiryWarning({}, now)).toBeUndefined();
    expect(expiryWarning({ expiresAt: 'soon' }, now)).toBeUndefined();
  });

  it('says so when the key has already expired', () => {
    expect(expiryWarning({ prefix: 'apk_AAAAaaaa', expiresAt: inDays(-1) }, now)).toMatch(/^key apk_AAAAaaaa… expired on 2026-02-28/);
  });
});
