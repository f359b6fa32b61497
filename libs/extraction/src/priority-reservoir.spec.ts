import { PriorityReservoir } from './priority-reservoir';

const SIZE = 1000;
const sortedPairs = ({ values, priorities }: { values: Float64Array; priorities: Float64Array }) =>
  Array.from(priorities, (priority, i) => [priority, values[i]]).sort((a, b) => a[0] - b[0]);

/** Blocks of numbers: block b holds `perBlock` numbers b * perBlock + i. */
function fill(reservoir: PriorityReservoir, blocks: number[], perBlock: number): void {
  for (const block of blocks) {
    reservoir.startBlock(block);
    for (let i = 0; i < perBlock; i++) reservoir.add(block * perBlock + i);
  }
}

describe('PriorityReservoir', () => {
  it('keeps the numbers of the smallest priorities of all it was offered', () => {
    // Every priority, kept by a reservoir large enough to hold them all.
    const all = new PriorityReservoir(100_000);
    fill(all, [0, 1, 2, 3, 4, 5, 6, 7], 10_000);
    const everything = sortedPairs(all.state());
    expect(everything).toHaveLength(80_000);
    const kept = new PriorityReservoir(SIZE);
    fill(kept, [0, 1, 2, 3, 4, 5, 6, 7], 10_000);
    const state = kept.state();
    expect(state.seen).toBe(80_000);
    expect(sortedPairs(state)).toEqual(everything.slice(0, SIZE));
    expect(Array.from(kept.numbers().sorted)).toEqual(
      everything
        .slice(0, SIZE)
        .map(([, value]) => value)
        .sort((a, b) => a - b),
    );
  });

  it('keeps the same numbers whichever reservoir read which block, once merged', () => {
    const one = new PriorityReservoir(SIZE);
    fill(one, [0, 1, 2, 3, 4, 5], 5_000);
    const [a, b] = [new PriorityReservoir(SIZE), new PriorityReservoir(SIZE)];
    fill(a, [0, 3, 4], 5_000);
    fill(b, [5, 1, 2], 5_000);
    const merged = new PriorityReservoir(SIZE);
    merged.mergeFrom(a.state());
    merged.mergeFrom(b.state());
    expect(sortedPairs(merged.state())).toEqual(sortedPairs(one.state()));
    expect(merged.numbers()).toEqual(one.numbers());
  });

  it('keeps every number while it holds fewer than its size', () => {
    const few = new PriorityReservoir(SIZE);
    fill(few, [0], 10);
    expect(Array.from(few.numbers().sorted)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(few.numbers().seen).toBe(10);
  });
});
