import { bigramsOf, clkOf, dice, linkClks } from './clk';

describe('CLK Bloom-filter encoding (privacy-preserving fuzzy linkage)', () => {
  const key = 'linkage-key';

  it('encodes bigrams of the normalised value', () => {
    expect(bigramsOf(' Jon  Smith')).toEqual([' j', 'jo', 'on', 'n ', ' s', 'sm', 'mi', 'it', 'th', 'h ']);
  });

  it('links a name to its typo with a high Dice coefficient and not to another name', () => {
    const jon = clkOf('Jon Smith', key);
    expect(dice(jon, clkOf('jon smith', key))).toBe(1);
    expect(dice(jon, clkOf('John Smith', key))).toBeGreaterThan(0.8);
    expect(dice(jon, clkOf('Maria Garcia', key))).toBeLessThan(0.5);
  });

  it('depends on the key: the same name under another key does not match', () => {
    expect(dice(clkOf('Jon Smith', key), clkOf('Jon Smith', 'another key'))).toBeLessThan(0.6);
  });

  it('links one to one, best first, above the threshold', () => {
    const left = ['Jon Smith', 'Ada Lovelace', 'Alan Turing'].map((v) => clkOf(v, key));
    const right = ['Alan Turing', 'John Smith', 'Grace Hopper'].map((v) => clkOf(v, key));
    const matches = linkClks(left, right, 0.8).map(({ rowA, rowB }) => [rowA, rowB]);
    expect(matches).toEqual([
      [2, 0],
      [0, 1],
    ]);
  });
});
