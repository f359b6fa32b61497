/**
 * mulberry32: a small, fast, seeded generator, so samples (and benchmark data) are reproducible. A
 * class rather than a closure for hot loops (the column sketches draw once per number): its state
 * lives in fields V8 updates in place, where a closure's context slot, and a double returned from a
 * call V8 did not inline, each took a new number box per draw.
 */
export class SeededRandom {
  private state: number;
  /** The last draw's 32 bits. */
  private bits = 0;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The next number in [0, 1). */
  next(): number {
    this.advance();
    return this.bits / 4294967296;
  }

  /** Math.floor(next() * n): a small integer, returned without a box. */
  below(n: number): number {
    this.advance();
    return Math.floor((this.bits / 4294967296) * n);
  }

  private advance(): void {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    this.bits = (t ^ (t >>> 14)) >>> 0;
  }
}

/** The same generator as a function. */
export function seededRandom(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}
