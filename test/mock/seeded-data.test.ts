// Seeded data: deterministic per seed, realistic, reversible ids, and cheap at 200,000 records per
// family (records are generated on demand; listing a page is O(page)).
import { describe, expect, it } from 'vitest';
import { seedFamilies } from '../../src/mock/data/seed.js';
import { ASSIGNMENT_STATUSES, CLIENT_TYPES, PROPERTY_TYPES, REPORT_TYPES } from '../../src/mock/data/enums.js';
import { isoTimestamp } from '../../src/mock/data/fast-format.js';
import { Collection } from '../../src/mock/state/collection.js';

describe('seeded data', () => {
  it('is the same for the same seed and differs for another seed', () => {
    const a = seedFamilies({ records: 50, seed: 1 });
    const b = seedFamilies({ records: 50, seed: 1 });
    const c = seedFamilies({ records: 50, seed: 2 });
    for (const family of ['properties', 'clients', 'contacts', 'assignments', 'files'] as const) {
      const first = Array.from({ length: 50 }, (_, i) => a[family].recordAt(i));
      expect(Array.from({ length: 50 }, (_, i) => b[family].recordAt(i))).toEqual(first);
      expect(c[family].recordAt(0)).not.toEqual(first[0]);
    }
  });

  it('looks like appraisal data and keeps references consistent', () => {
    const data = seedFamilies({ records: 200, seed: 3 });
    const properties = new Collection(data.properties);
    const clients = new Collection(data.clients);
    for (let i = 0; i < 200; i++) {
      const property = data.properties.recordAt(i);
      expect(PROPERTY_TYPES).toContain(property.propertyType);
      expect(property.address).toMatchObject({
        line1: expect.stringMatching(/^\d+ \w+/),
        city: expect.any(String),
        postalCode: expect.stringMatching(/^\d{5}$/),
        country: 'US',
      });
      const assignment = data.assignments.recordAt(i);
      expect(assignment.number).toBe(`A-${assignment.createdAt.slice(0, 4)}-${String(i + 1).padStart(5, '0')}`);
      expect(ASSIGNMENT_STATUSES).toContain(assignment.status);
      expect(REPORT_TYPES).toContain(assignment.reportType);
      expect(assignment.fee.currency).toBe('USD');
      expect(assignment.dueDate > assignment.createdAt.slice(0, 10)).toBe(true);
      expect(clients.has(assignment.clientId)).toBe(true);
      for (const id of assignment.propertyIds) expect(properties.has(id)).toBe(true);
      const contact = data.contacts.recordAt(i);
      expect(clients.has(contact.clientId)).toBe(true);
      expect(data.clients.indexOf(contact.clientId)).toBe(data.contacts.clientIndexAt(i));
      expect(CLIENT_TYPES).toContain(data.clients.recordAt(i).clientType);
    }
  });

  it('orders records by createdAt, with updatedAt never before createdAt and before the live clock', () => {
    const data = seedFamilies({ records: 500, seed: 4 });
    let previous = '';
    for (let i = 0; i < 500; i++) {
      const record = data.properties.recordAt(i);
      expect(record.createdAt > previous).toBe(true);
      expect(record.updatedAt >= record.createdAt).toBe(true);
      expect(data.properties.updatedMsAt(i)).toBe(Date.parse(record.updatedAt));
      expect(Date.parse(record.updatedAt)).toBeLessThan(Date.now());
      previous = record.createdAt;
    }
  });

  it('maps every seeded id back to its index, and nothing else', () => {
    const data = seedFamilies({ records: 1000, seed: 5 });
    for (let i = 0; i < 1000; i++) expect(data.files.indexOf(data.files.idAt(i))).toBe(i);
    expect(data.files.indexOf(data.properties.idAt(3))).toBeUndefined();
    expect(data.files.indexOf('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(data.files.indexOf('not an id')).toBeUndefined();
    expect(new Set(Array.from({ length: 1000 }, (_, i) => data.files.idAt(i))).size).toBe(1000);
  });

  it('formats timestamps exactly like Date#toISOString', () => {
    for (const ms of [0, 1, 999, 86_399_999, 1_704_182_400_000, Date.UTC(2025, 11, 31, 23, 59, 59, 999), Date.now()]) {
      expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('starts 200,000 records per family at once and serves a page in O(page)', () => {
    const started = performance.now();
    const data = seedFamilies({ records: 200_000, seed: 6 });
    const properties = new Collection(data.properties);
    const setUp = performance.now() - started;
    expect(setUp).toBeLessThan(1000);
    const pageStarted = performance.now();
    for (let page = 0; page < 200; page++) JSON.stringify(properties.query([], page * 100, 100).items);
    expect((performance.now() - pageStarted) / 200).toBeLessThan(20);
    expect(properties.query([], 199_900, 100).items.at(-1)!.id).toBe(data.properties.idAt(199_999));
  });
});

describe('collection', () => {
  it('replaces in place, appends new records, deletes, and reports the record before a page', () => {
    const data = seedFamilies({ records: 10, seed: 7 });
    const collection = new Collection(data.properties);
    const third = collection.get(data.properties.idAt(2))!;
    collection.replace({ ...third, name: 'changed' });
    expect(collection.query([], 2, 1).items[0]!.name).toBe('changed');
    collection.insert({ ...third, id: 'new-record', name: 'new' });
    expect(collection.size).toBe(11);
    expect(collection.query([], 10, 5).items.map((r) => r.id)).toEqual(['new-record']);
    expect(collection.delete(data.properties.idAt(0))).toBe(true);
    expect(collection.get(data.properties.idAt(0))).toBeUndefined();
    expect(collection.delete(data.properties.idAt(0))).toBe(false);
    expect(collection.size).toBe(10);
    const page = collection.query([], 3, 3);
    expect(page.previous!.id).toBe(collection.query([], 2, 1).items[0]!.id);
    const filtered = collection.query([{ matches: (r) => r.name === 'changed' || r.name === 'new' }], 1, 5);
    expect(filtered.total).toBe(2);
    expect(filtered.items.map((r) => r.id)).toEqual(['new-record']);
    expect(filtered.previous!.name).toBe('changed');
  });
});
