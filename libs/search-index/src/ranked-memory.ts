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
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

class IntList {
  length = 0;
  /** Empty, or (from a snapshot) full of the given entries. */
  constructor(public data: Int32Array = new Int32Array(4), full = false) {
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
  }
  /** Whether the (ascending) list holds the value. */
  has(value: number): boolean {
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

function unionCursor(cursors: Cursor[]): Cursor {
  if (cursors.length === 1) return cursors[0];
  return {
    floor(target) {
      let best = -1;
      for (const cursor of cursors) best = Math.max(best, cursor.floor(target));
      return best;
    },
  };
}

/** Members of every set: leapfrog, each cursor jumping to the candidate the last one proposed. */
function intersectionCursor(cursors: Cursor[]): Cursor {
  if (cursors.length === 1) return cursors[0];
  return {
    floor(start) {
      let target = start;
      let agreed = 0;
      for (let i = 0; agreed < cursors.length; i = (i + 1) % cursors.length) {
        const at = cursors[i].floor(target);
        if (at < 0) return -1;
        if (at === target) agreed++;
        else {
          target = at;
          agreed = 1;
        }
      }
      return target;
    },
  };
}

function cursorStream(cursor: Cursor): OrdinalStream {
  let last = 2 ** 31 - 1;
  return {
    next() {
      if (last <= 0) return -1;
      const at = cursor.floor(last - 1);
      last = at < 0 ? 0 : at;
      return at;
    },
  };
}

function countDown(from: number): OrdinalStream {
  let at = from;
  return { next: () => (at > 0 ? --at : -1) };
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
 * The trigrams of name words as small integers, each word's as an array of distinct ids (cached),
 * so typo similarity counts shared trigrams by marking ids in an array instead of building and
 * probing sets of strings. The same sets, so the same similarities.
 */
class TrigramIds {
  private readonly ids = new Map<string, number>();
  private readonly ofWord = new Map<string, Int32Array>();
  /** marks[id] === stamp: the id belongs to the set being measured. */
  private marks: Int32Array = new Int32Array(1024);
  private textMarks: Int32Array = new Int32Array(1024);
  private stamp = 0;

  of(word: string): Int32Array {
    let found = this.ofWord.get(word);
    if (!found) {
      const set = new Set<string>();
      wordTrigrams(word, set);
      found = Int32Array.from(set, (trigram) => this.idOf(trigram));
      this.ofWord.set(word, found);
    }
    return found;
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
   * The best similarity of the text to a run of the words (trigram ids each): shared trigrams over the union. The
   * text's trigrams are looked up, not added: a trigram no word has cannot be shared.
   */
  similarities(text: Set<string>, words: Int32Array[], textWords: number): number {
    const stamp = this.nextStamp();
    for (const trigram of text) {
      const id = this.ids.get(trigram);
      if (id !== undefined) this.textMarks[id] = stamp;
    }
    let best = 0;
    // Runs of whole words from each start, longer by one word at a time, up to one word more than the text.
    for (let start = 0; start < words.length; start++) {
      const run = this.nextStamp();
      let size = 0;
      let common = 0;
      for (let end = start; end < Math.min(words.length, start + textWords + 1); end++) {
        for (const id of words[end]) {
          if (this.marks[id] === run) continue;
          this.marks[id] = run;
          size++;
          if (this.textMarks[id] === stamp) common++;
        }
        best = Math.max(best, common / (text.size + size - common));
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

  private nextStamp(): number {
    if (this.stamp === 2 ** 31 - 1) {
      this.marks.fill(0);
      this.textMarks.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
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
  private indexed = 0;
  private readonly byTrigram: IntList[] = [];
  private readonly sizes = new IntList();
  private counts: Int32Array = new Int32Array(1024);

  constructor(private readonly trigrams: TrigramIds) {}

  add(term: string, postings: Postings) {
    this.terms.push(term);
    this.postings.push(postings);
  }

  /** Postings of the terms whose trigram similarity to one of the words reaches the threshold. */
  similar(words: string[], threshold: number): Postings[] {
    for (; this.indexed < this.terms.length; this.indexed++) {
      const ids = this.trigrams.of(this.terms[this.indexed]);
      this.sizes.push(ids.length);
      for (const id of ids) (this.byTrigram[id] ??= new IntList()).push(this.indexed);
    }
    if (this.counts.length < this.terms.length) this.counts = new Int32Array(this.terms.length * 2);
    const found = new Set<number>();
    for (const word of words) {
      const trigrams = trigramsOf([word]);
      const touched: number[] = [];
      for (const id of this.trigrams.known(trigrams)) {
        const list = this.byTrigram[id];
        for (let i = 0; list && i < list.length; i++) if (this.counts[list.data[i]]++ === 0) touched.push(list.data[i]);
      }
      for (const term of touched) {
        const common = this.counts[term];
        this.counts[term] = 0;
        if (common / (trigrams.size + this.sizes.data[term] - common) >= threshold) found.add(term);
      }
    }
    return [...found].map((term) => this.postings[term]);
  }
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
  private readonly postings = new Map<string, Postings>();
  /** Ordinals by lower-cased name and alternate name: the exact-name tier without reading a posting list. */
  private readonly exact = new Map<string, IntList>();
  private readonly interned = new Map<string, number>();
  /** Ordinals by interned access key, owner and project: what a viewer's filter reads. */
  private readonly keyLists = new Map<number, IntList>();
  private readonly byId = new Map<string, number>();
  private readonly trigrams = new TrigramIds();
  private readonly termsByTrigram = new TermsByTrigram(this.trigrams);
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

  idOf(ordinal: number): string {
    return this.ids[ordinal];
  }

  private kill(ordinal: number) {
    this.alive[ordinal] = 0;
    this.disorder++;
  }

  private keyListOf(key: number): IntList {
    let list = this.keyLists.get(key);
    if (!list) this.keyLists.set(key, (list = new IntList()));
    return list;
  }

  private postingsOf(word: string): Postings {
    let found = this.postings.get(word);
    if (!found) {
      found = { name: new IntList(), summary: new IntList(), all: new IntList() };
      this.postings.set(word, found);
      this.termsByTrigram.add(word, found);
    }
    return found;
  }

  /** Whether the viewer may see the ordinal: alive, visible (or owned), in the project. */
  passes(ordinal: number, filter: Filter): boolean {
    if (this.alive[ordinal] === 0) return false;
    if (filter.owner !== -1) {
      if (this.owners.data[ordinal] !== filter.owner) return false;
    } else if (!this.hasAny(this.accessPool, this.accessStart, ordinal, filter.keys)) return false;
    if (filter.group !== -1 && !this.hasAny(this.groupPool, this.groupStart, ordinal, [filter.group])) return false;
    return true;
  }

  private hasAny(pool: IntList, starts: IntList, ordinal: number, wanted: number[]): boolean {
    const end = ordinal + 1 < starts.length ? starts.data[ordinal + 1] : pool.length;
    for (let i = starts.data[ordinal]; i < end; i++) if (wanted.includes(pool.data[i])) return true;
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

  everything(): OrdinalStream {
    return countDown(this.ids.length);
  }

  /**
   * The ordinals the filter may let through, as a cursor: the union of the viewer's access-key
   * lists (or the owner's list), within the project's list. Driving an intersection with it means
   * a viewer who may see a tenth of the records reads about a tenth of each word's list.
   */
  private visibleCursor(filter: Filter): Cursor | null {
    const keyLists = filter.owner !== -1 ? [this.keyLists.get(filter.owner)] : filter.keys.map((key) => this.keyLists.get(key));
    const cursors = keyLists.filter((list): list is IntList => list !== undefined && list.length > 0).map(listCursor);
    if (cursors.length === 0) return null;
    const visible = unionCursor(cursors);
    if (filter.group === -1) return visible;
    const group = this.keyLists.get(filter.group);
    return group ? intersectionCursor([visible, listCursor(group)]) : null;
  }

  /** Ordinals the filter may let through (passes() still decides), newest ordinal first. */
  visible(filter: Filter): OrdinalStream {
    const cursor = this.visibleCursor(filter);
    return cursor ? cursorStream(cursor) : EMPTY_STREAM;
  }

  /** Documents with every word somewhere (or the name of exactly the text). */
  private lists(words: string[], field: keyof Postings): IntList[] | null {
    const lists: IntList[] = [];
    for (const word of words) {
      const found = this.postings.get(word)?.[field];
      if (!found || found.length === 0) return null;
      lists.push(found);
    }
    return lists;
  }

  private allWordsCursor(words: string[], field: keyof Postings, filter: Filter): Cursor | null {
    const lists = this.lists(words, field);
    const visible = this.visibleCursor(filter);
    if (!lists || lists.length === 0 || !visible) return null;
    return intersectionCursor([...lists.sort((a, b) => a.length - b.length).map(listCursor), visible]);
  }

  /** Ordinals with every word in the field that the filter may let through. */
  allWords(words: string[], field: keyof Postings, filter: Filter): OrdinalStream {
    const cursor = this.allWordsCursor(words, field, filter);
    return cursor ? cursorStream(cursor) : EMPTY_STREAM;
  }

  /** Ordinals with any of the words anywhere that the filter may let through. */
  anyWord(words: string[], filter: Filter): OrdinalStream {
    const lists = words.flatMap((word) => this.postings.get(word)?.all ?? []).filter((list) => list.length > 0);
    const visible = this.visibleCursor(filter);
    if (lists.length === 0 || !visible) return EMPTY_STREAM;
    return cursorStream(intersectionCursor([unionCursor(lists.map(listCursor)), visible]));
  }

  /** Ordinals with every word of any of the groups anywhere that the filter may let through. */
  anyGroup(groups: string[][], filter: Filter): OrdinalStream {
    const cursors = groups.map((words) => this.allWordsCursor(words, 'all', filter)).filter((cursor): cursor is Cursor => cursor !== null);
    return cursors.length > 0 ? cursorStream(unionCursor(cursors)) : EMPTY_STREAM;
  }

  hasAllWords(ordinal: number, words: string[], field: keyof Postings): boolean {
    for (const word of words) {
      const list = this.postings.get(word)?.[field];
      if (!list || !list.has(ordinal)) return false;
    }
    return words.length > 0;
  }

  countWords(ordinal: number, words: string[], field: keyof Postings): number {
    let count = 0;
    for (const word of words) if (this.postings.get(word)?.[field]?.has(ordinal)) count++;
    return count;
  }

  /** Exact, case-insensitive name or alternate name. */
  isExactName(ordinal: number, text: string): boolean {
    return this.names[ordinal] === text || this.altNames[ordinal] === text;
  }

  /** Ordinals whose name or alternate name is exactly the text (lower-cased). */
  exactNames(text: string): OrdinalStream {
    const list = this.exact.get(text);
    return list ? listStream(list) : EMPTY_STREAM;
  }

  /** The accepted ordinals of a stream in its order, at most `limit` of them. */
  collect(stream: OrdinalStream, accept: (ordinal: number) => boolean, limit: number): number[] {
    const found: number[] = [];
    for (let ordinal = stream.next(); ordinal >= 0 && found.length < limit; ordinal = stream.next()) if (accept(ordinal)) found.push(ordinal);
    return found;
  }

  /**
   * Typo tolerance: how close the text comes to the closest run of whole words of the name (set
   * similarity of letter trigrams, as pg_trgm's strict word similarity), for names holding a word
   * close to one of the text's words.
   */
  typoCandidates(words: string[], wordThreshold: number, filter: Filter): OrdinalStream {
    const similar = this.termsByTrigram
      .similar(words, wordThreshold)
      .filter((postings) => postings.name.length > 0)
      .map((postings) => listCursor(postings.name));
    const visible = this.visibleCursor(filter);
    return similar.length > 0 && visible ? cursorStream(intersectionCursor([visible, unionCursor(similar)])) : EMPTY_STREAM;
  }

  /**
   * The best similarity of the text to a run of whole words of the name. Runs longer than the text
   * by more than one word only add trigrams the text lacks, so they are not tried.
   */
  nameSimilarity(ordinal: number, textTrigrams: Set<string>, textWords: number): number {
    return this.trigrams.similarities(
      textTrigrams,
      tokenize(this.names[ordinal]).map((word) => this.trigrams.of(word)),
      textWords,
    );
  }

  trigramsOfText(words: string[]): Set<string> {
    return trigramsOf(words);
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
    ]);
    const alive = this.alive.slice(0, ordinals);
    return { appliedSeq, ordinals, pieces: this.snapshotPieces(meta, alive) };
  }

  /** The bytes of a snapshot whose counts are `meta`: what the memory held when they were taken. */
  private *snapshotPieces(meta: Float64Array, alive: Uint8Array): Generator<Uint8Array> {
    const [, ordinals, , , interned, keyLists, exact, terms, accessPool, groupPool] = meta;
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
    const [format, ordinals, appliedSeq, disorder, interned, keyLists, exact, terms, accessPool, groupPool] = reader.float64s(10);
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
    reader.strings(interned).forEach((key, value) => memory.interned.set(key!, value));
    const keys = reader.int32s(keyLists);
    readLists(reader, keyLists, ordinals).forEach((list, i) => memory.keyLists.set(keys[i], list));
    const exactNames = reader.strings(exact);
    readLists(reader, exact, ordinals).forEach((list, i) => memory.exact.set(exactNames[i]!, list));
    const words = reader.strings(terms);
    const lists = readLists(reader, terms * 3, ordinals);
    words.forEach((word, i) => {
      const postings = { name: lists[3 * i], summary: lists[3 * i + 1], all: lists[3 * i + 2] };
      memory.postings.set(word!, postings);
      memory.termsByTrigram.add(word!, postings);
    });
    if (!reader.done) throw new SnapshotFormatError('snapshot has trailing bytes');
    for (let ordinal = 0; ordinal < ordinals; ordinal++) if (memory.alive[ordinal] === 1) memory.byId.set(memory.ids[ordinal], ordinal);
    return memory;
  }
}

/** Bump whenever what a snapshot holds, or what add() derives from a record (tokenizing), changes. */
export const SNAPSHOT_FORMAT = 1;
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
  for (let blockStart = 0; blockStart < count; ) {
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
  for (let blockStart = 0; blockStart < count; ) {
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
