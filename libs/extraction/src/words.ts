// Words for WORDSET and KEYWORDS: Unicode letters and digits (with inner apostrophes and hyphens),
// lower-cased; counted by a top-k counter that keeps memory bounded however much text flows through.
import { finishHash53, hash53, HASH53_SEED_1, HASH53_SEED_2 } from './distinct';

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const DIGITS = /^[\p{N}.,'’-]+$/u;

// English stop words: they carry no meaning for similarity or search.
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how ' +
    'i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own ' +
    'same she should so some such than that the their theirs them themselves then there these they this those through to too under until up ' +
    'us very was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    "it's i'm we're don't can't won't that's there's let's we've i've you're they're isn't aren't wasn't didn't doesn't"
  ).split(' '),
);

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  return LETTER_OR_DIGIT.test(text[i]);
}

/**
 * The words of a text: runs of Unicode letters and digits, joined across single inner apostrophes
 * and hyphens ("don't", "blue-collar"), lower-cased, with ’ read as '. A hand-written scanner: this
 * runs on every text cell of every file.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  const length = text.length;
  let start = -1;
  for (let i = 0; i <= length; i++) {
    if (i < length && isWordChar(text, i)) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    const c = i < length ? text.charCodeAt(i) : 0;
    if ((c === 39 || c === 0x2019 || c === 45) && i + 1 < length && isWordChar(text, i + 1)) continue;
    const word = text.slice(start, i).toLowerCase();
    out.push(word.includes('’') ? word.replace(/’/g, "'") : word);
    start = -1;
  }
  return out;
}

/**
 * A copy of a string that does not keep its parent alive: V8 makes substrings of 13 characters or
 * more as slices of the parent (here a whole chunk of the file), so a kept word or cell would pin
 * megabytes. Concatenating and slicing forces a fresh flat string.
 */
export function detach(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/** A word worth keeping in a WORDSET: not a stop word, not a bare number, not a single character. */
export function isMeaningful(word: string): boolean {
  return word.length > 1 && word.length <= 64 && !STOP_WORDS.has(word) && !isNumberLike(word);
}

function isNumberLike(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 128) return DIGITS.test(word);
    if (!((c >= 48 && c <= 57) || c === 45 || c === 39 || c === 44 || c === 46)) return false;
  }
  return true;
}

/**
 * Counts words and keeps the most frequent ones. When the map reaches twice its capacity it is pruned
 * to the `capacity` most frequent entries, so frequent words survive and memory stays bounded.
 */
export class TopWords {
  // Counts in boxes, so a word seen again costs one lookup and no set.
  private readonly counts = new Map<string, { n: number }>();

  constructor(private readonly capacity: number) {}

  add(word: string, times = 1): void {
    const box = this.counts.get(word);
    if (box !== undefined) {
      box.n += times;
      return;
    }
    this.insert(word, times);
  }

  /**
   * Counts the word once if it is meaningful; says whether it was. A word already counted was
   * meaningful when it came in, so only new words are checked.
   */
  addIfMeaningful(word: string): boolean {
    const box = this.counts.get(word);
    if (box !== undefined) {
      box.n++;
      return true;
    }
    if (!isMeaningful(word)) return false;
    this.insert(word, 1);
    return true;
  }

  private insert(word: string, times: number): void {
    this.counts.set(detach(word), { n: times });
    if (this.counts.size >= this.capacity * 2) this.prune();
  }

  addText(text: string): number {
    const found = words(text);
    for (const word of found) if (isMeaningful(word)) this.add(word);
    return found.length;
  }

  get size(): number {
    return this.counts.size;
  }

  entries(): Array<[string, number]> {
    return Array.from(this.counts, ([word, box]): [string, number] => [word, box.n]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  top(limit: number, filter: (word: string) => boolean = () => true): string[] {
    const out: string[] = [];
    for (const [word] of this.entries()) {
      if (out.length >= limit) break;
      if (filter(word)) out.push(word);
    }
    return out;
  }

  private prune(): void {
    const keep = this.entries().slice(0, this.capacity);
    this.counts.clear();
    for (const [word, count] of keep) this.counts.set(word, { n: count });
  }
}

/** Keywords: frequent words of at least 3 characters. */
export function keywordsOf(counter: TopWords, limit: number): string[] {
  return counter.top(limit, (word) => word.length >= 3);
}

/** For each byte: its lower-case form when it is an ASCII letter or digit (a word character of words()), else 0. */
const ASCII_WORD_BYTE = new Uint8Array(256);
for (let c = 48; c <= 57; c++) ASCII_WORD_BYTE[c] = c;
for (let c = 97; c <= 122; c++) ASCII_WORD_BYTE[c] = ASCII_WORD_BYTE[c - 32] = c;

/** Words found not meaningful, remembered by hash so they are not made into strings again; bounded. */
const MAX_REMEMBERED_MEANINGLESS = 4096;

/**
 * A column's word counts: what TopWords counts, with the same pruning (at twice the capacity, down
 * to the `capacity` most frequent), kept in a table keyed by each word's 53-bit hash. So a word seen
 * before is counted without being made into a string, which lets the CSV byte reader count the words
 * of ASCII cells straight from the file's bytes (addAsciiWords); strings are counted too (add).
 */
export class WordCounts {
  /** Open addressing: slot -> entry + 1 (0 = empty). */
  private slots: Int32Array;
  private mask: number;
  private hashes: Float64Array;
  private counts: Float64Array;
  private texts: string[] = [];
  private size = 0;
  private readonly meaningless = new Set<number>();

  constructor(private readonly capacity: number) {
    const entries = capacity * 2 + 1;
    this.hashes = new Float64Array(entries);
    this.counts = new Float64Array(entries);
    let tableSize = 16;
    while (tableSize < entries * 2) tableSize *= 2;
    this.slots = new Int32Array(tableSize);
    this.mask = tableSize - 1;
  }

  /** Counts the meaningful words of a text (words(), isMeaningful()). */
  addText(text: string): void {
    for (const word of words(text)) this.countWord(hash53(word), word, null, 0, 0);
  }

  /** The found words of a text, counted once each if meaningful; returns those counted (for a memo). */
  addWords(found: readonly string[]): string[] {
    const counted: string[] = [];
    for (const word of found) if (this.countWord(hash53(word), word, null, 0, 0)) counted.push(word);
    return counted;
  }

  /** Counts words known to be meaningful (a memo of addWords' answer). */
  addCounted(counted: readonly string[]): void {
    for (const word of counted) this.countWord(hash53(word), word, null, 0, 0);
  }

  /** Adds another count's entries (a block of rows counted elsewhere), pruning as counting does. */
  addEntries(entries: ReadonlyArray<readonly [string, number]>): void {
    for (const [word, times] of entries) this.countWord(hash53(word), word, null, 0, 0, times);
  }

  /**
   * The words of bytes[start, end), which are all ASCII, as words() finds them in the same text:
   * runs of letters and digits joined across a single inner ' or -, lower-cased.
   */
  addAsciiWords(bytes: Uint8Array, start: number, end: number): void {
    let i = start;
    while (i < end) {
      let c = ASCII_WORD_BYTE[bytes[i]];
      if (c === 0) {
        i++;
        continue;
      }
      const from = i;
      let h1 = HASH53_SEED_1;
      let h2 = HASH53_SEED_2;
      for (;;) {
        h1 = Math.imul(h1 ^ c, 2654435761);
        h2 = Math.imul(h2 ^ c, 1597334677);
        if (++i === end) break;
        c = ASCII_WORD_BYTE[bytes[i]];
        if (c !== 0) continue;
        // A single ' or - between word characters joins them.
        const joiner = bytes[i];
        if ((joiner !== 39 && joiner !== 45) || i + 1 === end || ASCII_WORD_BYTE[bytes[i + 1]] === 0) break;
        c = joiner;
      }
      this.countWord(finishHash53(h1, h2), null, bytes, from, i);
    }
  }

  get length(): number {
    return this.size;
  }

  /** Every counted word, most frequent first (ties by word), as TopWords.entries(). */
  entries(): Array<[string, number]> {
    const out: Array<[string, number]> = [];
    for (let e = 0; e < this.size; e++) out.push([this.texts[e], this.counts[e]]);
    return out.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  top(limit: number): string[] {
    return this.entries()
      .slice(0, limit)
      .map(([word]) => word);
  }

  /** Counts one word (given as text, or as ASCII bytes to lower-case); true when it is meaningful. */
  private countWord(hash: number, text: string | null, bytes: Uint8Array | null, from: number, to: number, times = 1): boolean {
    const slots = this.slots;
    const mask = this.mask;
    let slot = hash & mask; // the hash's low bits (ToInt32)
    for (let entry = slots[slot]; entry !== 0; entry = slots[slot]) {
      if (this.hashes[entry - 1] === hash) {
        this.counts[entry - 1] += times;
        return true;
      }
      slot = (slot + 1) & mask;
    }
    if (this.meaningless.has(hash)) return false;
    const word =
      text ??
      Buffer.from(bytes!.buffer, bytes!.byteOffset + from, to - from)
        .toString('latin1')
        .toLowerCase();
    if (!isMeaningful(word)) {
      if (this.meaningless.size >= MAX_REMEMBERED_MEANINGLESS) this.meaningless.clear();
      this.meaningless.add(hash);
      return false;
    }
    const entry = this.size++;
    this.hashes[entry] = hash;
    this.counts[entry] = times;
    this.texts[entry] = detach(word);
    slots[slot] = entry + 1;
    if (this.size >= this.capacity * 2) this.prune();
    return true;
  }

  /** Keeps the `capacity` most frequent words, as TopWords does. */
  private prune(): void {
    const order = Array.from({ length: this.size }, (_, e) => e).sort((a, b) => {
      const byCount = this.counts[b] - this.counts[a];
      if (byCount !== 0) return byCount;
      const x = this.texts[a];
      const y = this.texts[b];
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const keep = order.slice(0, this.capacity);
    const hashes = keep.map((e) => this.hashes[e]);
    const counts = keep.map((e) => this.counts[e]);
    const texts = keep.map((e) => this.texts[e]);
    this.slots.fill(0);
    this.size = 0;
    this.texts = [];
    for (let k = 0; k < keep.length; k++) {
      const entry = this.size++;
      this.hashes[entry] = hashes[k];
      this.counts[entry] = counts[k];
      this.texts[entry] = texts[k];
      let slot = hashes[k] & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = entry + 1;
    }
  }
}
