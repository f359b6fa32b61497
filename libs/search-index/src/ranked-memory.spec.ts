import { createHash } from 'node:crypto';
import { RankedMemory, type IndexedRecord } from './ranked-memory';
import { SnapshotFormatError } from './snapshot-format';
import type { TermsByTrigram } from './trigram-index';

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
    const read = (m: RankedMemory) => {
      const visible = m.visibleTo(filter);
      return m.newest(m.allWords(['river', '水位'], 'name', visible), visible.passes, 50).map((o) => m.idOf(o));
    };
    expect(read(restored)).toEqual(read(memory));
    expect(read(restored).length).toBeGreaterThan(0);
    // Exact names and alternate names, derived again at the restore (not in the snapshot): the same ordinals, dead ones included.
    const exact = (m: RankedMemory, text: string) => {
      const stream = m.exactNames(text);
      const ordinals: number[] = [];
      for (let ordinal = stream.next(); ordinal >= 0; ordinal = stream.next()) ordinals.push(ordinal);
      return [m.hasExactName(text), ordinals];
    };
    for (const text of ['river level 1', 'alt 4', 'replaced', 'river flow 3', 'river ünïcode ✓ 水位 5', 'nothing'])
      expect(exact(restored, text)).toEqual(exact(memory, text));
    expect(exact(restored, 'alt 4')).toEqual([true, [memory.ordinalOf('r-4')]]);
    expect(exact(restored, 'river flow 3')).toEqual([true, [3]]);
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

  it('drops the spare capacity of its lists without changing what it holds, and takes writes after', () => {
    const memory = memoryOf(3_000);
    const capacity = () => (memory as unknown as { changed: { data: Float64Array } }).changed.data.length;
    expect(capacity()).toBeGreaterThan(memory.ordinals);
    const before = digest(bytesOf(memory));
    memory.trim();
    expect(capacity()).toBe(memory.ordinals);
    expect(digest(bytesOf(memory))).toBe(before);
    memory.add(record(3_000, { seq: 2_000 }));
    expect(memory.ordinalOf('r-3000')).toBe(memory.ordinals - 1);
    expect(memory.hasAllWords(memory.ordinals - 1, ['river'], 'name')).toBe(true);
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
    otherFormat.writeDoubleLE(99, 24);
    expect(() => RankedMemory.restore(aligned(otherFormat))).toThrow(/format 99/);
    expect(() => RankedMemory.restore(aligned(Buffer.alloc(64)))).toThrow(SnapshotFormatError);
  });
});

/**
 * Reads against a plain scan of the records: intersections of dense lists (bits), of sparse ones
 * (the shortest list read, the others tested), the viewer's sight, the owner's and the project's
 * lists, before and after the memory takes more writes (bits and sights kept up to date).
 */
describe('RankedMemory reads', () => {
  const WORDS = ['common', 'medium', 'medium2', 'rare', 'rarest'];
  /** Word i of WORDS in about 1/2, 1/12, 1/10, 1/60 and 1/400 of the texts: dense and sparse lists at once. */
  const wordsOf = (i: number, salt: number) => WORDS.filter((_, w) => ((i * 7919 + salt * 104_729 + w * 31) >>> 0) % [2, 12, 10, 60, 400][w] === 0);
  const recordOf = (i: number, seq = i + 1): IndexedRecord => ({
    id: `r-${i}`,
    name: [...wordsOf(i, 1), `n${i}`].join(' '),
    altName: null,
    description: wordsOf(i, 2).join(' '),
    extra: wordsOf(i, 3).join(' '),
    ownerId: `u-${i % 9}`,
    // Everyone sees a twentieth; organisation o-k its own ninth; user u-1 a few shared ones.
    accessKeys: [...(i % 20 === 0 ? ['everyone'] : []), `org:o-${i % 9}`, ...(i % 97 === 0 ? ['user:u-1'] : [])],
    groupIds: i % 13 === 0 ? ['g'] : [],
    changedAt: 1_000 + i,
    seq,
  });
  const fields = {
    name: (r: IndexedRecord) => r.name,
    summary: (r: IndexedRecord) => `${r.name} ${r.description}`,
    all: (r: IndexedRecord) => `${r.name} ${r.description} ${r.extra}`,
  } as const;

  function check(memory: RankedMemory, records: Map<string, IndexedRecord>) {
    const filters = [
      { keys: ['everyone'] },
      { keys: ['everyone', 'org:o-1', 'user:u-1'] },
      { keys: ['user:u-1'] },
      { keys: ['nobody'] },
      { keys: ['everyone', 'org:o-2'], owner: 'owner:u-2' },
      { keys: ['everyone', 'org:o-3'], group: 'group:g' },
      { keys: ['everyone'], owner: 'owner:u-0', group: 'group:g' },
    ];
    // One to three dense lists with the sight (two to four arrays of bits ANDed), and sparse lists.
    const wordSets = [
      ['common'],
      ['medium'],
      ['rare'],
      ['common', 'medium'],
      ['common', 'rare'],
      ['medium', 'rarest'],
      ['common', 'medium', 'rare'],
      ['common', 'medium', 'medium2'],
    ];
    for (const f of filters) {
      const filter = {
        keys: f.keys.map((key) => memory.lookup(key)),
        owner: f.owner ? memory.lookup(f.owner) : -1,
        group: f.group ? memory.lookup(f.group) : -1,
      };
      const sees = (r: IndexedRecord) =>
        (f.owner ? `owner:${r.ownerId}` === f.owner : r.accessKeys.some((key) => f.keys.includes(key))) &&
        (!f.group || r.groupIds.includes(f.group.slice('group:'.length)));
      const expected = (keep: (r: IndexedRecord) => boolean) =>
        [...records.values()]
          .filter((r) => sees(r) && keep(r))
          .sort((a, b) => memory.ordinalOf(b.id)! - memory.ordinalOf(a.id)!)
          .map((r) => r.id);
      const visible = memory.visibleTo(filter);
      const read = (stream: ReturnType<RankedMemory['visible']>) => Array.from(memory.collect(stream, visible.passes, Infinity), (o) => memory.idOf(o));
      // The streams themselves, only dead entries (replaced or removed) left out: the filter's own
      // test must not be what hides a record the intersection should not have given.
      const current = (o: number) => memory.ordinalOf(memory.idOf(o)) === o;
      const readStream = (stream: ReturnType<RankedMemory['visible']>) => Array.from(memory.collect(stream, current, Infinity), (o) => memory.idOf(o));
      expect({ f, ids: read(memory.visible(visible)) }).toEqual({ f, ids: expected(() => true) });
      for (const words of wordSets) {
        for (const field of ['name', 'summary', 'all'] as const) {
          const has = (r: IndexedRecord) => words.every((word) => fields[field](r).split(' ').includes(word));
          expect({ f, words, field, ids: read(memory.allWords(words, field, visible)) }).toEqual({ f, words, field, ids: expected(has) });
          expect({ f, words, field, stream: readStream(memory.allWords(words, field, visible)) }).toEqual({ f, words, field, stream: expected(has) });
        }
      }
    }
    for (const words of wordSets) {
      for (const field of ['name', 'summary', 'all'] as const) {
        const has = (r: IndexedRecord) => words.every((word) => fields[field](r).split(' ').includes(word));
        const differing = [...records.values()].filter((r) => memory.hasAllWords(memory.ordinalOf(r.id)!, words, field) !== has(r)).map((r) => r.id);
        expect({ words, field, differing }).toEqual({ words, field, differing: [] });
      }
    }
  }

  it("collects the accepted ordinals in the stream's order, up to the limit, however many there are", () => {
    const memory = memoryOf(3_000);
    const visible = memory.visibleTo({ keys: [memory.lookup('everyone')], owner: -1, group: -1 });
    const every = Array.from(memory.collect(memory.visible(visible), visible.passes, Infinity));
    // Every record but the removed one, newest ordinal first: more than the reused array first holds.
    expect(every).toHaveLength(2_999);
    expect(every).toEqual([...every].sort((a, b) => b - a));
    expect(Array.from(memory.collect(memory.visible(visible), visible.passes, 10))).toEqual(every.slice(0, 10));
    const even = (o: number) => visible.passes(o) && o % 2 === 0;
    expect(Array.from(memory.collect(memory.visible(visible), even, 1_001))).toEqual(every.filter((o) => o % 2 === 0).slice(0, 1_001));
  });

  it('finds what a scan of the records finds, as the memory takes writes', () => {
    const memory = new RankedMemory();
    const records = new Map<string, IndexedRecord>();
    const add = (record: IndexedRecord) => {
      memory.add(record);
      records.set(record.id, record);
    };
    for (let i = 0; i < 4_000; i++) add(recordOf(i));
    check(memory, records);
    // Lists and sights now hold bits; more records, replaced and removed ones must show in them.
    for (let i = 4_000; i < 6_000; i++) add(recordOf(i));
    for (let i = 0; i < 300; i++) add({ ...recordOf(i * 7 + 1, 10_000 + i), name: `common rare replaced ${i}`, accessKeys: ['everyone'] });
    for (let i = 0; i < 200; i++) {
      memory.remove(`r-${i * 11}`, 20_000);
      records.delete(`r-${i * 11}`);
    }
    check(memory, records);
  });
});

describe('RankedMemory typo similarity', () => {
  /** pg_trgm's strict word similarity as sets of strings: the best run of whole name words, up to one word longer than the text. */
  const trigrams = (words: string[]) => new Set(words.flatMap((word) => Array.from({ length: word.length + 1 }, (_, i) => `  ${word} `.slice(i, i + 3))));
  function reference(name: string, text: string): number {
    const textWords = text.split(' ');
    const wanted = trigrams(textWords);
    const words = name
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    let best = 0;
    for (let start = 0; start < words.length; start++) {
      for (let end = start + 1; end <= Math.min(words.length, start + textWords.length + 1); end++) {
        const run = trigrams(words.slice(start, end));
        const common = [...run].filter((trigram) => wanted.has(trigram)).length;
        best = Math.max(best, common / (wanted.size + run.size - common));
      }
    }
    return best;
  }

  /** A memory of names of 1-5 words of the vocabulary, drawn from a seeded generator, every one visible. */
  function randomNames(vocabulary: string[], count: number, seed: number) {
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const memory = new RankedMemory();
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      names.push(Array.from({ length: 1 + Math.floor(random() * 5) }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' '));
      memory.add({ ...record(i), name: names[i], altName: null, accessKeys: ['everyone'], groupIds: [] });
    }
    return { memory, names, visible: memory.visibleTo({ keys: [memory.lookup('everyone')], owner: -1, group: -1 }) };
  }

  it('measures every name as the string sets do, whichever words of it share trigrams with the text', () => {
    const vocabulary = [
      'temperature',
      'temperatures',
      'tempera',
      'ture',
      'agriculture',
      'tide',
      'traffic',
      'river',
      'rivers',
      'rivr',
      'flow',
      'flown',
      'low',
      'te',
      '1995',
    ];
    const { memory, names, visible } = randomNames(vocabulary, 2_000, 3);
    for (const text of ['temperture', 'rivr', 'temperture rivr', 'tide traffic flow', 'ture', 'lowr flw']) {
      const words = text.split(' ');
      memory.typoCandidates(words, 0.3, visible);
      const differing = names.filter((name, i) => memory.nameSimilarity(i, words.length) !== reference(name, text));
      expect({ text, differing }).toEqual({ text, differing: [] });
    }
  });

  it("gives a candidate the close word's similarity without measuring it only when no word of its name could lift it", () => {
    // For "temperture", temperature is the one close word (9 of the text's 11 trigrams, 3 of its own outside). "ertu"
    // shares the two it lacks, and "temperature ertu" comes closer than temperature alone; "pert" and "alert" share
    // "ert" but lift no name, and "te" shares two with fewer outside the text: the names holding any of them are
    // measured. "turbo" shares trigrams temperature has, with more outside the text: it cannot lift a name.
    const vocabulary = ['temperature', 'ertu', 'alert', 'turbo', 'te', 'pert', 'river', 'flow', 'data', '1995'];
    const { memory, names, visible } = randomNames(vocabulary, 3_000, 7);
    const decidedByCloseWord = (ordinal: number) => (memory as unknown as { termsByTrigram: TermsByTrigram }).termsByTrigram.candidateSimilarity(ordinal) >= 0;
    let decided = 0;
    let measured = 0;
    for (const text of ['temperture', 'rivr', 'temperture flow', 'dat', 'temperture rivr']) {
      const words = text.split(' ');
      const candidates = Array.from(memory.typoCandidates(words, 0.3, visible));
      expect(candidates.length).toBeGreaterThan(0);
      const differing = candidates.filter((o) => memory.candidateSimilarity(o, words.length) !== reference(names[o], text));
      expect({ text, differing }).toEqual({ text, differing: [] });
      for (const o of candidates)
        if (decidedByCloseWord(o)) decided++;
        else measured++;
    }
    // Both ways were taken: names with "pert" or "te" beside temperature were measured, most others were not.
    expect(decided).toBeGreaterThan(1_000);
    expect(measured).toBeGreaterThan(1_000);
  });

  it('gives each candidate once, newest ordinal first, from one close word or several', () => {
    const memory = new RankedMemory();
    const names = ['temperature a', 'rivers', 'temperatures', 'temperature temperatures', 'flow', 'temperature', 'rivers temperature', 'hidden temperature'];
    names.forEach((name, i) =>
      memory.add({ ...record(i), name, altName: null, accessKeys: [name.startsWith('hidden') ? 'nobody' : 'everyone'], groupIds: [] }),
    );
    const visible = memory.visibleTo({ keys: [memory.lookup('everyone')], owner: -1, group: -1 });
    const candidates = (text: string) => Array.from(memory.typoCandidates(text.split(' '), 0.3, visible));
    // "temperatur": temperature and temperatures are close (two lists); "rivrs": rivers only (one list).
    expect(candidates('temperatur')).toEqual([6, 5, 3, 2, 0]);
    expect(candidates('rivrs')).toEqual([6, 1]);
    expect(candidates('temperatur rivrs')).toEqual([6, 5, 3, 2, 1, 0]);
    // The bits used to merge several lists are clear again: the next call finds the same.
    expect(candidates('temperatur')).toEqual([6, 5, 3, 2, 0]);
  });
});
