// Blocks end at record ends outside quotes, at the same places however the stream is chunked.
import { BlockCutter } from './csv-blocks';
import { seededRandom } from './seeded-random';

function cutsOf(text: string, chunkSize: number, blockBytes: number, lineEnd = 10): number[] {
  const bytes = Buffer.from(text);
  const cutter = new BlockCutter(lineEnd, 0, blockBytes);
  const cuts: number[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) cuts.push(...cutter.cuts(bytes.subarray(at, at + chunkSize), at));
  return cuts;
}

describe('BlockCutter', () => {
  const random = seededRandom(3);
  const rows = Array.from({ length: 3000 }, (_, i) => {
    const quoted = random() < 0.2 ? `"a ""quoted"" text,\nover two lines ${i}"` : `plain ${i}`;
    return `${i},${quoted},${Math.floor(random() * 1000)}`;
  });
  const text = `id,text,n\n${rows.join('\n')}\n`;

  it('cuts just after a line end that is not inside quotes, at least blockBytes after the last cut', () => {
    const cuts = cutsOf(text, text.length, 1000);
    expect(cuts.length).toBeGreaterThan(20);
    let previous = 0;
    for (const cut of cuts) {
      expect(text[cut - 1]).toBe('\n');
      expect(cut - previous).toBeGreaterThanOrEqual(1000);
      // An even number of quotes before the cut: outside any quoted field.
      expect((text.slice(0, cut).match(/"/g) ?? []).length % 2).toBe(0);
      previous = cut;
    }
  });

  it('gives the same cuts whatever the chunks', () => {
    const whole = cutsOf(text, text.length, 1000);
    for (const chunkSize of [1, 7, 64, 999, 1000, 4096]) expect(cutsOf(text, chunkSize, 1000)).toEqual(whole);
  });

  it('ends records at carriage returns in files whose lines end so', () => {
    const cr = 'a,b\r1,"x\ry"\r2,z\r3,w\r';
    expect(cutsOf(cr, 3, 4, 13)).toEqual([12, 20]);
  });
});
