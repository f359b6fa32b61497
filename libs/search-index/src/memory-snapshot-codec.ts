import { fill, FloatList, IntList, type Postings } from './posting-lists';
import { arrayFrame, bytesOf, frame, FrameReader, SnapshotFormatError, stringFrames } from './snapshot-format';

/**
 * The binary snapshot of a RankedMemory (ranked-memory.ts), encoded and decoded: what the memory
 * holds, as frames of snapshot-format.ts. No I/O: memory-snapshots.ts stores the bytes.
 */

/**
 * Bump whenever what a snapshot holds, or what add() derives from a record (tokenizing), changes.
 * 3: no exact-name lists (derived from the names at restore: ordinals-by-text.ts).
 */
export const SNAPSHOT_FORMAT = 3;
/** "DCRM" read as a native uint32: a snapshot from a machine of the other byte order fails this. */
const SNAPSHOT_MAGIC = 0x4d524344;

export interface MemorySnapshot {
  /** The store's write sequence the snapshot includes. */
  appliedSeq: number;
  ordinals: number;
  /** The snapshot's bytes, produced as they are read. */
  pieces: Iterable<Uint8Array>;
}

/** What a memory holds, as a snapshot reads and writes it (RankedMemory's fields, by reference). */
export interface MemoryParts {
  appliedSeq: number;
  disorder: number;
  ids: string[];
  names: string[];
  altNames: (string | null)[];
  changed: FloatList;
  prefixMax: FloatList;
  seqs: FloatList;
  alive: Uint8Array;
  owners: IntList;
  accessStart: IntList;
  accessPool: IntList;
  groupStart: IntList;
  groupPool: IntList;
  nameTermStart: IntList;
  nameTermPool: IntList;
  interned: Map<string, number>;
  keyLists: Map<number, IntList>;
  /** In the order terms were first met: a term's number is its place. */
  postings: Map<string, Postings>;
}

/** Lists measured per piece of the lengths frame, so producing it never holds the thread long. */
const LIST_BLOCK = 16_384;
/** Entries encoded per frame of list entries: what encoding one frame holds the thread for. */
const BLOCK_ENTRIES = 262_144;

/**
 * The memory as it stands now, as binary pieces produced when iterated. Taking it costs a copy of
 * the alive flags only: everything else is appended to and never changed in place (lists ascend,
 * so what a list held now is its entries below the current ordinal count), so writing may go on
 * while the memory takes further writes.
 */
export function encodeMemory(parts: MemoryParts): MemorySnapshot {
  const ordinals = parts.ids.length;
  const appliedSeq = parts.appliedSeq;
  const meta = new Float64Array([
    SNAPSHOT_FORMAT,
    ordinals,
    appliedSeq,
    parts.disorder,
    parts.interned.size,
    parts.keyLists.size,
    parts.postings.size,
    parts.accessPool.length,
    parts.groupPool.length,
    parts.nameTermPool.length,
  ]);
  const alive = parts.alive.slice(0, ordinals);
  return { appliedSeq, ordinals, pieces: snapshotPieces(parts, meta, alive) };
}

/** The bytes of a snapshot whose counts are `meta`: what the memory held when they were taken. */
function* snapshotPieces(parts: MemoryParts, meta: Float64Array, alive: Uint8Array): Generator<Uint8Array> {
  const [, ordinals, , , interned, keyLists, terms, accessPool, groupPool, nameTermPool] = meta;
  yield* arrayFrame(new Uint32Array([SNAPSHOT_MAGIC]));
  yield* arrayFrame(meta);
  yield* stringFrames(ordinals, parts.ids);
  yield* stringFrames(ordinals, parts.names);
  yield* stringFrames(ordinals, parts.altNames);
  yield* arrayFrame(parts.changed.data.subarray(0, ordinals));
  yield* arrayFrame(parts.prefixMax.data.subarray(0, ordinals));
  yield* arrayFrame(parts.seqs.data.subarray(0, ordinals));
  yield* arrayFrame(alive);
  yield* arrayFrame(parts.owners.data.subarray(0, ordinals));
  yield* arrayFrame(parts.accessStart.data.subarray(0, ordinals));
  yield* arrayFrame(parts.accessPool.data.subarray(0, accessPool));
  yield* arrayFrame(parts.groupStart.data.subarray(0, ordinals));
  yield* arrayFrame(parts.groupPool.data.subarray(0, groupPool));
  yield* arrayFrame(parts.nameTermStart.data.subarray(0, ordinals));
  yield* arrayFrame(parts.nameTermPool.data.subarray(0, nameTermPool));
  yield* stringFrames(interned, parts.interned.keys());
  yield* arrayFrame(Int32Array.from(first(parts.keyLists.keys(), keyLists)));
  yield* listFrames(() => first(parts.keyLists.values(), keyLists), keyLists, ordinals);
  yield* stringFrames(terms, parts.postings.keys());
  yield* listFrames(() => postingLists(first(parts.postings.values(), terms)), terms * 3, ordinals);
}

/** What a snapshot holds; SnapshotFormatError when it is not one of this format. */
export function decodeMemory(bytes: Uint8Array): MemoryParts {
  const reader = new FrameReader(bytes);
  if (reader.uint32s(1)[0] !== SNAPSHOT_MAGIC) throw new SnapshotFormatError('not a ranked-memory snapshot');
  const meta = reader.float64s();
  // The format first: another format's counts may be others.
  if (meta[0] !== SNAPSHOT_FORMAT) throw new SnapshotFormatError(`snapshot format ${meta[0]}, ${SNAPSHOT_FORMAT} expected`);
  if (meta.length !== 10) throw new SnapshotFormatError(`snapshot counts: ${meta.length}, 10 expected`);
  const [, ordinals, appliedSeq, disorder, interned, keyLists, terms, accessPool, groupPool, nameTermPool] = meta;
  // Copies, not views: nothing then holds the snapshot's buffer, freed once restored (its strings
  // and compressed lists are decoded into memory of their own).
  const floats = (data: Float64Array) => {
    const list = new FloatList();
    fill(list, data.slice());
    return list;
  };
  const ints = (data: Int32Array) => new IntList(data.slice(), true);
  const parts: MemoryParts = {
    appliedSeq,
    disorder,
    ids: reader.strings(ordinals) as string[],
    names: reader.strings(ordinals) as string[],
    altNames: reader.strings(ordinals),
    changed: floats(reader.float64s(ordinals)),
    prefixMax: floats(reader.float64s(ordinals)),
    seqs: floats(reader.float64s(ordinals)),
    alive: reader.uint8s(ordinals).slice(),
    owners: ints(reader.int32s(ordinals)),
    accessStart: ints(reader.int32s(ordinals)),
    accessPool: ints(reader.int32s(accessPool)),
    groupStart: ints(reader.int32s(ordinals)),
    groupPool: ints(reader.int32s(groupPool)),
    nameTermStart: ints(reader.int32s(ordinals)),
    nameTermPool: ints(reader.int32s(nameTermPool)),
    interned: new Map(),
    keyLists: new Map(),
    postings: new Map(),
  };
  for (let i = 0; i < nameTermPool; i++) if (parts.nameTermPool.data[i] >= terms) throw new SnapshotFormatError('snapshot name term out of range');
  reader.strings(interned).forEach((key, value) => parts.interned.set(key!, value));
  const keys = reader.int32s(keyLists);
  readLists(reader, keyLists, ordinals).forEach((list, i) => parts.keyLists.set(keys[i], list));
  const words = reader.strings(terms);
  const lists = readLists(reader, terms * 3, ordinals);
  words.forEach((word, i) => parts.postings.set(word!, { id: i, name: lists[3 * i], summary: lists[3 * i + 1], all: lists[3 * i + 2] }));
  // A term's number is its place: a term met twice would shift every one after it.
  if (parts.postings.size !== terms) throw new SnapshotFormatError('snapshot terms repeat');
  if (!reader.done) throw new SnapshotFormatError('snapshot has trailing bytes');
  return parts;
}

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
    const end = bytes.length;
    let read = 0;
    // Inlined, one byte the common case: a closure call per entry took seconds at tens of millions.
    let value = 0;
    let shift = 0;
    let byte = 0x80;
    for (; read < end && byte & 0x80; shift += 7) {
      byte = bytes[read++];
      value += (byte & 0x7f) * 2 ** shift;
    }
    const blockEnd = blockStart + value;
    if (blockEnd <= blockStart || blockEnd > count || byte & 0x80) throw new SnapshotFormatError('snapshot list block out of range');
    for (let i = blockStart; i < blockEnd; i++) {
      const start = at;
      const stop = at + lengths[i];
      let previous = -1;
      while (at < stop) {
        if (read >= end) throw new SnapshotFormatError('snapshot list entries end early');
        byte = bytes[read++];
        if (byte < 0x80) {
          entries[at++] = previous += byte;
          continue;
        }
        // Integer arithmetic only (a float here slowed every entry): a difference below 2^31 takes 5 bytes at most.
        value = byte & 0x7f;
        shift = 7;
        do {
          if (read >= end || shift > 28) throw new SnapshotFormatError('snapshot list entries end early');
          byte = bytes[read++];
          value |= (byte & 0x7f) << shift;
          shift += 7;
        } while (byte & 0x80);
        if (value < 0) throw new SnapshotFormatError('snapshot list entry out of range');
        entries[at++] = previous += value;
      }
      if (previous >= ordinals) throw new SnapshotFormatError('snapshot list entry out of range');
      lists[i] = new IntList(entries.subarray(start, at), true);
    }
    if (read !== end) throw new SnapshotFormatError('snapshot list entries do not add up');
    blockStart = blockEnd;
  }
  return lists;
}
