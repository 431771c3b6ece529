// Deterministic pseudo-random numbers for seeded data: a 32-bit mixing hash and a small, fast
// generator (mulberry32). Each seeded record gets its own generator, seeded from (seed, family,
// index), so any record can be produced on demand without producing the ones before it.

/** Mix up to four 32-bit integers into one well-distributed 32-bit hash (murmur3 finaliser). */
export function hash32(a: number, b = 0, c = 0, d = 0): number {
  let h = mix((0x811c9dc5 ^ a) | 0);
  h = mix((h + Math.imul(b, 0x9e3779b1)) | 0);
  h = mix((h + Math.imul(c, 0x9e3779b1)) | 0);
  h = mix((h + Math.imul(d, 0x9e3779b1)) | 0);
  return h >>> 0;
}

function mix(value: number): number {
  let h = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A 32-bit code for a family name, to keep the families' streams apart. */
export function familyCode(family: string): number {
  let hash = 2166136261;
  for (let i = 0; i < family.length; i++) hash = Math.imul(hash ^ family.charCodeAt(i), 16777619);
  return hash >>> 0;
}

export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}
