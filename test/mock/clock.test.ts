// A mock started with a clock offset (`clockOffsetSeconds`, `appraisal mock --clock-offset`) runs as
// a service whose clock has always been that far off: its Date header and the updatedAt it stamps
// follow it, POST /__mock/clock moves it (timestamps go back too), and POST /__mock/reset returns to
// the offset it was started with. The CLI's clock tests (export-clock, watch) rely on this.
import { describe, expect, it } from 'vitest';
import { call, useMock } from '../helpers/mock-admin.js';

const mock = useMock({ records: 5, seed: 4, clockOffsetSeconds: -600 });

/** How far the mock's clock is off this machine's, from its Date header and from a change it stamps (ms). */
async function offsets(): Promise<{ header: number; stamp: number }> {
  const page = await call(mock.server, 'GET', '/api/properties?limit=1');
  const header = Date.parse(page.headers.date!) - Date.now();
  const id = (page.json() as { items: Array<{ id: string }> }).items[0]!.id;
  const changed = await call(mock.server, 'PATCH', `/api/properties/${id}`, { body: { name: `renamed ${Date.now()}` } });
  expect(changed.status).toBe(200);
  return { header, stamp: Date.parse((changed.json() as { updatedAt: string }).updatedAt) - Date.now() };
}

const near = (ms: number, target: number) => Math.abs(ms - target) < 5_000;

describe('the mock clock', () => {
  it('started ten minutes behind: Date and updatedAt are; /__mock/clock moves both, back too; reset returns to the start', async () => {
    let off = await offsets();
    expect(near(off.header, -600_000) && near(off.stamp, -600_000), JSON.stringify(off)).toBe(true);

    expect((await call(mock.server, 'POST', '/__mock/clock', { body: { offsetSeconds: 0 } })).status).toBe(200);
    off = await offsets();
    expect(near(off.header, 0) && near(off.stamp, 0), JSON.stringify(off)).toBe(true);

    // Back ten minutes again: new stamps are earlier than the last one, as a service's would be.
    expect((await call(mock.server, 'POST', '/__mock/reset')).status).toBe(204);
    off = await offsets();
    expect(near(off.header, -600_000) && near(off.stamp, -600_000), JSON.stringify(off)).toBe(true);
  });
});
