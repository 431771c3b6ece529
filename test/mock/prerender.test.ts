// `appraisal mock --prerender`: collection pages are served from the bytes rendered the first time —
// the same bytes a mock without it sends — until a write changes the data.
import { describe, expect, it } from 'vitest';
import { call, useMock } from '../helpers/mock-admin.js';

const plain = useMock({ records: 30, seed: 8 });
const prerendered = useMock({ records: 30, seed: 8, prerender: true });

describe('--prerender', () => {
  it('serves the same bytes as a fresh rendering, and again on the next request', async () => {
    const path = '/api/properties?page=2&limit=10';
    const [fresh, first, again] = [
      await call(plain.server, 'GET', path),
      await call(prerendered.server, 'GET', path),
      await call(prerendered.server, 'GET', path),
    ];
    expect(first.status).toBe(200);
    expect(first.text).toBe(fresh.text);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toBe(fresh.headers['content-type']);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('renders again after a write, and never caches an injected fault', async () => {
    const path = '/api/properties?page=1&limit=100';
    const before = (await call(prerendered.server, 'GET', path)).json<{ pagination: { total: number } }>();
    const created = await call(prerendered.server, 'POST', '/api/properties', {
      body: {
        name: 'Cache Buster',
        propertyType: 'office',
        address: { line1: '1 A St', city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
      },
    });
    expect(created.status, created.text).toBe(201);
    const after = (await call(prerendered.server, 'GET', path)).json<{ pagination: { total: number } }>();
    expect(after.pagination.total).toBe(before.pagination.total + 1);
    const faulty = await call(prerendered.server, 'GET', path, { headers: { 'x-mock-fault': 'missing-id' } });
    expect(faulty.text).not.toBe((await call(prerendered.server, 'GET', path)).text);
  });
});
