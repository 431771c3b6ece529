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

  it('packs only lower-case UUIDs: a string of their length that is none stays itself', () => {
    const ids = new IdSet();
    const uuid = '0123abcd-4567-89ef-8000-00000000000f';
    expect(ids.add(uuid)).toBe(true);
    const nearly = [
      '0123abcd_4567-89ef-8000-00000000000f', // a dash replaced
      '0123abcd-4567-89ef-8000-00000000000g', // a digit out of hex
      '0123abcd-4567-89ef-8000-00000000000\u00e9', // a character beyond ASCII
      '0123abcd4-567-89ef-8000-00000000000f', // a dash moved
      '0123ABCD-4567-89ef-8000-00000000000f', // upper case
    ];
    for (const id of nearly) expect(ids.add(id)).toBe(true);
    for (const id of [uuid, ...nearly]) expect(ids.add(id)).toBe(false);
    expect(ids.size).toBe(6);
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

describe('IdSet against crafted ids (issue 26 §12)', () => {
  /** x such that x * k = 1 (mod 2^32), for an odd k. */
  const inverse = (k: number): number => {
    const modulus = 1n << 32n;
    let [r0, r1, t0, t1] = [modulus, BigInt(k >>> 0), 0n, 1n];
    while (r1 !== 0n) {
      const q = r0 / r1;
      [r0, r1] = [r1, r0 - q * r1];
      [t0, t1] = [t1, t0 - q * t1];
    }
    return Number(((t0 % modulus) + modulus) % modulus);
  };
  /** The inverse of y = x ^ (x >>> 15) on 32 bits. */
  const unshift = (y: number): number => (y ^ (y >>> 15) ^ (y >>> 30)) >>> 0;

  /** Ids whose hash, with an all-zero seed, is 0, 1, 2, …: every one lands in the first slots. */
  function craftedIds(count: number): string[] {
    const ids: string[] = [];
    for (let target = 0; target < count; target++) {
      const mixed = unshift(Math.imul(target, inverse(0x27d4eb2f)) >>> 0);
      const a = Math.imul(mixed, inverse(0x85ebca6b)) >>> 0;
      ids.push(`${a.toString(16).padStart(8, '0')}-0000-0000-0000-000000000000`);
    }
    return ids;
  }

  it('crafted ids pile up under a known seed, and spread under the random one', () => {
    const ids = craftedIds(3000);
    const known = new IdSet(new Uint32Array(4));
    for (const id of ids) expect(known.add(id)).toBe(true);
    // The ids really are aimed: with the seed known, each add walks the ones before it.
    expect(known.probes).toBeGreaterThan(100 * ids.length);
    const seeded = new IdSet();
    for (const id of ids) expect(seeded.add(id)).toBe(true);
    expect(seeded.probes).toBeLessThan(5 * ids.length);
    expect(seeded.add(ids[1234]!)).toBe(false);
    expect(seeded.size).toBe(ids.length);
  });

  it('has: what was added, packed or not, through growth; nothing else', () => {
    const set = new IdSet();
    const ids = Array.from({ length: 5000 }, () => globalThis.crypto.randomUUID());
    for (const id of ids) set.add(id);
    set.add('not-a-uuid');
    expect(ids.every((id) => set.has(id))).toBe(true);
    expect(set.has('not-a-uuid')).toBe(true);
    expect(set.has(globalThis.crypto.randomUUID())).toBe(false);
    expect(set.has('another')).toBe(false);
    expect(set.size).toBe(5001);
  });
});
