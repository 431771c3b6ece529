import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { IdSet } from '../../../../src/core/http/id-set.js';

describe('IdSet', () => {
  it('reports a repeated id, packed UUIDs and other ids alike', () => {
    const ids = new IdSet();
    const uuid = randomUUID();
    expect(ids.add(uuid)).toBe(true);
    expect(ids.add(uuid)).toBe(false);
    expect(ids.add('id-00001')).toBe(true);
    expect(ids.add('id-00001')).toBe(false);
    // Upper case is another string, so another id: kept apart from its lower-case twin.
    expect(ids.add(uuid.toUpperCase())).toBe(true);
    expect(ids.size).toBe(3);
  });

  it('keeps UUIDs that differ in any one hex digit apart', () => {
    const ids = new IdSet();
    const base = '00000000-0000-4000-8000-000000000000';
    expect(ids.add(base)).toBe(true);
    for (let i = 0; i < base.length; i++) {
      if (base[i] === '-') continue;
      const other = `${base.slice(0, i)}f${base.slice(i + 1)}`;
      expect(ids.add(other)).toBe(true);
    }
    expect(ids.size).toBe(33);
  });

  it('behaves exactly like a Set<string> across growth (property)', () => {
    const id = fc.oneof(fc.uuid(), fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(fc.array(id, { maxLength: 3000 }), (list) => {
        const ids = new IdSet();
        const reference = new Set<string>();
        // Collected, then asserted once per case (an expect per id made this the slowest test).
        const answers = list.map((value) => ids.add(value));
        const expected = list.map((value) => !reference.has(value) && reference.add(value) !== undefined);
        expect(answers).toEqual(expected);
        expect(ids.size).toBe(reference.size);
      }),
      { numRuns: 40 },
    );
  });

  it('holds 200,000 UUIDs', () => {
    const ids = new IdSet();
    const all = Array.from({ length: 200_000 }, () => randomUUID());
    // One assertion each, over all of them (not 200,000 expect calls): the ids that were refused.
    expect(all.filter((value) => !ids.add(value))).toEqual([]);
    const again: string[] = [];
    for (let i = 0; i < all.length; i += 997) again.push(all[i]!);
    expect(again.filter((value) => ids.add(value))).toEqual([]);
    expect(ids.size).toBe(200_000);
  });

  it('reserve() makes room once, keeps the ids already there, and is capped', () => {
    const ids = new IdSet();
    const before = randomUUID();
    ids.add(before);
    ids.reserve(50_000);
    const table = (ids as unknown as { length: number }).length;
    expect(table).toBeGreaterThanOrEqual(50_000 / IdSet.MAX_LOAD);
    const all = Array.from({ length: 50_000 }, () => randomUUID());
    expect(all.filter((value) => !ids.add(value))).toEqual([]);
    expect(ids.add(before)).toBe(false);
    // No growth on the way: the table reserved was enough.
    expect((ids as unknown as { length: number }).length).toBe(table);
    const huge = new IdSet();
    huge.reserve(1e12);
    expect((huge as unknown as { length: number }).length).toBeLessThanOrEqual(Math.ceil((IdSet.MAX_RESERVED + 1) / IdSet.MAX_LOAD));
  });
});
