// Collections: the envelope, page/limit rules (first page 1, default 25, clamped to 100), stable
// order, filters, and bad query values (422, never a crash).
import { describe, expect, it } from 'vitest';
import { call, useMock } from '../helpers/mock-admin.js';

const mock = useMock({ records: 60, seed: 5 });

interface Page {
  items: Array<Record<string, unknown> & { id: string; updatedAt: string }>;
  pagination: { page: number; limit: number; total: number; pages: number };
}

async function page(path: string): Promise<Page> {
  const reply = await call(mock.server, 'GET', path);
  expect(reply.status, reply.text).toBe(200);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  expect(reply.headers['x-request-id']).toMatch(/^req_/);
  return reply.json<Page>();
}

describe('collection envelope', () => {
  it('answers page 2 with limit 10 in the documented envelope', async () => {
    const second = await page('/api/properties?page=2&limit=10');
    expect(Object.keys(second).sort()).toEqual(['items', 'pagination']);
    expect(second.pagination).toEqual({ page: 2, limit: 10, total: 60, pages: 6 });
    expect(second.items).toHaveLength(10);
    const all = await page('/api/properties?limit=100');
    expect(second.items.map((p) => p.id)).toEqual(all.items.slice(10, 20).map((p) => p.id));
  });

  it('starts at page 1 with 25 records by default', async () => {
    const first = await page('/api/properties');
    expect(first.pagination).toEqual({ page: 1, limit: 25, total: 60, pages: 3 });
    expect(first.items).toHaveLength(25);
  });

  it('clamps a limit above 100 to 100 and says so', async () => {
    const clamped = await page('/api/clients?limit=5000');
    expect(clamped.pagination).toEqual({ page: 1, limit: 100, total: 60, pages: 1 });
    expect(clamped.items).toHaveLength(60);
  });

  it('answers an empty page past the end', async () => {
    const past = await page('/api/properties?page=99&limit=10');
    expect(past).toEqual({ items: [], pagination: { page: 99, limit: 10, total: 60, pages: 6 } });
  });

  it('pages through every family without duplicates and with the total it reports', async () => {
    for (const family of ['properties', 'assignments', 'clients', 'files', 'keys', 'reference/designations']) {
      const ids: string[] = [];
      let total = -1;
      for (let n = 1; n <= 20; n++) {
        const p = await page(`/api/${family}?page=${n}&limit=7`);
        total = p.pagination.total;
        ids.push(...p.items.map((item) => item.id));
        if (n >= p.pagination.pages) break;
      }
      expect(new Set(ids).size, family).toBe(ids.length);
      expect(ids.length, family).toBe(total);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['limit=0', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=ten', 'limit'],
    ['updatedSince=yesterday', 'updatedSince'],
    ['propertyType=castle', 'propertyType'],
  ])('rejects %s with 422 and the error body', async (query, name) => {
    const reply = await call(mock.server, 'GET', `/api/properties?${query}`);
    expect(reply.status).toBe(422);
    const body = reply.json();
    expect(body.error).toMatchObject({ code: 'INVALID_PARAMETER', requestId: reply.headers['x-request-id'] });
    expect(body.error.message).toContain(name);
  });
});

describe('filters', () => {
  it('filters properties by q (name or address, case-insensitive) and propertyType', async () => {
    const all = (await page('/api/properties?limit=100')).items;
    const sample = all[7]!;
    const city = (sample.address as { city: string }).city;
    const byCity = await page(`/api/properties?limit=100&q=${encodeURIComponent(city.toUpperCase())}`);
    expect(byCity.items.length).toBeGreaterThan(0);
    expect(byCity.items.map((p) => p.id)).toContain(sample.id);
    expect(byCity.pagination.total).toBe(
      all.filter((p) => JSON.stringify(p.address).includes(city) || String(p.name).includes(city)).length,
    );

    const type = sample.propertyType as string;
    const byType = await page(`/api/properties?limit=100&propertyType=${type}`);
    expect(byType.items.every((p) => p.propertyType === type)).toBe(true);
    expect(byType.pagination.total).toBe(all.filter((p) => p.propertyType === type).length);
  });

  it('filters by updatedSince (updatedAt >= value) on every family that supports it', async () => {
    for (const family of ['properties', 'assignments', 'clients', 'files']) {
      const all = (await page(`/api/${family}?limit=100`)).items;
      const sorted = all.map((r) => r.updatedAt).sort();
      const since = sorted[Math.floor(sorted.length / 2)]!;
      const filtered = await page(`/api/${family}?limit=100&updatedSince=${encodeURIComponent(since)}`);
      expect(filtered.pagination.total, family).toBe(sorted.filter((t) => t >= since).length);
      expect(filtered.items.every((r) => r.updatedAt >= since)).toBe(true);
    }
  });

  it('filters assignments by status, clientId and propertyId', async () => {
    const all = (await page('/api/assignments?limit=100')).items;
    const sample = all[3]!;
    const byStatus = await page(`/api/assignments?limit=100&status=${sample.status as string}`);
    expect(byStatus.pagination.total).toBe(all.filter((a) => a.status === sample.status).length);
    const byClient = await page(`/api/assignments?limit=100&clientId=${sample.clientId as string}`);
    expect(byClient.items.map((a) => a.id)).toContain(sample.id);
    expect(byClient.items.every((a) => a.clientId === sample.clientId)).toBe(true);
    const propertyId = (sample.propertyIds as string[])[0]!;
    const byProperty = await page(`/api/assignments?limit=100&propertyId=${propertyId}`);
    expect(byProperty.items.every((a) => (a.propertyIds as string[]).includes(propertyId))).toBe(true);
    expect(byProperty.items.map((a) => a.id)).toContain(sample.id);
  });

  it("lists a client's contacts, and filters files by what they are attached to", async () => {
    const contacts = (await page('/api/clients?limit=100')).items;
    let found = 0;
    for (const client of contacts.slice(0, 15)) {
      const own = await page(`/api/clients/${client.id}/contacts?limit=100`);
      for (const contact of own.items) expect(contact.clientId).toBe(client.id);
      found += own.items.length;
    }
    expect(found).toBeGreaterThan(0);
    const files = (await page('/api/files?limit=100')).items;
    const attached = files.find((f) => (f.attachments as unknown[]).length > 0)!;
    const target = (attached.attachments as Array<{ targetType: string; targetId: string }>)[0]!;
    const filtered = await page(`/api/files?limit=100&${target.targetType}Id=${target.targetId}`);
    expect(filtered.items.map((f) => f.id)).toContain(attached.id);
  });
});

describe('the {success, data} envelope and reference data', () => {
  it('answers the enums in {success, data}', async () => {
    const reply = await call(mock.server, 'GET', '/api/reference/enums');
    expect(reply.status).toBe(200);
    const body = reply.json();
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(['assignmentStatuses', 'clientTypes', 'propertyTypes', 'reportTypes']);
    expect(body.data.assignmentStatuses).toContain('completed');
  });

  it('lists designations as a collection with MAI and SRA', async () => {
    const designations = await page('/api/reference/designations?limit=100');
    expect(designations.items.map((d) => d.code)).toEqual(expect.arrayContaining(['MAI', 'SRA', 'SRPA', 'AI-GRS', 'AI-RRS']));
  });
});
