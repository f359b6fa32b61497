import { createHash } from 'node:crypto';
import { RankedMemory, type IndexedRecord } from './ranked-memory';
import { SnapshotFormatError } from './snapshot-format';

const record = (i: number, extra: Partial<IndexedRecord> = {}): IndexedRecord => ({
  id: `r-${i}`,
  name: `River ${['flow', 'level', 'Ünïcode ✓ 水位'][i % 3]} ${i}`,
  altName: i % 4 === 0 ? `Alt ${i}` : null,
  description: `daily survey ${i % 7}`,
  extra: `station ${i % 5}`,
  ownerId: `u-${i % 3}`,
  accessKeys: i % 2 === 0 ? ['everyone'] : [`user:u-${i % 3}`, 'everyone'],
  groupIds: i % 5 === 0 ? ['g'] : [],
  changedAt: 1_000 + ((i * 37) % 101),
  seq: i + 1,
  ...extra,
});

const bytesOf = (memory: RankedMemory) => Buffer.concat([...memory.snapshot().pieces]);
/** Bytes compared by digest: Jest's deep equality of large buffers takes seconds. */
const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function memoryOf(count: number): RankedMemory {
  const memory = new RankedMemory();
  for (let i = 0; i < count; i++) memory.add(record(i));
  memory.remove('r-3', 1_000);
  memory.add(record(5, { name: 'Replaced', seq: 1_001 }));
  memory.appliedSeq = 1_001;
  return memory;
}

/** A copy of the bytes at an aligned start, as the store hands them over. */
const aligned = (bytes: Buffer) => new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

describe('RankedMemory snapshots', () => {
  it('restores a memory that writes the same snapshot and finds the same ordinals', () => {
    const memory = memoryOf(3_000);
    const bytes = bytesOf(memory);
    const restored = RankedMemory.restore(aligned(bytes));
    expect(digest(bytesOf(restored))).toBe(digest(bytes));
    expect(restored.appliedSeq).toBe(1_001);
    expect(restored.size).toBe(memory.size);
    expect(restored.ordinalOf('r-3')).toBeUndefined();
    expect(restored.ordinalOf('r-5')).toBe(memory.ordinalOf('r-5'));
    const filter = { keys: [restored.lookup('everyone')], owner: -1, group: restored.lookup('group:g') };
    const read = (m: RankedMemory) => m.newest(m.allWords(['river', '水位'], 'name', filter), (o) => m.passes(o, filter), 50).map((o) => m.idOf(o));
    expect(read(restored)).toEqual(read(memory));
    expect(read(restored).length).toBeGreaterThan(0);
  });

  it('holds the memory as it was when taken, while the memory goes on taking writes', () => {
    const memory = memoryOf(3_000);
    const snapshot = memory.snapshot();
    // New words, keys and names; replaced and removed records; lists that grow past their capacity.
    for (let i = 3_000; i < 6_000; i++) memory.add(record(i, { name: `New word${i}`, accessKeys: [`key-${i}`] }));
    memory.remove('r-10', 10_000);
    memory.add(record(11, { seq: 10_001 }));
    memory.appliedSeq = 10_001;
    expect(digest(Buffer.concat([...snapshot.pieces]))).toBe(digest(bytesOf(memoryOf(3_000))));
    expect(snapshot.appliedSeq).toBe(1_001);
  });

  it('restores an empty memory that takes writes', () => {
    const restored = RankedMemory.restore(aligned(bytesOf(new RankedMemory(4))));
    restored.add(record(1, { seq: 5 }));
    expect(restored.ordinalOf('r-1')).toBe(0);
    expect(restored.hasAllWords(0, ['river'], 'name')).toBe(true);
  });

  it('rejects bytes that are not a whole snapshot of this format', () => {
    const bytes = bytesOf(memoryOf(100));
    expect(() => RankedMemory.restore(aligned(bytes.subarray(0, bytes.byteLength - 8)))).toThrow(SnapshotFormatError);
    const otherFormat = Buffer.from(bytes);
    otherFormat.writeDoubleLE(2, 24);
    expect(() => RankedMemory.restore(aligned(otherFormat))).toThrow(/format 2/);
    expect(() => RankedMemory.restore(aligned(Buffer.alloc(64)))).toThrow(SnapshotFormatError);
  });
});
