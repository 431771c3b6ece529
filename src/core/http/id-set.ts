// The ids an export has seen, to drop duplicates across pages. A Set of 200,000 id strings holds
// ~20 MB of small heap objects for the whole export and makes V8 grow the heap with it; ids are
// almost always lower-case UUIDs, which pack into 16 bytes each in an open-addressing table kept in
// one typed array. Anything else (other formats, upper case) goes to an ordinary Set, so two ids
// are "the same" exactly when their strings are equal.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WORDS = 4;

export class IdSet {
  private slots = new Uint32Array(1024 * WORDS);
  private used = new Uint8Array(1024);
  private packedCount = 0;
  private readonly others = new Set<string>();

  get size(): number {
    return this.packedCount + this.others.size;
  }

  /**
   * Make room for `count` ids at once (an export knows its total from the first page), instead of
   * doubling the table (and copying it) on the way. Capped: a total the service claims is no reason
   * to take memory before the ids arrive.
   */
  reserve(count: number): void {
    const wanted = Math.min(Math.max(0, Math.floor(count)), IdSet.MAX_RESERVED) * 2;
    while (this.used.length < wanted) this.grow();
  }

  static readonly MAX_RESERVED = 500_000;

  /** Adds the id; false when it was already there. */
  add(id: string): boolean {
    if (!UUID.test(id)) {
      if (this.others.has(id)) return false;
      this.others.add(id);
      return true;
    }
    const a = parseInt(id.slice(0, 8), 16) >>> 0;
    const b = parseInt(id.slice(9, 13) + id.slice(14, 18), 16) >>> 0;
    const c = parseInt(id.slice(19, 23) + id.slice(24, 28), 16) >>> 0;
    const d = parseInt(id.slice(28, 36), 16) >>> 0;
    if (!this.insert(a, b, c, d)) return false;
    this.packedCount++;
    // Keep the table at most half full so probe runs stay short.
    if (this.packedCount * 2 > this.used.length) this.grow();
    return true;
  }

  private insert(a: number, b: number, c: number, d: number): boolean {
    const mask = this.used.length - 1;
    let slot = Math.imul(a ^ Math.imul(b, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b) ^ Math.imul(d, 0xc2b2ae35), 0x27d4eb2f) >>> 0;
    for (slot &= mask; this.used[slot] === 1; slot = (slot + 1) & mask) {
      const at = slot * WORDS;
      if (this.slots[at] === a && this.slots[at + 1] === b && this.slots[at + 2] === c && this.slots[at + 3] === d) return false;
    }
    const at = slot * WORDS;
    this.slots[at] = a;
    this.slots[at + 1] = b;
    this.slots[at + 2] = c;
    this.slots[at + 3] = d;
    this.used[slot] = 1;
    return true;
  }

  private grow(): void {
    const { slots, used } = this;
    this.slots = new Uint32Array(slots.length * 2);
    this.used = new Uint8Array(used.length * 2);
    for (let slot = 0; slot < used.length; slot++) {
      if (used[slot] !== 1) continue;
      const at = slot * WORDS;
      this.insert(slots[at]!, slots[at + 1]!, slots[at + 2]!, slots[at + 3]!);
    }
  }
}
