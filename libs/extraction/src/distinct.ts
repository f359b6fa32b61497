// Distinct-value counting in bounded memory: an exact set of 53-bit hashes while it is small, then a
// HyperLogLog estimate (4096 registers, about 1.6 % standard error) once the set reaches its cap.

/** cyrb53: a fast 53-bit string hash (public domain, bryc); collisions are negligible at our set sizes. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const float = new Float64Array(1);
const words32 = new Uint32Array(float.buffer);

function mix32(x: number): number {
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
    let i = (h % 4294967296) & this.mask;
    while (keys[i] !== 0) {
      if (keys[i] === h) return false;
      i = (i + 1) & this.mask;
    }
    keys[i] = h;
    if (++this.size * 2 > keys.length) this.grow();
    return true;
  }

  *values(): Generator<number> {
    for (const key of this.keys) if (key !== 0) yield key;
  }

  private grow(): void {
    const old = this.keys;
    this.keys = new Float64Array(old.length * 2);
    this.mask = this.keys.length - 1;
    this.size = 0;
    for (const key of old) if (key !== 0) this.add(key);
  }
}

export class DistinctCounter {
  private exact: HashSet | null = new HashSet();
  private registers: Uint8Array | null = null;
  private seen = 0;

  constructor(private readonly cap: number) {}

  /** Adds a value (numbers count by value, so 1 and 1.0 are one); true when certainly seen before. */
  add(value: string | number): boolean {
    return this.addHash(typeof value === 'number' ? hashNumber(value) : hash53(value));
  }

  /** Adds a value by its hash53/hashNumber. */
  addHash(h: number): boolean {
    this.seen++;
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
    for (const h of this.exact?.values() ?? []) this.addToRegisters(h);
    this.exact = null;
  }

  private addToRegisters(h: number): void {
    const low = h % 4294967296; // the 32 low bits, well mixed
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
