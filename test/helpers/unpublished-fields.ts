// A property carrying fields the service's description does not publish (one at the top, one inside
// its address): what sync's tables and Parquet files must keep in `_unpublished`, nested as sent.
import { expect } from 'vitest';
import type { MockAdmin } from './mock-admin.js';

/**
 * Create it through the mock (`extra`: more unpublished fields) and return its id. Callers delete it
 * again: the other tests of their files count the seeded records.
 */
export async function createWithUnpublished(admin: MockAdmin, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await admin.call('POST', '/api/properties', {
    name: 'Extra Hall',
    propertyType: 'office',
    address: { line1: '1 Main', city: 'Hull', region: 'YT', postalCode: '0123', country: 'CA', postal_code: 'other' },
    wingCount: 3,
    ...extra,
  });
  expect(created.status).toBe(201);
  return (created.body as { id: string }).id;
}
