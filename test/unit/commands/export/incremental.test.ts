// resolveIncremental's clock warning: the service's time is read from its Date header, which has
// whole seconds, so with both clocks in step a reading is up to a second behind. A skew within that
// resolution is not warned about, even with --overlap 0; one beyond it and beyond --overlap is.
import { describe, expect, it } from 'vitest';
import { resolveIncremental } from '../../../../src/commands/export/incremental.js';
import { planExport } from '../../../../src/commands/export/plan.js';
import { fakeContext } from '../../../helpers/fake-context.js';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const START = { source: '--since-last base', at: '2026-11-29T11:00:00.000Z', clock: 'service' as const };

/** The warnings of one incremental run with --overlap `overlap` and the service `offsetMs` off this machine. */
function warnings(overlap: string, offsetMs: number): string[] {
  const made = fakeContext({ cwd: '/data' });
  const plan = planExport(made.ctx, { dir: 'inc', sinceLast: 'base', overlap });
  resolveIncremental(made.ctx, plan, START, { now: NOW + offsetMs, offsetMs });
  return made
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('warning:'));
}

describe('export --since-last: the clock skew warning', () => {
  it.each([0, -1, -999, -1000, 1000])('is not given for a skew within the Date header’s second (--overlap 0, %i ms)', (offsetMs) => {
    expect(warnings('0', offsetMs)).toEqual([]);
  });

  it('is given for a skew beyond the header’s second and beyond --overlap', () => {
    expect(warnings('0', -2_000)).toEqual([
      "warning: the service's clock is 2s behind this machine's (more than --overlap 0): the watermark is in the service's time, from its Date header; `appraisal doctor` checks the clocks",
    ]);
    expect(warnings('5m', -600_000)).toHaveLength(1);
    expect(warnings('5m', -200_000)).toEqual([]);
  });
});
