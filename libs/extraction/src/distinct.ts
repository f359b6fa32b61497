// Distinct-value counting in bounded memory: an exact set of 53-bit hashes while it is small, then a
// HyperLogLog estimate (4096 registers, about 1.6 % standard error) once the set reaches its cap.

/** cyrb53's starting states. */
export const HASH53_SEED_1 = 0xdeadbeef;
export const HASH53_SEED_2 = 0x41c6ce57;

/** cyrb53's final mix of its two running 32-bit states (hash53, and hashes of words computed as they are scanned). */
export function finishHash53(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** cyrb53: a fast 53-bit string hash (public domain, bryc); collisions are negligible at our set sizes. */
export function hash53(text: string, seed = 0): number {
  let h1 = HASH53_SEED_1 ^ seed;
  let h2 = HASH53_SEED_2 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  return finishHash53(h1, h2);
}

/** hash53 of the text of bytes[start, end) when they are all ASCII (a byte is then its character's code). */
export function hash53Ascii(bytes: Uint8Array, start: number, end: number): number {
  let h1 = HASH53_SEED_1;
  let h2 = HASH53_SEED_2;
  for (let i = start; i < end; i++) {
    const ch = bytes[i];
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  return finishHash53(h1, h2);
}

/** hash53 of the lower-cased text of bytes[start, end) when they are all ASCII. */
export function hash53AsciiLower(bytes: Uint8Array, start: number, end: number): number {
  let h1 = HASH53_SEED_1;
  let h2 = HASH53_SEED_2;
  for (let i = start; i < end; i++) {
    let ch = bytes[i];
    if (ch >= 65 && ch <= 90) ch |= 0x20;
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  return finishHash53(h1, h2);
}

const float = new Float64Array(1);
const words32 = new Uint32Array(float.buffer);

/** murmur3's 32-bit finaliser: every bit of x mixed into every bit of the result. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A 53-bit hash of a number's bits (murmur3 finaliser), cheaper than hashing its text. */
export function hashNumber(x: number): number {
  float[0] = x === 0 ? 0 : x; // -0 and 0 are one value
  const h1 = mix32(words32[0] ^ 0x9e3779b9);
  const h2 = mix32(words32[1] ^ h1);
  return 4294967296 * (2097151 & h2) + (mix32(h1 ^ h2) >>> 0);
}

const P = 12;
const M = 1 << P;
const ALPHA = 0.7213 / (1 + 1.079 / M);

/** Open-addressing set of 53-bit hashes in a Float64Array: no allocation per value, 8 bytes a slot. */
class HashSet {
  size = 0;
  private keys = new Float64Array(1024);
  private mask = 1023;

  /** True when the hash was not there yet. */
  add(hash: number): boolean {
    const h = hash === 0 ? 1 : hash; // 0 marks an empty slot
    const keys = this.keys;
    let i = h & this.mask; // the low 32 bits (ToInt32), well mixed
    while (keys[i] !== 0) {
      if (keys[i] === h) return false;
      i = (i + 1) & this.mask;
    }
    keys[i] = h;
    if (++this.size * 2 > keys.length) this.grow();
    return true;
  }

  /** The slots' array: a hash wherever it is not 0. */
  get slots(): Float64Array {
    return this.keys;
  }

  private grow(): void {
    const old = this.keys;
    const keys = new Float64Array(old.length * 2);
    const mask = keys.length - 1;
    for (let j = 0; j < old.length; j++) {
      const h = old[j];
      if (h === 0) continue;
      let i = h & mask;
      while (keys[i] !== 0) i = (i + 1) & mask;
      keys[i] = h;
    }
    this.keys = keys;
    this.mask = mask;
  }
}

/** A DistinctCounter as plain data (for another thread): its exact hashes, or its registers. */
export interface DistinctState {
  seen: number;
  hashes: Float64Array | null;
  registers: Uint8Array | null;
}

export class DistinctCounter {
  private exact: HashSet | null = new HashSet();
  private registers: Uint8Array | null = null;
  private seen = 0;

  constructor(private readonly cap: number) {}

  state(): DistinctState {
    if (!this.exact) return { seen: this.seen, hashes: null, registers: this.registers };
    return { seen: this.seen, hashes: this.exact.slots.filter((h) => h !== 0), registers: null };
  }

  /**
   * Takes in the values another counter saw. The result does not depend on the order: the union of
   * two exact sets, or registers holding the largest rank any value gave them.
   */
  mergeFrom(other: DistinctState): void {
    this.seen += other.seen;
    if (other.hashes) for (const h of other.hashes) this.include(h);
    if (other.registers) {
      if (this.exact) this.switchToEstimate();
      const registers = this.registers as Uint8Array;
      for (let i = 0; i < M; i++) if (other.registers[i] > registers[i]) registers[i] = other.registers[i];
    }
  }

  /** Adds a value (numbers count by value, so 1 and 1.0 are one); true when certainly seen before. */
  add(value: string | number): boolean {
    return this.addHash(typeof value === 'number' ? hashNumber(value) : hash53(value));
  }

  /** Adds a value by its hash53/hashNumber. */
  addHash(h: number): boolean {
    this.seen++;
    return this.include(h);
  }

  private include(h: number): boolean {
    if (this.exact) {
      if (!this.exact.add(h)) return true;
      if (this.exact.size > this.cap) this.switchToEstimate();
      return false;
    }
    this.addToRegisters(h);
    return false;
  }

  get isExact(): boolean {
    return this.exact !== null;
  }

  count(): number {
    if (this.exact) return this.exact.size;
    return Math.min(this.seen, Math.round(this.estimate()));
  }

  private switchToEstimate(): void {
    this.registers = new Uint8Array(M);
    const slots = (this.exact as HashSet).slots;
    for (let i = 0; i < slots.length; i++) if (slots[i] !== 0) this.addToRegisters(slots[i]);
    this.exact = null;
  }

  private addToRegisters(h: number): void {
    const low = h >>> 0; // the 32 low bits (ToUint32), well mixed
    const index = low >>> (32 - P);
    const rest = (low << P) >>> 0;
    const rank = rest === 0 ? 32 - P + 1 : Math.clz32(rest) + 1;
    const registers = this.registers as Uint8Array;
    if (rank > registers[index]) registers[index] = rank;
  }

  private estimate(): number {
    const registers = this.registers as Uint8Array;
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < M; i++) {
      sum += 2 ** -registers[i];
      if (registers[i] === 0) zeros++;
    }
    const raw = (ALPHA * M * M) / sum;
    if (raw <= 2.5 * M && zeros > 0) return M * Math.log(M / zeros);
    const two32 = 4294967296;
    if (raw > two32 / 30) return -two32 * Math.log(1 - raw / two32);
    return raw;
  }
}
