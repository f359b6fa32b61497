import { SeededRandom, seededRandom } from './seeded-random';

describe('SeededRandom', () => {
  it('draws what the mulberry32 closure drew before it (sketches and samples must not change)', () => {
    const random = new SeededRandom(0x5ca1e);
    expect([random.next(), random.next(), random.next(), random.next()]).toEqual([
      0.6816552649252117, 0.9348357226699591, 0.8263894834090024, 0.6526495593134314,
    ]);
    const fn = seededRandom(0x5ca1e);
    expect([fn(), fn()]).toEqual([0.6816552649252117, 0.9348357226699591]);
  });

  it('below(n) is Math.floor(next() * n)', () => {
    const random = new SeededRandom(0x5ca1e);
    expect([20_001, 20_002, 20_003, 20_004].map((n) => random.below(n))).toEqual([13633, 18698, 16530, 13055]);
    const a = new SeededRandom(7);
    const b = new SeededRandom(7);
    for (let n = 1; n < 2000; n += 7) expect(a.below(n)).toBe(Math.floor(b.next() * n));
  });
});
