import { decodeMemory, encodeMemory, type MemoryParts, type MemorySnapshot } from './memory-snapshot-codec';
import {
  EMPTY_STREAM,
  fill,
  FloatList,
  grown,
  hasBit,
  intersection,
  IntList,
  listCursor,
  listStream,
  newestOf,
  Sights,
  trim,
  union,
  type OrdinalSet,
  type OrdinalStream,
  type Postings,
  type Sight,
} from './posting-lists';
import type { RecordVisibility } from './search-index';
import { OrdinalsByText } from './ordinals-by-text';
import { TermsByTrigram, TrigramIds } from './trigram-index';

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

/** Who is asking, as interned keys: -2 never matches. */
export interface Filter {
  /** Access keys the viewer holds. */
  keys: number[];
  /** Only records of this owner (view 'own'), or -1. */
  owner: number;
  /** Only records of this project, or -1. */
  group: number;
}

/** What a filter lets through, prepared for one search (RankedMemory.visibleTo). */
export interface Visible {
  /** The sets every read is intersected with: the viewer's sight (or the owner's list), the project's list. */
  sets: OrdinalSet[];
  /** Alive, visible (or owned), in the project. */
  passes(ordinal: number): boolean;
}

const NEVER = -2;
/** How far back (in ordinals) a document may belong before it counts as out of order. */
const DISORDER_REACH = 1000;
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
  /** Ordinals by lower-cased name and alternate name (when another): the exact-name tier without reading a posting list. */
  private readonly exactName = new OrdinalsByText((ordinal) => this.names[ordinal]);
  private readonly exactAlt = new OrdinalsByText((ordinal) => {
    const alt = this.altNames[ordinal];
    return alt !== null && alt !== this.names[ordinal] ? alt : null;
  });
  private readonly interned = new Map<string, number>();
  /** Ordinals by interned access key, owner and project: what a viewer's filter reads. */
  private readonly keyLists = new Map<number, IntList>();
  /** Ordinals by id: an id's highest ordinal is its current version when alive (a removed record's is dead). */
  private readonly byId = new OrdinalsByText((ordinal) => this.ids[ordinal]);
  /** Alive ordinals: the documents held. */
  private live = 0;
  private readonly termsByTrigram = new TermsByTrigram(new TrigramIds());
  /** What each recently seen set of access keys lets see, as bits. */
  private readonly sights = new Sights();
  /** Ordinals added older than an earlier one, or dead: when many, a rebuild pays off. */
  disorder = 0;
  /** The store's write sequence this memory has applied up to. */
  appliedSeq: number;

  constructor(appliedSeq = 0) {
    this.appliedSeq = appliedSeq;
  }

  get size(): number {
    return this.live;
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
    const current = this.ordinalOf(record.id);
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
    this.exactName.add(ordinal);
    this.exactAlt.add(ordinal);
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
    this.byId.add(ordinal);
    this.live++;

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
    const current = this.ordinalOf(id);
    if (current === undefined || this.seqs.data[current] > seq) return;
    this.kill(current);
  }

  ordinalOf(id: string): number | undefined {
    const ordinal = this.byId.highest(id);
    return ordinal >= 0 && this.alive[ordinal] === 1 ? ordinal : undefined;
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
    this.live--;
    this.disorder++;
    // A sight holds alive ordinals only, so a viewer's test is one bit (sightOf).
    this.sights.kill(ordinal);
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
    return this.sights.of(keys.join(','), lists, this.alive, this.ids.length);
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

  /**
   * Up to `read` accepted ordinals of a stream, newest change first (ties by id), and how many were
   * accepted (at most `read`). Stops once every ordinal left is older than the oldest one held.
   */
  newest(stream: OrdinalStream, accept: (ordinal: number) => boolean, read: number): number[] {
    return newestOf(stream, accept, read, (a, b) => this.compareNewest(a, b), this.prefixMax.data, this.changed.data);
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
    return this.exactName.highest(text) >= 0 || (this.exactAlt.size > 0 && this.exactAlt.highest(text) >= 0);
  }

  /** Ordinals whose name or alternate name is exactly the text (lower-cased). */
  exactNames(text: string): OrdinalStream {
    // An ordinal is in one of the two at most (an alternate name the same as the name is not entered).
    return this.exactAlt.size === 0 ? this.exactName.stream(text) : union([this.exactName.stream(text), this.exactAlt.stream(text)]);
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
   * this makes ready for the text (until the next call; trigram-index.ts).
   */
  typoCandidates(words: string[], wordThreshold: number, visible: Visible): Int32Array {
    return this.termsByTrigram.nameCandidates(words, wordThreshold, visible.passes, this.ids.length);
  }

  /** nameSimilarity of a candidate of the last typoCandidates call, without reading its name when its close word decides. */
  candidateSimilarity(ordinal: number, textWords: number): number {
    const decided = this.termsByTrigram.candidateSimilarity(ordinal);
    return decided >= 0 ? decided : this.nameSimilarity(ordinal, textWords);
  }

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

  /** Drops the spare capacity of every list (a quarter of the arrays of a memory loaded record by record). */
  trim(): void {
    for (const list of [this.changed, this.prefixMax, this.seqs]) trim(list);
    const { owners, accessStart, accessPool, groupStart, groupPool, nameTermStart, nameTermPool } = this;
    for (const list of [owners, accessStart, accessPool, groupStart, groupPool, nameTermStart, nameTermPool, ...this.keyLists.values()]) trim(list);
    for (const { name, summary, all } of this.postings.values()) for (const list of [name, summary, all]) trim(list);
    this.alive = this.alive.slice(0, this.ids.length);
  }

  changedAt(ordinal: number): number {
    return this.changed.data[ordinal];
  }

  /** The memory as it stands now, as binary pieces produced when iterated, for a snapshot (memory-snapshot-codec.ts). */
  snapshot(): MemorySnapshot {
    return encodeMemory(this.parts());
  }

  /** The memory's fields, by reference, as a snapshot reads them. */
  private parts(): MemoryParts {
    const { appliedSeq, disorder, ids, names, altNames, changed, prefixMax, seqs, alive, owners, accessStart, accessPool } = this;
    const { groupStart, groupPool, nameTermStart, nameTermPool, interned, keyLists, postings } = this;
    const lists = { changed, prefixMax, seqs, owners, accessStart, accessPool, groupStart, groupPool, nameTermStart, nameTermPool };
    return { appliedSeq, disorder, ids, names, altNames, alive, ...lists, interned, keyLists, postings };
  }

  /** The memory a snapshot holds; SnapshotFormatError when it is not one of this format. */
  static restore(bytes: Uint8Array): RankedMemory {
    const parts = decodeMemory(bytes);
    const memory = new RankedMemory(parts.appliedSeq);
    memory.disorder = parts.disorder;
    memory.ids = parts.ids;
    memory.names = parts.names;
    memory.altNames = parts.altNames;
    memory.alive = parts.alive;
    for (const list of ['changed', 'prefixMax', 'seqs'] as const) fill(memory[list], parts[list].data);
    for (const list of ['owners', 'accessStart', 'accessPool', 'groupStart', 'groupPool', 'nameTermStart', 'nameTermPool'] as const)
      fill(memory[list], parts[list].data);
    parts.interned.forEach((value, key) => memory.interned.set(key, value));
    parts.keyLists.forEach((list, key) => memory.keyLists.set(key, list));
    parts.postings.forEach((postings, word) => {
      memory.postings.set(word, postings);
      memory.termsByTrigram.add(word, postings);
    });
    // Derived from the texts, not stored: a hash per text, no allocation per ordinal.
    const ordinals = memory.ids.length;
    for (const byText of [memory.byId, memory.exactName, memory.exactAlt]) byText.addAll(ordinals);
    for (let ordinal = 0; ordinal < ordinals; ordinal++) memory.live += memory.alive[ordinal];
    return memory;
  }
}
