// doctor's clock check reads the service's Date header as the export watermark does
// (core/service-clock.ts): only an IMF-fixdate counts, so "1" is not the year 2001.
import { describe, expect, it } from 'vitest';
import { clockItem } from '../../../../src/commands/doctor/service-checks.js';

const now = new Date('2026-11-27T12:00:00Z');

describe('doctor: the clock check', () => {
  it('compares an IMF-fixdate with this machine, in whole seconds', () => {
    expect(clockItem('Fri, 27 Nov 2026 12:00:02 GMT', now)).toMatchObject({
      check: 'clock',
      severity: 'ok',
      result: "within 2s of the service's clock",
    });
    expect(clockItem('Fri, 27 Nov 2026 11:59:00 GMT', now)).toMatchObject({
      severity: 'warning',
      result: "this machine's clock is 60s ahead of the service's",
    });
    expect(clockItem('Fri, 27 Nov 2026 12:10:00 GMT', now)).toMatchObject({
      severity: 'error',
      result: "this machine's clock is 600s behind the service's",
    });
  });

  it('says the clocks cannot be compared for a missing or malformed header', () => {
    for (const header of [undefined, '1', '2026-11-27T12:00:00Z', 'Fri, 27 Nov 2026 12:00:00 PST'])
      expect(clockItem(header, now)).toMatchObject({
        severity: 'info',
        result: 'the service sent no valid Date header: the clocks cannot be compared',
      });
  });
});
