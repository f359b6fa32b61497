import { grownTo, type OrdinalStream } from './posting-lists';

/**
 * Ordinals by a text of theirs (a record's id, its lower-cased name) in typed arrays, where a Map
 * held one entry per ordinal: at a million records a Map and its lists held some 250 MB of heap and
 * took seconds to rebuild at every restart (issue 26). A table of chains, each the ordinals whose
 * text hashes to its slot, highest ordinal first; the texts are not kept here but read back from the
 * memory (`textOf`) to tell apart texts of the same hash. Built again from the texts at a restart
 * (a hash of each, no allocation per ordinal), so a snapshot does not hold it.
 */
export class OrdinalsByText {
  /** Slot → highest ordinal of its chain + 1 (0: empty). */
  private heads = new Int32Array(1024);
  /** Ordinal → next lower ordinal of its chain + 1 (0: end). */
  private next = new Int32Array(1024);
  private entries = 0;
  /** Ordinals below this were offered to add() (with or without a text). */
  private upTo = 0;

  /** `textOf(ordinal)`: the ordinal's text, or null when it has none here (e.g. no alternate name). */
  constructor(private readonly textOf: (ordinal: number) => string | null) {}

  /** How many ordinals have a text here. */
  get size(): number {
    return this.entries;
  }

  /** Enters the ordinal under its text (if it has one); ordinals come in ascending order. */
  add(ordinal: number): void {
    this.upTo = ordinal + 1;
    const text = this.textOf(ordinal);
    if (text === null) return;
    if (ordinal >= this.next.length) this.next = grownTo(this.next, Math.max(ordinal + 1, this.next.length * 2));
    // Half full at most: chains stay a step or two long.
    if (++this.entries * 2 > this.heads.length) this.rehash(this.heads.length * 2);
    else this.link(ordinal, text);
  }

  /** Every ordinal below `ordinals` at once (a memory restored from a snapshot). */
  addAll(ordinals: number): void {
    this.upTo = ordinals;
    this.entries = 0;
    for (let ordinal = 0; ordinal < ordinals; ordinal++) if (this.textOf(ordinal) !== null) this.entries++;
    // None (no alternate names): no chain links to hold; add() makes room when one comes.
    this.next = new Int32Array(this.entries === 0 ? 1024 : Math.max(1024, ordinals));
    let size = 1024;
    while (size < this.entries * 2) size *= 2;
    this.rehash(size);
  }

  /** The highest ordinal with exactly this text, or -1. */
  highest(text: string): number {
    for (let entry = this.heads[hashOf(text) & (this.heads.length - 1)]; entry !== 0; entry = this.next[entry - 1])
      if (this.textOf(entry - 1) === text) return entry - 1;
    return -1;
  }

  /** The ordinals with exactly this text, highest first. */
  stream(text: string): OrdinalStream {
    let entry = this.heads[hashOf(text) & (this.heads.length - 1)];
    return {
      next: () => {
        while (entry !== 0) {
          const ordinal = entry - 1;
          entry = this.next[ordinal];
          if (this.textOf(ordinal) === text) return ordinal;
        }
        return -1;
      },
    };
  }

  private link(ordinal: number, text: string) {
    const slot = hashOf(text) & (this.heads.length - 1);
    this.next[ordinal] = this.heads[slot];
    this.heads[slot] = ordinal + 1;
  }

  /** A table of `size` slots holding every ordinal entered, chains highest first. */
  private rehash(size: number) {
    this.heads = new Int32Array(size);
    for (let ordinal = 0; ordinal < this.upTo; ordinal++) {
      const text = this.textOf(ordinal);
      if (text !== null) this.link(ordinal, text);
    }
  }
}

/** FNV-1a over UTF-16 units: cheap, and spreads ids that differ in their last digits. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
