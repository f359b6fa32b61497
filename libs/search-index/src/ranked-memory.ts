import { relatedTerms, type RecordVisibility } from './search-index';
import { arrayFrame, bytesOf, frame, FrameReader, SnapshotFormatError, stringFrames } from './snapshot-format';

/**
 * The in-process inverted index behind InProcessSearchIndex: no I/O, only arrays.
 *
 * Every document gets an ordinal when it is added (a replaced document gets a new one, the old one
 * is marked dead). Each term keeps three posting lists of ordinals, ascending: documents with the
 * term in the name (or alternate name), in the name or description, anywhere. Lists are read from
 * the end, newest ordinal first; since documents are loaded oldest change first and new changes
 * arrive newest, that is (nearly) newest change first. `prefixMax[o]`, the latest change among
 * ordinals 0..o, makes early termination exact whatever the arrival order: once a reader holds the
 * rows it needs and every ordinal left is older than the oldest of them, it stops. A long posting
 * list is therefore read only as far back as a page and the count limit need.
 */
export interface IndexedRecord {
  id: string;
  name: string;
  altName: string | null;
  description: string;
  /** Headers and word set, as one text. */
  extra: string;
  ownerId: string;
  accessKeys: string[];
  groupIds: string[];
  /** Milliseconds since the epoch. */
  changedAt: number;
  /** The store's write sequence of this version: an older version never replaces a newer one. */
  seq: number;
  visibility?: RecordVisibility;
}

/** Lower-cased runs of letters and digits: the words a text is searched by. */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/**
 * A list holds its members as bits (bit o of the array set when o is in the list) once it is dense,
 * at least one entry per DENSE_SHARE ordinals: no more bytes than its entries, a test of membership
 * in one read, and 32 ordinals per step when dense lists are intersected.
 */
const DENSE_SHARE = 32;

class IntList {
  length = 0;
  /** The members as bits, kept from the first time the list was found dense (densify). */
  bits: Int32Array | null = null;
  /** Empty, or (from a snapshot) full of the given entries. */
  constructor(
    public data: Int32Array = new Int32Array(4),
    full = false,
  ) {
    if (full) this.length = data.length;
  }
  push(value: number) {
    if (this.length === this.data.length) {
      // A list read from a snapshot may be empty and exactly full.
      const grown = new Int32Array(Math.max(4, this.data.length * 2));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
    if (this.bits) this.bits = setBit(this.bits, value);
  }
  /** Whether the (ascending) list holds the value. */
  has(value: number): boolean {
    if (this.bits) return hasBit(this.bits, value);
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = this.data[mid];
      if (at === value) return true;
      if (at < value) low = mid + 1;
      else high = mid - 1;
    }
    return false;
  }
  /** The members as bits when the list is dense among `ordinals` (made the first time it is), else null. */
  densify(ordinals: number): Int32Array | null {
    if (!this.bits && this.length * DENSE_SHARE >= ordinals && this.length > 0) {
      const bits = new Int32Array((this.data[this.length - 1] >>> 5) + 1);
      for (let i = 0; i < this.length; i++) bits[this.data[i] >>> 5] |= 1 << (this.data[i] & 31);
      this.bits = bits;
    }
    return this.bits;
  }
  /** Index of the last entry <= value at or below index `below`, or -1: gallops back from `below`, then halves. */
  floor(value: number, below: number): number {
    const data = this.data;
    if (below < 0 || data[below] <= value) return below;
    // data[high] > value throughout; probe 1, 2, 4... places back until an entry <= value.
    let high = below;
    let step = 1;
    let low = below - step;
    while (low >= 0 && data[low] > value) {
      high = low;
      step *= 2;
      low = below - step;
    }
    if (low < 0) {
      if (data[0] > value) return -1;
      low = 0;
    }
    // data[low] <= value < data[high]: the last entry <= value lies in [low, high - 1].
    let top = high - 1;
    while (low <= top) {
      const mid = (low + top) >>> 1;
      if (data[mid] <= value) low = mid + 1;
      else top = mid - 1;
    }
    return top;
  }
}

/** Sets bit `value`, growing the array (doubling) when it is too short; returns the array holding it. */
function setBit(bits: Int32Array, value: number): Int32Array {
  const word = value >>> 5;
  if (word >= bits.length) {
    const grown = new Int32Array(Math.max(word + 1, bits.length * 2));
    grown.set(bits);
    bits = grown;
  }
  bits[word] |= 1 << (value & 31);
  return bits;
}

function clearBit(bits: Int32Array, value: number): void {
  const word = value >>> 5;
  if (word < bits.length) bits[word] &= ~(1 << (value & 31));
}

function hasBit(bits: Int32Array, value: number): boolean {
  const word = value >>> 5;
  return word < bits.length && (bits[word] & (1 << (value & 31))) !== 0;
}

class FloatList {
  data = new Float64Array(1024);
  length = 0;
  push(value: number) {
    if (this.length === this.data.length) {
      const grown = new Float64Array(Math.max(1024, this.data.length * 2));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

interface Postings {
  /** The term's number: its place in the order terms were first met. */
  id: number;
  name: IntList;
  summary: IntList;
  all: IntList;
}

/** A stream of ordinals, descending; -1 when done. */
export interface OrdinalStream {
  next(): number;
}

const EMPTY_STREAM: OrdinalStream = { next: () => -1 };

function listStream(list: IntList): OrdinalStream {
  let at = list.length;
  return { next: () => (at > 0 ? list.data[--at] : -1) };
}

/**
 * A set of ordinals read from the top: `floor(t)` is its largest member <= t (or -1), for targets
 * that never increase, so each list is walked once, jumping by galloping search.
 */
interface Cursor {
  floor(target: number): number;
}

function listCursor(list: IntList): Cursor {
  let bound = list.length - 1;
  return {
    floor(target) {
      if (bound < 0) return -1;
      bound = list.floor(target, bound);
      return bound < 0 ? -1 : list.data[bound];
    },
  };
}

/** One of the sets a search intersects: a list (its bits once dense), or bits alone (what a viewer may see). */
export interface OrdinalSet {
  /** How many members, or more: the smallest set drives an intersection. */
  size: number;
  list: IntList | null;
  bits: Int32Array | null;
}

/**
 * Members of every set, newest ordinal first. When every set has bits, they are ANDed 32 ordinals
 * at a time; otherwise the shortest list is read and each of its entries tested against the
 * others (one read of a bit, or a galloping cursor through a sparse list).
 */
function intersection(sets: OrdinalSet[]): OrdinalStream {
  if (sets.length === 0 || sets.some((set) => set.size === 0 || (!set.list && !set.bits))) return EMPTY_STREAM;
  if (sets.every((set) => set.bits)) return new BitsAndStream(sets.map((set) => set.bits!));
  let driver: OrdinalSet | null = null;
  for (const set of sets) if (set.list && (!driver || set.list.length < driver.list!.length)) driver = set;
  const others = sets.filter((set) => set !== driver);
  return new DrivenStream(
    driver!.list!,
    others.flatMap((set) => (set.bits ? [set.bits] : [])),
    others.flatMap((set) => (set.bits ? [] : [listCursor(set.list!)])),
  );
}

/** The ordinals whose bit is set in every array, descending. */
class BitsAndStream implements OrdinalStream {
  private word: number;
  private current = 0;
  private base = 0;
  constructor(private readonly bitsets: Int32Array[]) {
    // Past the end of any array, no bit is set in all of them.
    this.word = Math.min(...bitsets.map((bits) => bits.length)) - 1;
  }
  next(): number {
    let current = this.current;
    if (current === 0) {
      // The next word down with a bit in every array: a tight loop for the usual two or three
      // arrays (a word and the viewer's sight, two words and the sight), most words being empty.
      const bitsets = this.bitsets;
      const first = bitsets[0];
      let word = this.word;
      if (bitsets.length === 1) {
        while (word >= 0 && (current = first[word]) === 0) word--;
      } else if (bitsets.length === 2) {
        const second = bitsets[1];
        while (word >= 0 && (current = first[word] & second[word]) === 0) word--;
      } else if (bitsets.length === 3) {
        const second = bitsets[1];
        const third = bitsets[2];
        while (word >= 0 && (current = first[word] & second[word] & third[word]) === 0) word--;
      } else {
        for (; word >= 0; word--) {
          current = first[word];
          for (let i = 1; i < bitsets.length && current !== 0; i++) current &= bitsets[i][word];
          if (current !== 0) break;
        }
      }
      if (word < 0) {
        this.word = -1;
        this.current = 0;
        return -1;
      }
      this.base = word << 5;
      this.word = word - 1;
    }
    const bit = 31 - Math.clz32(current);
    this.current = current ^ (1 << bit);
    return this.base + bit;
  }
}

/** A list read from its end, each entry kept when every bit array has it and every cursor meets it. */
class DrivenStream implements OrdinalStream {
  private at: number;
  constructor(
    private readonly driver: IntList,
    private readonly bitsets: Int32Array[],
    private readonly cursors: Cursor[],
  ) {
    this.at = driver.length;
  }
  next(): number {
    const data = this.driver.data;
    candidates: while (this.at > 0) {
      const ordinal = data[--this.at];
      for (const bits of this.bitsets) if (!hasBit(bits, ordinal)) continue candidates;
      for (const cursor of this.cursors) if (cursor.floor(ordinal) !== ordinal) continue candidates;
      return ordinal;
    }
    return -1;
  }
}

/** Ordinals of any of the streams, each once, descending. */
export function union(streams: OrdinalStream[]): OrdinalStream {
  if (streams.length === 0) return EMPTY_STREAM;
  if (streams.length === 1) return streams[0];
  const heads = streams.map((stream) => stream.next());
  return {
    next() {
      let best = -1;
      for (const head of heads) if (head > best) best = head;
      if (best < 0) return -1;
      for (let i = 0; i < heads.length; i++) if (heads[i] === best) heads[i] = streams[i].next();
      return best;
    },
  };
}

/** Who is asking, as interned keys: -2 never matches. */
export interface Filter {
  /** Access keys the viewer holds. */
  keys: number[];
  /** Only records of this owner (view 'own'), or -1. */
  owner: number;
  /** Only records of this project, or -1. */
  group: number;
}

/** The sort key of a ranked row: score (null without text), then newest change, then id. */
export interface RowKey {
  score: number | null;
  changedAt: number;
  id: string;
}

export interface RankedRow {
  ordinal: number;
  score: number | null;
}

/** What a filter lets through, prepared for one search (RankedMemory.visibleTo). */
export interface Visible {
  /** The sets every read is intersected with: the viewer's sight (or the owner's list), the project's list. */
  sets: OrdinalSet[];
  /** Alive, visible (or owned), in the project. */
  passes(ordinal: number): boolean;
}

/** The alive ordinals a set of access keys lets see, as bits, for the ordinals below `upTo`. */
interface Sight {
  bits: Int32Array;
  upTo: number;
  /** Entries of the keys' lists: the sight's members or more (a record may hold several of the keys). */
  size: number;
}

/** Sights kept for the most recent sets of access keys (an eighth of the ordinal count in bytes each). */
const SIGHTS_KEPT = 64;

const NEVER = -2;
/** How far back (in ordinals) a document may belong before it counts as out of order. */
const DISORDER_REACH = 1000;

/** Letters-and-digits trigrams of a word, pg_trgm style: padded with two spaces before and one after. */
function wordTrigrams(word: string, into: Set<string>) {
  const padded = `  ${word} `;
  for (let i = 0; i + 3 <= padded.length; i++) into.add(padded.slice(i, i + 3));
}

function trigramsOf(words: string[]): Set<string> {
  const set = new Set<string>();
  for (const word of words) wordTrigrams(word, set);
  return set;
}

/**
 * Trigrams as small integers, so typo similarity counts shared trigrams by marking ids in an array
 * instead of building and probing sets of strings. The same sets, so the same similarities.
 */
class TrigramIds {
  private readonly ids = new Map<string, number>();
  /** marks[id] === run: the id belongs to the run of name words being measured. */
  private marks: Int32Array = new Int32Array(1024);
  private run = 0;
  /** textMarks[id] === text: the id is one of the text's trigrams. */
  private textMarks: Int32Array = new Int32Array(1024);
  private text = 0;
  private textSize = 0;

  /** The distinct trigram ids of a word. */
  of(word: string): Int32Array {
    const set = new Set<string>();
    wordTrigrams(word, set);
    return Int32Array.from(set, (trigram) => this.idOf(trigram));
  }

  private idOf(trigram: string): number {
    let id = this.ids.get(trigram);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(trigram, id);
      if (id === this.marks.length) {
        this.marks = grown(this.marks);
        this.textMarks = grown(this.textMarks);
      }
    }
    return id;
  }

  /**
   * The text the next similarities are measured against; the ids of its trigrams that some word has.
   * Its trigrams are looked up, not added: a trigram no word has cannot be shared (every term's
   * trigrams have ids before similarities are asked).
   */
  setText(trigrams: Set<string>): number[] {
    if (this.text === 2 ** 31 - 1) {
      this.textMarks.fill(0);
      this.text = 0;
    }
    const stamp = ++this.text;
    const known: number[] = [];
    for (const trigram of trigrams) {
      const id = this.ids.get(trigram);
      if (id === undefined) continue;
      this.textMarks[id] = stamp;
      known.push(id);
    }
    this.textSize = trigrams.size;
    return known;
  }

  /**
   * The best similarity of the text to a run of the words (`terms[from..to)`, term numbers): shared
   * trigrams over the union. Runs of whole words from each start, longer by one word at a time, up
   * to one word more than the text (longer runs only add trigrams the text lacks).
   */
  similarity(terms: Int32Array, from: number, to: number, trigramsOf: (term: number) => Int32Array, textWords: number): number {
    const marks = this.marks;
    const textMarks = this.textMarks;
    const text = this.text;
    let best = 0;
    for (let start = from; start < to; start++) {
      if (this.run === 2 ** 31 - 1) {
        marks.fill(0);
        this.run = 0;
      }
      const run = ++this.run;
      let size = 0;
      let common = 0;
      for (let end = start; end < Math.min(to, start + textWords + 1); end++) {
        for (const id of trigramsOf(terms[end])) {
          if (marks[id] === run) continue;
          marks[id] = run;
          size++;
          if (textMarks[id] === text) common++;
        }
        best = Math.max(best, common / (this.textSize + size - common));
      }
    }
    return best;
  }

  /** Ids of the trigrams of the set that some word has (the others are shared by none). */
  known(trigrams: Set<string>): Set<number> {
    const known = new Set<number>();
    for (const trigram of trigrams) {
      const id = this.ids.get(trigram);
      if (id !== undefined) known.add(id);
    }
    return known;
  }
}

/**
 * Terms by their trigrams (indexed as they come, at the next typo search): the terms close to a
 * mistyped word are found from the terms sharing a trigram with it (a similarity above zero needs
 * one), counting shared trigrams per term, instead of measuring every term of the memory.
 */
class TermsByTrigram {
  private readonly terms: string[] = [];
  private readonly postings: Postings[] = [];
  /** Each indexed term's trigram ids, by term number. */
  private readonly trigramIds: Int32Array[] = [];
  private readonly byTrigram: IntList[] = [];
  /** similar's scratch: shared trigrams per term, the terms touched, and foundMarks[term] === foundStamp once a call found it. */
  private counts: Int32Array = new Int32Array(1024);
  private touched: Int32Array = new Int32Array(1024);
  private foundMarks: Int32Array = new Int32Array(1024);
  private foundStamp = 0;
  /** Per term: its number of trigrams; the trigrams it shares with the text of stamp termText[term] (none when another stamp). */
  private termSize: Int32Array = new Int32Array(1024);
  private termText: Int32Array = new Int32Array(1024);
  private termCommon: Int32Array = new Int32Array(1024);
  private text = 0;
  private textSize = 0;

  constructor(private readonly trigrams: TrigramIds) {}

  /** The next term's number. */
  get size(): number {
    return this.terms.length;
  }

  add(term: string, postings: Postings) {
    this.terms.push(term);
    this.postings.push(postings);
  }

  /** Indexes the terms added since the last time. */
  private index() {
    if (this.termSize.length < this.terms.length) {
      const size = this.terms.length * 2;
      this.termSize = grownTo(this.termSize, size);
      this.termText = grownTo(this.termText, size);
      this.termCommon = grownTo(this.termCommon, size);
    }
    for (let term = this.trigramIds.length; term < this.terms.length; term++) {
      const ids = this.trigrams.of(this.terms[term]);
      this.trigramIds.push(ids);
      this.termSize[term] = ids.length;
      for (const id of ids) (this.byTrigram[id] ??= new IntList()).push(term);
    }
  }

  /** The trigram ids of a term, by its number. */
  readonly trigramsOf = (term: number): Int32Array => {
    if (term >= this.trigramIds.length) this.index();
    return this.trigramIds[term];
  };

  /** Postings of the terms whose trigram similarity to one of the words reaches the threshold. */
  similar(words: string[], threshold: number): Postings[] {
    this.index();
    if (this.counts.length < this.terms.length) {
      // Every term may be touched by a word; the marks are stamps, so never cleared.
      this.counts = new Int32Array(this.terms.length * 2);
      this.touched = new Int32Array(this.terms.length * 2);
      this.foundMarks = grownTo(this.foundMarks, this.terms.length * 2);
    }
    if (this.foundStamp === 2 ** 31 - 1) {
      this.foundMarks.fill(0);
      this.foundStamp = 0;
    }
    const stamp = ++this.foundStamp;
    const { counts, touched, foundMarks, termSize } = this;
    const postings: Postings[] = [];
    for (const word of words) {
      const trigrams = trigramsOf([word]);
      // The terms sharing a trigram with the word, each with how many it shares (in reused arrays:
      // a word's trigrams reach thousands of terms, and this runs at every typo search).
      let count = 0;
      for (const id of this.trigrams.known(trigrams)) {
        const list = this.byTrigram[id];
        for (let i = 0; list && i < list.length; i++) if (counts[list.data[i]]++ === 0) touched[count++] = list.data[i];
      }
      for (let i = 0; i < count; i++) {
        const term = touched[i];
        const common = counts[term];
        counts[term] = 0;
        if (foundMarks[term] !== stamp && common / (trigrams.size + termSize[term] - common) >= threshold) {
          foundMarks[term] = stamp;
          postings.push(this.postings[term]);
        }
      }
    }
    return postings;
  }

  /** The text the next similarities are measured against: each term's shared trigrams counted from the text's trigrams' lists. */
  setText(words: string[]): void {
    this.index();
    const trigrams = trigramsOf(words);
    if (this.text === 2 ** 31 - 1) {
      this.termText.fill(0);
      this.text = 0;
    }
    const stamp = ++this.text;
    this.textSize = trigrams.size;
    for (const id of this.trigrams.setText(trigrams)) {
      const list = this.byTrigram[id];
      for (let i = 0; list && i < list.length; i++) {
        const term = list.data[i];
        if (this.termText[term] !== stamp) {
          this.termText[term] = stamp;
          this.termCommon[term] = 0;
        }
        this.termCommon[term]++;
      }
    }
  }

  /**
   * The best similarity of the text to a run of the words (`terms[from..to)`, term numbers), as
   * TrigramIds.similarity measures it, without measuring runs when no run can beat a word alone.
   */
  similarity(terms: Int32Array, from: number, to: number, textWords: number): number {
    const textSize = this.textSize;
    const termSize = this.termSize;
    let alone = 0;
    // A run of words can only beat its best word alone when two of its words share trigrams with
    // the text: with one, it shares that word's trigrams and lacks at least the ones that word
    // lacks, so the bound below is at most that word's own similarity. Runs hold up to textWords + 1
    // words, so two such words at most textWords apart.
    let lastSharing = -Infinity;
    let closeSharing = false;
    for (let i = from; i < to; i++) {
      const common = this.common(terms[i]);
      if (common === 0) continue;
      alone = Math.max(alone, common / (textSize + termSize[terms[i]] - common));
      if (i - lastSharing <= textWords) closeSharing = true;
      lastSharing = i;
    }
    if (!closeSharing) return alone;
    // A longer run shares at most the sum of its words' shared trigrams (and no more than the text
    // has), and its union holds at least the trigrams of any one word the text lacks: when that
    // bound does not beat the best word alone for any run, no run does.
    for (let start = from; start < to; start++) {
      let shared = 0;
      let lacking = 0;
      for (let end = start; end < Math.min(to, start + textWords + 1); end++) {
        const common = this.common(terms[end]);
        shared += common;
        lacking = Math.max(lacking, this.termSize[terms[end]] - common);
        if (end > start && Math.min(shared, textSize) / (textSize + lacking) > alone)
          return this.trigrams.similarity(terms, from, to, this.trigramsOf, textWords);
      }
    }
    return alone;
  }

  private common(term: number): number {
    return this.termText[term] === this.text ? this.termCommon[term] : 0;
  }
}

function grownTo<T extends Int32Array | Float64Array>(array: T, size: number): T {
  const bigger = new (array.constructor as new (size: number) => T)(size);
  bigger.set(array);
  return bigger;
}

function grown(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

export class RankedMemory {
  private ids: string[] = [];
  private names: string[] = [];
  private altNames: (string | null)[] = [];
  private readonly changed = new FloatList();
  /** The latest change among ordinals 0..o: what makes newest-first reading stop early. */
  private readonly prefixMax = new FloatList();
  private readonly seqs = new FloatList();
  private alive: Uint8Array = new Uint8Array(1024);
  private readonly owners = new IntList();
  /** Access keys and groups of each ordinal: start offsets into shared pools. */
  private readonly accessStart = new IntList();
  private readonly accessPool = new IntList();
  private readonly groupStart = new IntList();
  private readonly groupPool = new IntList();
  /** The words of each ordinal's name in order, as term numbers: what typo similarity reads. */
  private readonly nameTermStart = new IntList();
  private readonly nameTermPool = new IntList();
  private readonly postings = new Map<string, Postings>();
  /** Ordinals by lower-cased name and alternate name: the exact-name tier without reading a posting list. */
  private readonly exact = new Map<string, IntList>();
  private readonly interned = new Map<string, number>();
  /** Ordinals by interned access key, owner and project: what a viewer's filter reads. */
  private readonly keyLists = new Map<number, IntList>();
  private readonly byId = new Map<string, number>();
  private readonly trigrams = new TrigramIds();
  private readonly termsByTrigram = new TermsByTrigram(this.trigrams);
  /** What each recently seen set of access keys lets see, as bits (extended as ordinals are added; most recent last). */
  private readonly sights = new Map<string, Sight>();
  /** Ordinals added older than an earlier one, or dead: when many, a rebuild pays off. */
  disorder = 0;
  /** The store's write sequence this memory has applied up to. */
  appliedSeq: number;

  constructor(appliedSeq = 0) {
    this.appliedSeq = appliedSeq;
  }

  get size(): number {
    return this.byId.size;
  }

  get ordinals(): number {
    return this.ids.length;
  }

  intern(key: string): number {
    let value = this.interned.get(key);
    if (value === undefined) {
      value = this.interned.size;
      this.interned.set(key, value);
    }
    return value;
  }

  /** An interned key, or NEVER when no document has it. */
  lookup(key: string): number {
    return this.interned.get(key) ?? NEVER;
  }

  /** Adds a version of a document unless a newer one is already applied. */
  add(record: IndexedRecord): void {
    const current = this.byId.get(record.id);
    if (current !== undefined) {
      if (this.seqs.data[current] > record.seq) return;
      this.kill(current);
    }
    const ordinal = this.ids.length;
    this.ids.push(record.id);
    const name = record.name.toLowerCase();
    const alt = record.altName ? record.altName.toLowerCase() : null;
    this.names.push(name);
    this.altNames.push(alt);
    for (const exactName of alt && alt !== name ? [name, alt] : [name]) {
      let list = this.exact.get(exactName);
      if (!list) this.exact.set(exactName, (list = new IntList()));
      list.push(ordinal);
    }
    const previousMax = ordinal > 0 ? this.prefixMax.data[ordinal - 1] : -Infinity;
    // Out of order by a few places costs a reader a few rows; older than the ordinal DISORDER_REACH
    // places back, it makes readers go on that much further.
    if (ordinal >= DISORDER_REACH ? record.changedAt < this.changed.data[ordinal - DISORDER_REACH] : record.changedAt < previousMax) this.disorder++;
    this.changed.push(record.changedAt);
    this.prefixMax.push(Math.max(previousMax, record.changedAt));
    this.seqs.push(record.seq);
    if (ordinal === this.alive.length) {
      const grown = new Uint8Array(Math.max(1024, this.alive.length * 2));
      grown.set(this.alive);
      this.alive = grown;
    }
    this.alive[ordinal] = 1;
    const owner = this.intern(`owner:${record.ownerId}`);
    this.owners.push(owner);
    this.keyListOf(owner).push(ordinal);
    this.accessStart.push(this.accessPool.length);
    for (const key of new Set(record.accessKeys.map((k) => this.intern(k)))) {
      this.accessPool.push(key);
      this.keyListOf(key).push(ordinal);
    }
    this.groupStart.push(this.groupPool.length);
    for (const group of new Set(record.groupIds.map((g) => this.intern(`group:${g}`)))) {
      this.groupPool.push(group);
      this.keyListOf(group).push(ordinal);
    }
    this.byId.set(record.id, ordinal);

    const nameWords = new Set(tokenize(`${record.name} ${record.altName ?? ''}`));
    const descriptionWords = new Set(tokenize(record.description));
    const extraWords = new Set(tokenize(record.extra));
    for (const word of nameWords) this.postingsOf(word).name.push(ordinal);
    for (const word of new Set([...nameWords, ...descriptionWords])) this.postingsOf(word).summary.push(ordinal);
    for (const word of new Set([...nameWords, ...descriptionWords, ...extraWords])) this.postingsOf(word).all.push(ordinal);
    this.nameTermStart.push(this.nameTermPool.length);
    for (const word of tokenize(record.name)) this.nameTermPool.push(this.postingsOf(word).id);
  }

  /** Removes a document unless the removal is older than the version applied. */
  remove(id: string, seq: number): void {
    const current = this.byId.get(id);
    if (current === undefined || this.seqs.data[current] > seq) return;
    this.kill(current);
    this.byId.delete(id);
  }

  ordinalOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  /** The number of the write that stored the ordinal's version of its record. */
  seqOf(ordinal: number): number {
    return this.seqs.data[ordinal];
  }

  idOf(ordinal: number): string {
    return this.ids[ordinal];
  }

  private kill(ordinal: number) {
    this.alive[ordinal] = 0;
    this.disorder++;
    // A sight holds alive ordinals only, so a viewer's test is one bit (sightOf).
    for (const sight of this.sights.values()) if (ordinal < sight.upTo) clearBit(sight.bits, ordinal);
  }

  private keyListOf(key: number): IntList {
    let list = this.keyLists.get(key);
    if (!list) this.keyLists.set(key, (list = new IntList()));
    return list;
  }

  private postingsOf(word: string): Postings {
    let found = this.postings.get(word);
    if (!found) {
      found = { id: this.termsByTrigram.size, name: new IntList(), summary: new IntList(), all: new IntList() };
      this.postings.set(word, found);
      this.termsByTrigram.add(word, found);
    }
    return found;
  }

  /** Whether the viewer may see the ordinal: alive, visible (or owned), in the project. */
  passes(ordinal: number, filter: Filter): boolean {
    return this.visibleTo(filter).passes(ordinal);
  }

  /**
   * What a filter lets through, prepared for one search (use it before the memory takes writes):
   * the sets every read is intersected with, and the test of one ordinal. A viewer's access keys
   * are one set of bits, the union of their lists, kept per set of keys and extended as ordinals
   * are added (an ordinal's keys never change: a changed record gets a new ordinal).
   */
  visibleTo(filter: Filter): Visible {
    const sets: OrdinalSet[] = [];
    const alive = this.alive;
    // One closure per kind of filter, the viewer's sight first (the most selective test, and its
    // bits stay in the cache): the test runs for every candidate of a search, and a chain of
    // closures costs three times a single one.
    let passes: (ordinal: number) => boolean;
    if (filter.owner !== -1) {
      const owner = filter.owner;
      const owners = this.owners.data;
      sets.push(this.setOf(this.keyLists.get(owner)));
      passes = (ordinal) => owners[ordinal] === owner && alive[ordinal] === 1;
    } else {
      const sight = this.sightOf(filter.keys);
      sets.push({ size: sight.size, list: null, bits: sight.bits });
      const bits = sight.bits;
      passes = (ordinal) => hasBit(bits, ordinal);
    }
    if (filter.group !== -1) {
      const group = filter.group;
      sets.push(this.setOf(this.keyLists.get(group)));
      const seen = passes;
      passes = (ordinal) => seen(ordinal) && this.hasAny(this.groupPool, this.groupStart, ordinal, group);
    }
    return { sets, passes };
  }

  private setOf(list: IntList | undefined): OrdinalSet {
    if (!list) return { size: 0, list: null, bits: null };
    return { size: list.length, list, bits: list.densify(this.ids.length) };
  }

  private sightOf(keys: number[]): Sight {
    const lists = [...new Set(keys)].flatMap((key) => this.keyLists.get(key) ?? []);
    const name = keys.join(',');
    let sight = this.sights.get(name);
    if (sight) this.sights.delete(name);
    else if (this.sights.size >= SIGHTS_KEPT) this.sights.delete(this.sights.keys().next().value!);
    sight ??= { bits: new Int32Array(0), upTo: 0, size: 0 };
    this.sights.set(name, sight);
    if (sight.upTo < this.ids.length) {
      // The ordinals added since: at the end of each (ascending) list. Only the alive ones: kill
      // clears an ordinal from every sight kept, so a sight's bits test visibility and life at once.
      const alive = this.alive;
      for (const list of lists) {
        for (let i = list.length - 1; i >= 0 && list.data[i] >= sight.upTo; i--) {
          if (alive[list.data[i]] !== 1) continue;
          sight.bits = setBit(sight.bits, list.data[i]);
          sight.size++;
        }
      }
      sight.upTo = this.ids.length;
    }
    return sight;
  }

  private hasAny(pool: IntList, starts: IntList, ordinal: number, wanted: number): boolean {
    const end = ordinal + 1 < starts.length ? starts.data[ordinal + 1] : pool.length;
    for (let i = starts.data[ordinal]; i < end; i++) if (pool.data[i] === wanted) return true;
    return false;
  }

  /** -1 when a is ranked before b (newest change first, then id), 1 after. */
  compareNewest(a: number, b: number): number {
    const ca = this.changed.data[a];
    const cb = this.changed.data[b];
    if (ca !== cb) return ca > cb ? -1 : 1;
    const ia = this.ids[a];
    const ib = this.ids[b];
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  }

  keyOf(row: RankedRow): RowKey {
    return { score: row.score, changedAt: this.changed.data[row.ordinal], id: this.ids[row.ordinal] };
  }

  /** Whether the row ranks after the key (score first, then newest, then id). */
  isAfter(ordinal: number, score: number | null, key: RowKey): boolean {
    if (score !== key.score && score !== null && key.score !== null) return score < key.score;
    const c = this.changed.data[ordinal];
    if (c !== key.changedAt) return c < key.changedAt;
    return this.ids[ordinal] > key.id;
  }

  /**
   * Up to `read` accepted ordinals of a stream, newest change first (ties by id), and how many were
   * accepted (at most `read`). Stops once every ordinal left is older than the oldest one held.
   */
  newest(stream: OrdinalStream, accept: (ordinal: number) => boolean, read: number): number[] {
    if (read <= 0) return [];
    // A max-heap on rank: the root is the row ranked last, the one a better row replaces.
    const heap: number[] = [];
    const worse = (a: number, b: number) => this.compareNewest(a, b) > 0;
    const siftUp = (i: number) => {
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i], heap[parent])) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
    };
    const siftDown = (i: number) => {
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let top = i;
        if (left < heap.length && worse(heap[left], heap[top])) top = left;
        if (right < heap.length && worse(heap[right], heap[top])) top = right;
        if (top === i) return;
        [heap[i], heap[top]] = [heap[top], heap[i]];
        i = top;
      }
    };
    const prefixMax = this.prefixMax.data;
    const changed = this.changed.data;
    for (let ordinal = stream.next(); ordinal >= 0; ordinal = stream.next()) {
      if (heap.length === read && prefixMax[ordinal] < changed[heap[0]]) break;
      if (!accept(ordinal)) continue;
      if (heap.length < read) {
        heap.push(ordinal);
        siftUp(heap.length - 1);
      } else if (worse(heap[0], ordinal)) {
        heap[0] = ordinal;
        siftDown(0);
      }
    }
    return heap.sort((a, b) => this.compareNewest(a, b));
  }

  /** Accepted ordinals of a stream, counted up to `limit` (order does not matter for a count). */
  countUpTo(stream: OrdinalStream, accept: (ordinal: number) => boolean, limit: number): number {
    let count = 0;
    for (let ordinal = stream.next(); ordinal >= 0 && count < limit; ordinal = stream.next()) if (accept(ordinal)) count++;
    return count;
  }

  /** Ordinals the filter may let through (its test still decides), newest ordinal first. */
  visible(visible: Visible): OrdinalStream {
    return intersection(visible.sets);
  }

  /** Documents with every word somewhere (or the name of exactly the text). */
  private lists(words: string[], field: keyof Omit<Postings, 'id'>): IntList[] | null {
    const lists: IntList[] = [];
    for (const word of words) {
      const found = this.postings.get(word)?.[field];
      if (!found || found.length === 0) return null;
      lists.push(found);
    }
    return lists;
  }

  /** Ordinals with every word in the field that the filter may let through. */
  allWords(words: string[], field: keyof Omit<Postings, 'id'>, visible: Visible): OrdinalStream {
    const lists = this.lists(words, field);
    if (!lists || lists.length === 0) return EMPTY_STREAM;
    return intersection([...lists.map((list) => this.setOf(list)), ...visible.sets]);
  }

  /** Ordinals with any of the words anywhere (the filter's test still decides). */
  anyWord(words: string[]): OrdinalStream {
    return union(
      words
        .flatMap((word) => this.postings.get(word)?.all ?? [])
        .filter((list) => list.length > 0)
        .map(listStream),
    );
  }

  /** Ordinals with every word of any of the groups anywhere that the filter may let through. */
  anyGroup(groups: string[][], visible: Visible): OrdinalStream {
    return union(groups.map((words) => this.allWords(words, 'all', visible)));
  }

  hasAllWords(ordinal: number, words: string[], field: keyof Omit<Postings, 'id'>): boolean {
    for (const word of words) {
      const list = this.postings.get(word)?.[field];
      if (!list || !list.has(ordinal)) return false;
    }
    return words.length > 0;
  }

  /**
   * hasAllWords for ordinals asked in descending order (as a stream gives them): each word's list
   * is walked down once, by galloping, instead of searched from scratch for every ordinal.
   */
  allWordsTest(words: string[], field: keyof Omit<Postings, 'id'>): (ordinal: number) => boolean {
    const lists = this.lists(words, field);
    if (!lists || lists.length === 0) return () => false;
    const cursors = lists.map((list) => (list.bits ? null : listCursor(list)));
    return (ordinal) => {
      for (let i = 0; i < lists.length; i++) {
        const bits = lists[i].bits;
        if (bits ? !hasBit(bits, ordinal) : cursors[i]!.floor(ordinal) !== ordinal) return false;
      }
      return true;
    };
  }

  countWords(ordinal: number, words: string[], field: keyof Omit<Postings, 'id'>): number {
    let count = 0;
    for (const word of words) if (this.postings.get(word)?.[field]?.has(ordinal)) count++;
    return count;
  }

  /** Exact, case-insensitive name or alternate name. */
  isExactName(ordinal: number, text: string): boolean {
    return this.names[ordinal] === text || this.altNames[ordinal] === text;
  }

  /** Whether some ordinal has the text (lower-cased) as its name or alternate name. */
  hasExactName(text: string): boolean {
    return this.exact.has(text);
  }

  /** Ordinals whose name or alternate name is exactly the text (lower-cased). */
  exactNames(text: string): OrdinalStream {
    const list = this.exact.get(text);
    return list ? listStream(list) : EMPTY_STREAM;
  }

  /**
   * The accepted ordinals of a stream in its order, at most `limit` of them: a view of an array
   * reused from call to call, good until the next call (every search collects up to the count
   * limit, and a fresh array each time was the largest part of a search's garbage).
   */
  collect(stream: OrdinalStream, accept: (ordinal: number) => boolean, limit: number): Int32Array {
    let found = this.collected;
    let count = 0;
    for (let ordinal = stream.next(); ordinal >= 0 && count < limit; ordinal = stream.next()) {
      if (!accept(ordinal)) continue;
      if (count === found.length) found = this.collected = grown(found);
      found[count++] = ordinal;
    }
    return found.subarray(0, count);
  }

  /**
   * Typo tolerance: the ordinals the filter lets through whose name holds a word close to one of
   * the text's words (each once, in descending order), to be measured by nameSimilarity, which
   * this makes ready for the text (until the next call).
   */
  typoCandidates(words: string[], wordThreshold: number, visible: Visible): Int32Array {
    const lists = this.termsByTrigram
      .similar(words, wordThreshold)
      .map((postings) => postings.name)
      .filter((list) => list.length > 0);
    this.termsByTrigram.setText(words);
    // Into an array reused from call to call (the answer is a view of it, good until the next
    // call): a word close to a common one has tens of thousands of candidates.
    const most = lists.reduce((sum, list) => sum + list.length, 0);
    if (this.candidates.length < most) this.candidates = new Int32Array(Math.max(most, this.candidates.length * 2));
    const found = this.candidates;
    let count = 0;
    if (lists.length === 1) {
      const list = lists[0];
      for (let i = list.length - 1; i >= 0; i--) if (visible.passes(list.data[i])) found[count++] = list.data[i];
      return found.subarray(0, count);
    }
    // Several lists: their entries as bits, read from the top down (each ordinal once, in
    // descending order, without a sort) and cleared on the way for the next call.
    if (this.seen.length * 32 < this.ids.length) this.seen = new Int32Array((this.ids.length >>> 5) + 1);
    const seen = this.seen;
    let top = -1;
    for (const list of lists) {
      for (let i = 0; i < list.length; i++) seen[list.data[i] >>> 5] |= 1 << (list.data[i] & 31);
      if (list.length > 0) top = Math.max(top, list.data[list.length - 1] >>> 5);
    }
    for (let word = top; word >= 0; word--) {
      let bits = seen[word];
      if (bits === 0) continue;
      seen[word] = 0;
      while (bits !== 0) {
        const bit = 31 - Math.clz32(bits);
        bits ^= 1 << bit;
        const ordinal = (word << 5) + bit;
        if (visible.passes(ordinal)) found[count++] = ordinal;
      }
    }
    return found.subarray(0, count);
  }

  /** Bits of the ordinals typoCandidates has met in this call; all clear between calls. */
  private seen = new Int32Array(0);
  /** What typoCandidates answers a view of. */
  private candidates = new Int32Array(1024);
  /** What collect answers a view of. */
  private collected: Int32Array = new Int32Array(1024);

  /**
   * How close the text of the last typoCandidates call comes to the closest run of whole words of
   * the name (set similarity of letter trigrams, as pg_trgm's strict word similarity).
   */
  nameSimilarity(ordinal: number, textWords: number): number {
    const from = this.nameTermStart.data[ordinal];
    const to = ordinal + 1 < this.nameTermStart.length ? this.nameTermStart.data[ordinal + 1] : this.nameTermPool.length;
    return this.termsByTrigram.similarity(this.nameTermPool.data, from, to, textWords);
  }

  changedAt(ordinal: number): number {
    return this.changed.data[ordinal];
  }

  /**
   * The memory as it stands now, as binary pieces produced when iterated, for a snapshot. Taking
   * it costs a copy of the alive flags only: everything else is appended to and never changed in
   * place (lists ascend, so what a list held now is its entries below the current ordinal count),
   * so writing may go on while the memory takes further writes.
   */
  snapshot(): MemorySnapshot {
    const ordinals = this.ids.length;
    const appliedSeq = this.appliedSeq;
    const meta = new Float64Array([
      SNAPSHOT_FORMAT,
      ordinals,
      appliedSeq,
      this.disorder,
      this.interned.size,
      this.keyLists.size,
      this.exact.size,
      this.postings.size,
      this.accessPool.length,
      this.groupPool.length,
      this.nameTermPool.length,
    ]);
    const alive = this.alive.slice(0, ordinals);
    return { appliedSeq, ordinals, pieces: this.snapshotPieces(meta, alive) };
  }

  /** The bytes of a snapshot whose counts are `meta`: what the memory held when they were taken. */
  private *snapshotPieces(meta: Float64Array, alive: Uint8Array): Generator<Uint8Array> {
    const [, ordinals, , , interned, keyLists, exact, terms, accessPool, groupPool, nameTermPool] = meta;
    yield* arrayFrame(new Uint32Array([SNAPSHOT_MAGIC]));
    yield* arrayFrame(meta);
    yield* stringFrames(ordinals, this.ids);
    yield* stringFrames(ordinals, this.names);
    yield* stringFrames(ordinals, this.altNames);
    yield* arrayFrame(this.changed.data.subarray(0, ordinals));
    yield* arrayFrame(this.prefixMax.data.subarray(0, ordinals));
    yield* arrayFrame(this.seqs.data.subarray(0, ordinals));
    yield* arrayFrame(alive);
    yield* arrayFrame(this.owners.data.subarray(0, ordinals));
    yield* arrayFrame(this.accessStart.data.subarray(0, ordinals));
    yield* arrayFrame(this.accessPool.data.subarray(0, accessPool));
    yield* arrayFrame(this.groupStart.data.subarray(0, ordinals));
    yield* arrayFrame(this.groupPool.data.subarray(0, groupPool));
    yield* arrayFrame(this.nameTermStart.data.subarray(0, ordinals));
    yield* arrayFrame(this.nameTermPool.data.subarray(0, nameTermPool));
    yield* stringFrames(interned, this.interned.keys());
    yield* arrayFrame(Int32Array.from(first(this.keyLists.keys(), keyLists)));
    yield* listFrames(() => first(this.keyLists.values(), keyLists), keyLists, ordinals);
    yield* stringFrames(exact, this.exact.keys());
    yield* listFrames(() => first(this.exact.values(), exact), exact, ordinals);
    yield* stringFrames(terms, this.postings.keys());
    yield* listFrames(() => postingLists(first(this.postings.values(), terms)), terms * 3, ordinals);
  }

  /** The memory a snapshot holds; SnapshotFormatError when it is not one of this format. */
  static restore(bytes: Uint8Array): RankedMemory {
    const reader = new FrameReader(bytes);
    if (reader.uint32s(1)[0] !== SNAPSHOT_MAGIC) throw new SnapshotFormatError('not a ranked-memory snapshot');
    const [format, ordinals, appliedSeq, disorder, interned, keyLists, exact, terms, accessPool, groupPool, nameTermPool] = reader.float64s(11);
    if (format !== SNAPSHOT_FORMAT) throw new SnapshotFormatError(`snapshot format ${format}, ${SNAPSHOT_FORMAT} expected`);
    const memory = new RankedMemory(appliedSeq);
    memory.disorder = disorder;
    memory.ids = reader.strings(ordinals) as string[];
    memory.names = reader.strings(ordinals) as string[];
    memory.altNames = reader.strings(ordinals);
    fill(memory.changed, reader.float64s(ordinals));
    fill(memory.prefixMax, reader.float64s(ordinals));
    fill(memory.seqs, reader.float64s(ordinals));
    memory.alive = reader.uint8s(ordinals);
    fill(memory.owners, reader.int32s(ordinals));
    fill(memory.accessStart, reader.int32s(ordinals));
    fill(memory.accessPool, reader.int32s(accessPool));
    fill(memory.groupStart, reader.int32s(ordinals));
    fill(memory.groupPool, reader.int32s(groupPool));
    fill(memory.nameTermStart, reader.int32s(ordinals));
    fill(memory.nameTermPool, reader.int32s(nameTermPool));
    for (let i = 0; i < nameTermPool; i++) if (memory.nameTermPool.data[i] >= terms) throw new SnapshotFormatError('snapshot name term out of range');
    reader.strings(interned).forEach((key, value) => memory.interned.set(key!, value));
    const keys = reader.int32s(keyLists);
    readLists(reader, keyLists, ordinals).forEach((list, i) => memory.keyLists.set(keys[i], list));
    const exactNames = reader.strings(exact);
    readLists(reader, exact, ordinals).forEach((list, i) => memory.exact.set(exactNames[i]!, list));
    const words = reader.strings(terms);
    const lists = readLists(reader, terms * 3, ordinals);
    words.forEach((word, i) => {
      const postings = { id: i, name: lists[3 * i], summary: lists[3 * i + 1], all: lists[3 * i + 2] };
      memory.postings.set(word!, postings);
      memory.termsByTrigram.add(word!, postings);
    });
    if (!reader.done) throw new SnapshotFormatError('snapshot has trailing bytes');
    for (let ordinal = 0; ordinal < ordinals; ordinal++) if (memory.alive[ordinal] === 1) memory.byId.set(memory.ids[ordinal], ordinal);
    return memory;
  }
}

/** Bump whenever what a snapshot holds, or what add() derives from a record (tokenizing), changes. */
export const SNAPSHOT_FORMAT = 2;
/** "DCRM" read as a native uint32: a snapshot from a machine of the other byte order fails this. */
const SNAPSHOT_MAGIC = 0x4d524344;

export interface MemorySnapshot {
  /** The store's write sequence the snapshot includes. */
  appliedSeq: number;
  ordinals: number;
  /** The snapshot's bytes, produced as they are read. */
  pieces: Iterable<Uint8Array>;
}

/** Lists measured per piece of the lengths frame, so producing it never holds the thread long. */
const LIST_BLOCK = 16_384;
/** Entries encoded per frame of list entries: what encoding one frame holds the thread for. */
const BLOCK_ENTRIES = 262_144;

function* first<T>(values: Iterable<T>, count: number): Generator<T> {
  if (count === 0) return;
  let taken = 0;
  for (const value of values) {
    yield value;
    if (++taken === count) return;
  }
}

function* postingLists(postings: Iterable<Postings>): Generator<IntList> {
  for (const { name, summary, all } of postings) yield* [name, summary, all];
}

/**
 * Lists as their lengths (entries below `ordinals`), then their entries a block of lists per frame,
 * each list as the differences between its ascending entries in LEB128 varints (the first from -1):
 * a third of the bytes of plain int32s, which is what reading a snapshot from the store costs.
 */
function* listFrames(lists: () => Iterable<IntList>, count: number, ordinals: number): Generator<Uint8Array> {
  const lengths = new Int32Array(count);
  function* lengthBlocks(): Generator<Uint8Array> {
    let i = 0;
    let blockStart = 0;
    for (const list of lists()) {
      if (i === count) throw new SnapshotFormatError(`${count} lists expected, more found`);
      lengths[i] = list.floor(ordinals - 1, list.length - 1) + 1;
      if (++i - blockStart === LIST_BLOCK) {
        yield bytesOf(lengths.subarray(blockStart, i));
        blockStart = i;
      }
    }
    if (i !== count) throw new SnapshotFormatError(`${count} lists expected, ${i} found`);
    if (i > blockStart) yield bytesOf(lengths.subarray(blockStart, i));
  }
  yield* frame(count * 4, lengthBlocks());
  // Blocks of up to BLOCK_ENTRIES entries (or one longer list), each frame led by its number of lists.
  const iterator = lists()[Symbol.iterator]();
  for (let blockStart = 0; blockStart < count;) {
    let blockEnd = blockStart;
    let entries = 0;
    while (blockEnd < count && (blockEnd === blockStart || entries + lengths[blockEnd] <= BLOCK_ENTRIES)) entries += lengths[blockEnd++];
    const bytes = new Uint8Array(5 + entries * 5);
    let at = 0;
    const put = (value: number) => {
      while (value >= 0x80) {
        bytes[at++] = (value & 0x7f) | 0x80;
        value >>>= 7;
      }
      bytes[at++] = value;
    };
    put(blockEnd - blockStart);
    for (let i = blockStart; i < blockEnd; i++) {
      const data = (iterator.next().value as IntList).data;
      let previous = -1;
      for (let k = 0; k < lengths[i]; k++) {
        put(data[k] - previous);
        previous = data[k];
      }
    }
    yield* frame(at, [bytes.subarray(0, at)]);
    blockStart = blockEnd;
  }
}

function readLists(reader: FrameReader, count: number, ordinals: number): IntList[] {
  const lengths = reader.int32s(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (lengths[i] < 0) throw new SnapshotFormatError('snapshot list length out of range');
    total += lengths[i];
  }
  // All entries in one array, each list a view of its part: no copy, no per-list allocation but the view.
  const entries = new Int32Array(total);
  const lists: IntList[] = new Array(count);
  let at = 0;
  for (let blockStart = 0; blockStart < count;) {
    const bytes = reader.uint8s();
    let read = 0;
    const take = () => {
      let value = 0;
      let shift = 0;
      let byte: number;
      do {
        if (read >= bytes.length) throw new SnapshotFormatError('snapshot list entries end early');
        byte = bytes[read++];
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      return value;
    };
    const blockEnd = blockStart + take();
    if (blockEnd <= blockStart || blockEnd > count) throw new SnapshotFormatError('snapshot list block out of range');
    for (let i = blockStart; i < blockEnd; i++) {
      const start = at;
      let previous = -1;
      for (let k = 0; k < lengths[i]; k++) entries[at++] = previous += take();
      if (previous >= ordinals) throw new SnapshotFormatError('snapshot list entry out of range');
      lists[i] = new IntList(entries.subarray(start, at), true);
    }
    if (read !== bytes.length) throw new SnapshotFormatError('snapshot list entries do not add up');
    blockStart = blockEnd;
  }
  return lists;
}

function fill<T extends Int32Array | Float64Array>(list: { data: T; length: number }, data: T) {
  list.data = data;
  list.length = data.length;
}

export { relatedTerms };
