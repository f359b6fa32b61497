import { OrdinalsByText } from './ordinals-by-text';

const drain = (stream: { next(): number }) => {
  const ordinals: number[] = [];
  for (let ordinal = stream.next(); ordinal >= 0; ordinal = stream.next()) ordinals.push(ordinal);
  return ordinals;
};

describe('OrdinalsByText', () => {
  // Texts repeat (every 7th ordinal the same), some ordinals have none; enough to grow the table many times.
  const texts: Array<string | null> = Array.from({ length: 20_000 }, (_, i) => (i % 11 === 0 ? null : `text ${i % 7 === 0 ? 'same' : i}`));

  it('finds the ordinals of a text, highest first, as they are added one by one and all at once', () => {
    const oneByOne = new OrdinalsByText((ordinal) => texts[ordinal]);
    texts.forEach((_, ordinal) => oneByOne.add(ordinal));
    const atOnce = new OrdinalsByText((ordinal) => texts[ordinal]);
    atOnce.addAll(texts.length);
    const same = texts.flatMap((text, ordinal) => (text === 'text same' ? [ordinal] : [])).reverse();
    for (const byText of [oneByOne, atOnce]) {
      expect(byText.size).toBe(texts.filter((text) => text !== null).length);
      expect(drain(byText.stream('text same'))).toEqual(same);
      expect(byText.highest('text same')).toBe(same[0]);
      expect(byText.highest('text 19997')).toBe(19_997);
      expect(drain(byText.stream('text 1'))).toEqual([1]);
      // Not entered: ordinals without a text, and texts no ordinal has.
      expect(byText.highest('text 0')).toBe(-1);
      expect(drain(byText.stream('nothing'))).toEqual([]);
    }
  });

  it('takes ordinals after a load of them all', () => {
    const grown = [...texts];
    const byText = new OrdinalsByText((ordinal) => grown[ordinal]);
    byText.addAll(grown.length);
    for (let i = 0; i < 5000; i++) byText.add(grown.push(i % 2 === 0 ? 'text same' : `later ${i}`) - 1);
    expect(byText.highest('text same')).toBe(grown.length - 2);
    expect(byText.highest('later 4999')).toBe(grown.length - 1);
    expect(drain(byText.stream('text same'))).toEqual(grown.flatMap((text, ordinal) => (text === 'text same' ? [ordinal] : [])).reverse());
  });

  it('holds no chain for a text no ordinal has, until one comes (alternate names)', () => {
    const alternates: Array<string | null> = new Array(3000).fill(null);
    const byText = new OrdinalsByText((ordinal) => alternates[ordinal]);
    byText.addAll(alternates.length);
    expect(byText.size).toBe(0);
    alternates.push('alt');
    byText.add(3000);
    expect(drain(byText.stream('alt'))).toEqual([3000]);
  });
});
