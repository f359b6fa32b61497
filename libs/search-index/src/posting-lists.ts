/**
 * Posting lists of the in-process index (ranked-memory.ts): ascending lists of ordinals, kept as
 * bits once dense, and the streams that read them newest ordinal first (one list, the intersection
 * of several, the union of several). No I/O, only arrays.
 */
/**
 * A list holds its members as bits (bit o of the array set when o is in the list) once it is dense,
 * at least one entry per DENSE_SHARE ordinals: no more bytes than its entries, a test of membership
 * in one read, and 32 ordinals per step when dense lists are intersected.
 */
const DENSE_SHARE = 32;

export class IntList {
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
export function setBit(bits: Int32Array, value: number): Int32Array {
  const word = value >>> 5;
  if (word >= bits.length) {
    const grown = new Int32Array(Math.max(word + 1, bits.length * 2));
    grown.set(bits);
    bits = grown;
  }
  bits[word] |= 1 << (value & 31);
  return bits;
}

export function clearBit(bits: Int32Array, value: number): void {
  const word = value >>> 5;
  if (word < bits.length) bits[word] &= ~(1 << (value & 31));
}

export function hasBit(bits: Int32Array, value: number): boolean {
  const word = value >>> 5;
  return word < bits.length && (bits[word] & (1 << (value & 31))) !== 0;
}

export class FloatList {
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

export interface Postings {
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

export const EMPTY_STREAM: OrdinalStream = { next: () => -1 };

export function listStream(list: IntList): OrdinalStream {
  let at = list.length;
  return { next: () => (at > 0 ? list.data[--at] : -1) };
}

/**
 * A set of ordinals read from the top: `floor(t)` is its largest member <= t (or -1), for targets
 * that never increase, so each list is walked once, jumping by galloping search.
 */
export interface Cursor {
  floor(target: number): number;
}

export function listCursor(list: IntList): Cursor {
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
export function intersection(sets: OrdinalSet[]): OrdinalStream {
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

export function grownTo<T extends Int32Array | Float64Array>(array: T, size: number): T {
  const bigger = new (array.constructor as new (size: number) => T)(size);
  bigger.set(array);
  return bigger;
}

export function grown(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Drops a list's spare capacity (a copy when it has some): what grew by doubling holds what it needs only. */
export function trim<T extends Int32Array | Float64Array>(list: { data: T; length: number }) {
  if (list.data.length > list.length) list.data = list.data.slice(0, list.length) as T;
}

/** Points a list at the given entries, all of them held (a list read from a snapshot). */
export function fill<T extends Int32Array | Float64Array>(list: { data: T; length: number }, data: T) {
  list.data = data;
  list.length = data.length;
}

/** Accepted ordinals of a stream, counted up to `limit` (order does not matter for a count). */
export function countUpTo(stream: OrdinalStream, accept: (ordinal: number) => boolean, limit: number): number {
  let count = 0;
  for (let ordinal = stream.next(); ordinal >= 0 && count < limit; ordinal = stream.next()) if (accept(ordinal)) count++;
  return count;
}

/**
 * Up to `read` accepted ordinals of a stream, best first by `compare` (newest change first), at
 * most `read` of them. Stops once every ordinal left is older than the oldest one held:
 * `prefixMax[o]` is the latest change among ordinals 0..o, `changed[o]` the ordinal's own.
 */
export function newestOf(
  stream: OrdinalStream,
  accept: (ordinal: number) => boolean,
  read: number,
  compare: (a: number, b: number) => number,
  prefixMax: Float64Array,
  changed: Float64Array,
): number[] {
  if (read <= 0) return [];
  // A max-heap on rank: the root is the row ranked last, the one a better row replaces.
  const heap: number[] = [];
  const worse = (a: number, b: number) => compare(a, b) > 0;
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
  return heap.sort(compare);
}

/** The alive ordinals a set of access keys lets see, as bits, for the ordinals below `upTo`. */
export interface Sight {
  bits: Int32Array;
  upTo: number;
  /** Entries of the keys' lists: the sight's members or more (a record may hold several of the keys). */
  size: number;
}

/** Sights kept for the most recent sets of access keys (an eighth of the ordinal count in bytes each). */
const SIGHTS_KEPT = 64;

/** What each recently seen set of access keys lets see, as bits (extended as ordinals are added; most recent last). */
export class Sights {
  private readonly kept = new Map<string, Sight>();

  /** A dead ordinal leaves every sight kept. */
  kill(ordinal: number): void {
    for (const sight of this.kept.values()) if (ordinal < sight.upTo) clearBit(sight.bits, ordinal);
  }

  /** The sight named `name` of the keys whose lists are given, extended to the ordinals below `ordinals`. */
  of(name: string, lists: IntList[], alive: Uint8Array, ordinals: number): Sight {
    let sight = this.kept.get(name);
    if (sight) this.kept.delete(name);
    else if (this.kept.size >= SIGHTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    sight ??= { bits: new Int32Array(0), upTo: 0, size: 0 };
    this.kept.set(name, sight);
    if (sight.upTo < ordinals) {
      // The ordinals added since: at the end of each (ascending) list. Only the alive ones: kill
      // clears an ordinal from every sight kept, so a sight's bits test visibility and life at once.
      for (const list of lists) {
        for (let i = list.length - 1; i >= 0 && list.data[i] >= sight.upTo; i--) {
          if (alive[list.data[i]] !== 1) continue;
          sight.bits = setBit(sight.bits, list.data[i]);
          sight.size++;
        }
      }
      sight.upTo = ordinals;
    }
    return sight;
  }
}
