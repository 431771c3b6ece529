// The service's clock from its Date headers (core/service-clock.ts): only an IMF-fixdate is read,
// the latest answer sets the offset, and measure() asks only when no answer told the time yet,
// taking the reading from an answer it rejects but not hiding a failure that had no answer.
import { describe, expect, it } from 'vitest';
import type { ApiClient, RequestOptions } from '../../../src/core/api-client.js';
import { NetworkError, RejectedError } from '../../../src/core/errors.js';
import { describeOffset, parseHttpDate, ServiceClock } from '../../../src/core/service-clock.js';

const LOCAL = Date.parse('2026-11-27T12:00:00.000Z');

/** A client whose every request "arrives" with `date` observed on `clock`, then ends with `outcome`. */
function answering(
  clock: ServiceClock,
  date: string | undefined,
  outcome?: Error,
): Pick<ApiClient, 'request'> & { sent: RequestOptions[] } {
  const sent: RequestOptions[] = [];
  return {
    sent,
    request: async <T>(options: RequestOptions) => {
      sent.push(options);
      clock.observe(date);
      if (outcome) throw outcome;
      return { status: 200, headers: {}, body: {} as T, requestId: undefined };
    },
  };
}

describe('parseHttpDate', () => {
  it('reads an IMF-fixdate and nothing looser', () => {
    expect(parseHttpDate('Fri, 27 Nov 2026 11:50:00 GMT')).toBe(Date.parse('2026-11-27T11:50:00Z'));
    for (const loose of [undefined, '', '1', '2026-11-27T11:50:00Z', 'Friday, 27-Nov-26 11:50:00 GMT', 'Fri, 27 Nov 2026 11:50:00 +0000']) {
      expect(parseHttpDate(loose)).toBeUndefined();
    }
  });
});

describe('ServiceClock', () => {
  it('knows nothing before a dated answer; then the service time is this machine’s moved by the latest offset', () => {
    let local = LOCAL;
    const clock = new ServiceClock(() => local);
    expect(clock.now()).toBeUndefined();
    clock.observe('garbage');
    expect(clock.offsetMs).toBeUndefined();
    clock.observe('Fri, 27 Nov 2026 11:50:00 GMT');
    expect(clock.offsetMs).toBe(-600_000);
    local += 5_000;
    expect(clock.now()).toBe(LOCAL + 5_000 - 600_000);
    clock.observe('Fri, 27 Nov 2026 12:00:05 GMT');
    expect(clock.offsetMs).toBe(0);
    expect(describeOffset(-600_400)).toBe('10m behind');
    expect(describeOffset(7_200_000)).toBe('2h ahead of');
  });

  it('measure() asks once, keeps the reading of an answer it rejects, and throws a failure with no answer', async () => {
    const clock = new ServiceClock(() => LOCAL);
    const rejecting = answering(
      clock,
      'Fri, 27 Nov 2026 11:50:00 GMT',
      new RejectedError('bad', { status: 422, method: 'GET', path: '/x' }),
    );
    expect(await clock.measure(rejecting, '/api/properties')).toBe(LOCAL - 600_000);
    expect(rejecting.sent).toEqual([{ method: 'GET', path: '/api/properties', query: { page: 1, limit: 1 }, signal: undefined }]);
    expect(await clock.measure(rejecting, '/api/properties')).toBe(LOCAL - 600_000);
    expect(rejecting.sent).toHaveLength(1);

    const fresh = new ServiceClock(() => LOCAL);
    await expect(fresh.measure(answering(fresh, undefined, new NetworkError('down')), '/api/properties')).rejects.toThrow(NetworkError);
    expect(await fresh.measure(answering(fresh, undefined), '/api/properties')).toBeUndefined();
  });
});
