// The seeded records of one family, produced on demand: record `i` is a pure function of (seed,
// family, i). Nothing is generated at start-up, so `--records 200000` starts at once and costs no
// memory; the store materialises a record only when it is changed.
//
// Seeded ids are UUID-shaped and reversible: the last 8 hex digits are an invertible scramble of the
// index, so an id maps back to its index in O(1) (and is checked by regenerating it).
import { hex8, isoTimestamp } from './fast-format.js';
import { familyCode, hash32, Prng } from './prng.js';
import type { StoredRecord } from '../state/records.js';

/** Seeded records are created between these instants (fixed, so a seed always gives the same data). */
export const SEED_PERIOD_START = Date.UTC(2024, 0, 2, 8, 0, 0);
export const SEED_PERIOD_END = Date.UTC(2025, 11, 19, 18, 0, 0);

const SCRAMBLE = 0x9e3779b1;
const UNSCRAMBLE = (() => {
  // Modular inverse of SCRAMBLE mod 2^32 (Newton's iteration doubles the correct bits each round).
  let inverse = SCRAMBLE;
  for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(SCRAMBLE, inverse));
  return inverse >>> 0;
})();

export interface Stamps {
  createdMs: number;
  createdAt: string;
  updatedAt: string;
}

export abstract class SeededFamily<T extends StoredRecord> {
  private readonly code: number;
  private readonly mask: number;
  private readonly step: number;

  constructor(
    family: string,
    readonly seed: number,
    readonly count: number,
  ) {
    this.code = familyCode(family);
    this.mask = hash32(seed, this.code, 0x5eed);
    this.step = Math.max(1, Math.floor((SEED_PERIOD_END - SEED_PERIOD_START) / Math.max(1, count)));
  }

  /** A fresh copy of the index-th seeded record. */
  abstract recordAt(index: number): T;

  idAt(index: number): string {
    const a = hash32(this.seed, this.code, index, 1);
    const b = hash32(this.seed, this.code, index, 2);
    const c = hash32(this.seed, this.code, index, 3);
    const tail = (Math.imul(index, SCRAMBLE) ^ this.mask) >>> 0;
    // 8-4-4-4-12 hex digits: version 4, variant 10xx, the scrambled index last.
    const hb = hex8(b);
    const hc = hex8(c);
    const variant = '89ab'[b & 3]!;
    return `${hex8(a)}-${hb.slice(0, 4)}-4${hc.slice(0, 3)}-${variant}${hc.slice(3, 6)}-${hb.slice(4, 8)}${hex8(tail)}`;
  }

  /** The index of a seeded id, or undefined when the id is not one of this family's seeded ids. */
  indexOf(id: string): number | undefined {
    if (id.length !== 36) return undefined;
    const tail = Number.parseInt(id.slice(28), 16);
    if (!Number.isInteger(tail)) return undefined;
    const index = Math.imul((tail ^ this.mask) >>> 0, UNSCRAMBLE) >>> 0;
    if (index >= this.count || this.idAt(index) !== id) return undefined;
    return index;
  }

  /** The generator for one record; its first three draws are the record's timestamps. */
  protected rngAt(index: number): Prng {
    return new Prng(hash32(this.seed, this.code, index, 7));
  }

  private timestamps(rng: Prng, index: number): { createdMs: number; updatedMs: number } {
    const createdMs = SEED_PERIOD_START + index * this.step + Math.floor(rng.next() * this.step);
    const unchanged = rng.chance(0.45);
    const offset = rng.next();
    return { createdMs, updatedMs: unchanged ? createdMs : createdMs + Math.floor(offset * (SEED_PERIOD_END - createdMs)) };
  }

  /** Draws the timestamps (always the first three draws of the record's generator). */
  protected stamps(rng: Prng, index: number): Stamps {
    const { createdMs, updatedMs } = this.timestamps(rng, index);
    const createdAt = isoTimestamp(createdMs);
    return { createdMs, createdAt, updatedAt: updatedMs === createdMs ? createdAt : isoTimestamp(updatedMs) };
  }

  /** updatedAt of a seeded record in milliseconds, without generating the record. */
  updatedMsAt(index: number): number {
    return this.timestamps(this.rngAt(index), index).updatedMs;
  }
}

export function isoDate(ms: number): string {
  return isoTimestamp(ms).slice(0, 10);
}
