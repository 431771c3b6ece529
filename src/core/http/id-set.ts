// The ids an export has seen, to drop duplicates across pages. A Set of 200,000 id strings holds
// ~20 MB of small heap objects for the whole export and makes V8 grow the heap with it; ids are
// almost always lower-case UUIDs, which pack into 16 bytes each in an open-addressing table kept in
// one typed array, at most 75% full, with one bit per slot saying it is taken (a 200,000-record
// export: 266,668 slots, 4.1 MiB of the peak RSS, instead of the 8.5 MiB of a power-of-two table at
// most half full with a byte per slot). Anything else (other formats, upper case) goes to an ordinary
// Set, so two ids are "the same" exactly when their strings are equal.
// The hash is seeded at random per set (issue 26 §12): with fixed constants, a service could send ids
// crafted to land in one run of slots and make every add walk it (quadratic: 11.5 s of CPU instead of
// 1.35 s at 60,000 records). Without the seed no one can aim ids at a slot.

const WORDS = 4;

/** The value of each lower-case hex digit by character code, -1 for every other ASCII character. */
const HEX_VALUE = Int8Array.from({ length: 128 }, (_, code) =>
  code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1,
);
/** Where a UUID's dashes stand: 8-4-4-4-12 digits. */
const isDash = (at: number): boolean => at === 8 || at === 13 || at === 18 || at === 23;

export class IdSet {
  /** How full the table may get: linear probing stays short (~2.5 probes per add) below this. */
  static readonly MAX_LOAD = 0.75;
  static readonly MAX_RESERVED = 500_000;

  private slots = new Uint32Array(1024 * WORDS);
  /** Slot count (the table's length). */
  private length = 1024;
  /** Bit `slot` set: the slot holds an id. */
  private used = new Uint32Array(1024 / 32);
  private packedCount = 0;
  private readonly others = new Set<string>();
  private readonly seed: Uint32Array;
  /** The id being added, as four words (reused: no allocation per id). */
  private readonly words = new Uint32Array(WORDS);
  /** Slots looked at by every add so far (for the test that crafted ids do not pile up). */
  probes = 0;

  /** `seed`: four words mixed into the hash; random unless a test fixes it. */
  constructor(seed: Uint32Array = globalThis.crypto.getRandomValues(new Uint32Array(4))) {
    this.seed = seed;
  }

  get size(): number {
    return this.packedCount + this.others.size;
  }

  /**
   * Make room for `count` ids at once (an export knows its total from the first page), instead of
   * growing the table (and copying it) on the way. Capped: a total the service claims is no reason
   * to take memory before the ids arrive.
   */
  reserve(count: number): void {
    const ids = Math.min(Math.max(0, Math.floor(count)), IdSet.MAX_RESERVED);
    const wanted = Math.ceil((ids + 1) / IdSet.MAX_LOAD);
    if (wanted > this.length) this.resize(wanted);
  }

  /** Adds the id; false when it was already there. */
  add(id: string): boolean {
    const words = this.words;
    if (!packUuid(id, words)) {
      if (this.others.has(id)) return false;
      this.others.add(id);
      return true;
    }
    if (!this.insert(words[0]!, words[1]!, words[2]!, words[3]!)) return false;
    this.packedCount++;
    if (this.packedCount > Math.floor(this.length * IdSet.MAX_LOAD)) this.resize(this.length * 2);
    return true;
  }

  /** Whether the id is there (a resumed export checks that a page it read before still holds its records). */
  has(id: string): boolean {
    const words = this.words;
    if (!packUuid(id, words)) return this.others.has(id);
    return this.find(words[0]!, words[1]!, words[2]!, words[3]!) >= 0;
  }

  /**
   * The id's slot when it is there, else `-1 - slot` of the free slot where it would go (a number,
   * not an object: add runs once per record of an export, and allocates nothing).
   */
  private find(a: number, b: number, c: number, d: number): number {
    const { length, used } = this;
    const [s0, s1, s2, s3] = this.seed as unknown as [number, number, number, number];
    const mixed =
      Math.imul((a ^ s0) + Math.imul(b ^ s1, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(c ^ s2, 0xc2b2ae35) ^ Math.imul(d ^ s3, 0x165667b1);
    const hash = Math.imul(mixed ^ (mixed >>> 15), 0x27d4eb2f) >>> 0;
    // The hash scaled to the table (any length, not only powers of two): exact below 2^53.
    let slot = Math.floor((hash * length) / 0x1_0000_0000);
    for (; (used[slot >>> 5]! >>> (slot & 31)) & 1; slot = slot + 1 === length ? 0 : slot + 1) {
      this.probes++;
      const at = slot * WORDS;
      if (this.slots[at] === a && this.slots[at + 1] === b && this.slots[at + 2] === c && this.slots[at + 3] === d) return slot;
    }
    return -1 - slot;
  }

  private insert(a: number, b: number, c: number, d: number): boolean {
    const found = this.find(a, b, c, d);
    if (found >= 0) return false;
    const slot = -1 - found;
    const { used } = this;
    const at = slot * WORDS;
    this.slots[at] = a;
    this.slots[at + 1] = b;
    this.slots[at + 2] = c;
    this.slots[at + 3] = d;
    used[slot >>> 5]! |= 1 << (slot & 31);
    return true;
  }

  private resize(length: number): void {
    const { slots, used, length: before } = this;
    this.slots = new Uint32Array(length * WORDS);
    this.used = new Uint32Array(Math.ceil(length / 32));
    this.length = length;
    for (let slot = 0; slot < before; slot++) {
      if (!((used[slot >>> 5]! >>> (slot & 31)) & 1)) continue;
      const at = slot * WORDS;
      this.insert(slots[at]!, slots[at + 1]!, slots[at + 2]!, slots[at + 3]!);
    }
  }
}

/**
 * A lower-case UUID (8-4-4-4-12 hex digits) as four 32-bit words in `into`, read in one pass over its
 * characters; false for any other string. (A regular expression, then parseInt of sliced and joined
 * parts, took ~2 µs per id: a long export's most expensive step after encoding.)
 */
function packUuid(id: string, into: Uint32Array): boolean {
  if (id.length !== 36) return false;
  let word = 0;
  let digits = 0;
  for (let at = 0; at < 36; at++) {
    const code = id.charCodeAt(at);
    if (isDash(at)) {
      if (code !== 45) return false;
      continue;
    }
    const value = code < 128 ? HEX_VALUE[code]! : -1;
    if (value < 0) return false;
    word = ((word << 4) | value) >>> 0;
    if (++digits % 8 === 0) {
      into[digits / 8 - 1] = word;
      word = 0;
    }
  }
  return true;
}
