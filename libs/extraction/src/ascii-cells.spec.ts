// Reading a cell from its bytes must give what column.ts gives for its text: the same trimming,
// missing tokens, kind and number (to the bit), on hand-picked edge cases and on many generated ones.
import { ASK_TEXT, asciiCell, classifyAscii, isMissingAscii, isNumberAscii, trimAscii } from './ascii-cells';
import { classify, isMissingText } from './column';
import { seededRandom } from './seeded-random';
import { VALUE_KINDS } from './value-kinds';
import { TopWords, WordCounts, words } from './words';

/** What the text path makes of a cell: missing, or its kind and number. */
function byText(text: string, decimalComma: boolean): string {
  const trimmed = text.length > 0 && (text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32) ? text.trim() : text;
  if (isMissingText(trimmed)) return 'missing';
  const { kind, number } = classify(trimmed, decimalComma);
  return number === undefined ? kind : `${kind} ${Object.is(number, -0) ? '-0' : String(number)}`;
}

function byBytes(text: string, decimalComma: boolean): string {
  const bytes = Buffer.from(` ${text} `, 'latin1').subarray(1, text.length + 1); // not at offset 0 of its memory
  trimAscii(bytes, 0, bytes.length);
  const { start, end } = asciiCell;
  if (isMissingAscii(bytes, start, end)) return 'missing';
  const code = classifyAscii(bytes, start, end, decimalComma);
  if (code === ASK_TEXT) return classify(bytes.toString('latin1', start, end), decimalComma).kind;
  const kind = VALUE_KINDS[code];
  if (kind !== 'integer' && kind !== 'float') return kind;
  const number = asciiCell.number;
  return `${kind} ${Object.is(number, -0) ? '-0' : String(number)}`;
}

const EDGE_CASES = [
  '',
  ' ',
  '\t',
  ' \r\n',
  'NA',
  'na',
  ' n/a ',
  'NULL',
  'None',
  'nan',
  'NaN',
  '?',
  '""',
  '#N/A',
  'nah',
  'n',
  'none2',
  '0',
  '-0',
  '+0',
  '00',
  '007',
  '-0.0',
  '0.',
  '.0',
  '.',
  '-',
  '+',
  '-.',
  '+.5',
  '5.',
  '1e5',
  '1E+5',
  '1e-5',
  '1e',
  '1e+',
  'e5',
  '.e5',
  '123456789012345',
  '1234567890123456',
  '-123456789012345',
  '12345678901234567890',
  '0.1',
  '0.30000000000000004',
  '1.7976931348623157e308',
  '1e309',
  '-1e309',
  '4.9e-324',
  '1e-400',
  '123.456e-7',
  '9007199254740993',
  '9007199254740993.0',
  '3.14159265358979323846',
  '0.000000000000000000001',
  '100000000000000000000000',
  '1e22',
  '1e23',
  '1.5e22',
  '123456789012345e7',
  '1,5',
  '-1,25',
  '+3,0',
  '1,',
  ',5',
  '1,5,6',
  '1.5,2',
  ' 2,5 ',
  '12,345',
  '2024-01-31',
  '2024-01-3x',
  '2x24-01-31',
  '2024-0.-31',
  '2024-1-31',
  '2024-01-31T10:20',
  '2024-01-31 10:20:30.5Z',
  '31/01/2024',
  '1.2.2024',
  '2024/1/31',
  '20240131',
  '10:20',
  '1:20:30',
  '10.20.30',
  '25:99',
  '10:2',
  'true',
  'False',
  'YES',
  'no',
  'No ',
  'yess',
  'tru',
  't',
  'y',
  'n',
  'text',
  'Hello world',
  '  padded  ',
  'x\u000b',
  '\u000btab',
  '\u0001ctl',
  '-abc',
  '+1a',
  '1a',
  '0x10',
  '0b1',
  '0o7',
  'Infinity',
  '-Infinity',
  '1_000',
];

function randomCell(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const digits = (n: number): string => Array.from({ length: n }, () => pick([...'0123456789'])).join('');
  const parts = [
    () => pick(['', '+', '-']) + digits(Math.floor(random() * 20)),
    () => pick(['', '-']) + digits(Math.floor(random() * 8)) + '.' + digits(Math.floor(random() * 12)),
    () =>
      digits(1 + Math.floor(random() * 3)) +
      '.' +
      digits(Math.floor(random() * 4)) +
      pick(['e', 'E']) +
      pick(['', '+', '-']) +
      digits(Math.floor(random() * 4)),
    () => digits(1 + Math.floor(random() * 6)) + ',' + digits(Math.floor(random() * 4)),
    () => `${digits(4)}-${digits(2)}-${digits(2)}`,
    () => pick([' ', '\t', '']) + digits(3) + pick([' ', '']),
    () => Array.from({ length: Math.floor(random() * 6) }, () => pick([...'0123456789.,-+eE: aZ'])).join(''),
  ];
  return pick(parts)();
}

describe('ASCII cells read from bytes', () => {
  it.each([false, true])('agree with the text path on edge cases (decimal comma %s)', (decimalComma) => {
    for (const text of EDGE_CASES) expect([text, byBytes(text, decimalComma)]).toEqual([text, byText(text, decimalComma)]);
  });

  it('agree with the text path on 200,000 generated cells', () => {
    const random = seededRandom(13);
    for (let i = 0; i < 200_000; i++) {
      const text = randomCell(random);
      const decimalComma = i % 2 === 0;
      if (byBytes(text, decimalComma) !== byText(text, decimalComma))
        expect([text, decimalComma, byBytes(text, decimalComma)]).toEqual([text, decimalComma, byText(text, decimalComma)]);
    }
  });
});

describe("a number's canonicalEnd", () => {
  /** The cell's text up to asciiCell.canonicalEnd, or null when it is -1 (for numbers isNumberAscii accepts). */
  const canonicalText = (text: string): string | null => {
    const bytes = Buffer.from(text, 'latin1');
    if (!isNumberAscii(bytes, 0, bytes.length)) throw new Error(`not a number: ${text}`);
    const end = asciiCell.canonicalEnd;
    return end < 0 ? null : text.slice(0, end);
  };

  it('drops the zeros ending a fraction, and the point they leave', () => {
    expect(['2.50', '3.0', '100.000', '0.10', '5.', '12', '-1.20'].map(canonicalText)).toEqual(['2.5', '3', '100', '0.1', '5', '12', '-1.2']);
    // Not the cell's text minus trailing zeros: String() writes these another way.
    expect(['-0.0', '-0', '00.5', '.50', '+1.0', '1.50e3', '0.00000010', '1234567890123456.0'].map(canonicalText)).toEqual(Array(8).fill(null));
  });

  it('gives String(Number(text)) whenever it answers, on edge cases and 200,000 generated cells', () => {
    const random = seededRandom(17);
    const cells = [
      ...EDGE_CASES,
      ...Array.from({ length: 200_000 }, () => randomCell(random) + (random() < 0.3 ? '0'.repeat(1 + Math.floor(random() * 3)) : '')),
    ];
    let answered = 0;
    for (const text of cells) {
      const bytes = Buffer.from(text, 'latin1');
      if (!isNumberAscii(bytes, 0, bytes.length)) continue;
      const canonical = canonicalText(text);
      if (canonical === null) continue;
      answered++;
      if (canonical !== String(Number(text))) expect([text, canonical]).toEqual([text, String(Number(text))]);
    }
    expect(answered).toBeGreaterThan(10_000);
  });
});

describe('WordCounts', () => {
  /** Counts a stream of texts both ways, with a small capacity so pruning happens often. */
  function countBoth(texts: string[], capacity: number): [Array<[string, number]>, Array<[string, number]>] {
    const reference = new TopWords(capacity);
    const counts = new WordCounts(capacity);
    texts.forEach((text, i) => {
      for (const word of words(text)) reference.addIfMeaningful(word);
      const ascii = !/[^\x00-\x7f]/.test(text);
      if (ascii && i % 2 === 0) counts.addAsciiWords(Buffer.from(text, 'latin1'), 0, text.length);
      else counts.addText(text);
    });
    return [counts.entries(), reference.entries()];
  }

  it('counts and prunes as TopWords does, from text and from bytes alike', () => {
    const random = seededRandom(5);
    const vocabulary = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}${'xyz'[i % 3]}`);
    const texts = Array.from({ length: 20_000 }, () => {
      const n = 1 + Math.floor(random() * 6);
      // Zipf-like: low ranks far more often, so pruning keeps something meaningful.
      return Array.from({ length: n }, () => vocabulary[Math.floor(vocabulary.length * random() ** 3)]).join(random() < 0.5 ? ' ' : ', ');
    });
    const [counts, reference] = countBoth(texts, 50);
    expect(counts).toEqual(reference);
  });

  it('reads words as words() does: joiners, case, digits, stop words and numbers', () => {
    const texts = [
      "Don't stop-the music, DON'T",
      'blue-collar  blue--collar -edge edge- a-b',
      "it's the data's 2nd-hand 1990s 3.14 1,000 42 -5",
      'UPPER lower MiXeD x y z',
      "a'b'c a''b",
      'Zürich Köln café',
      'naïve—dash “quoted”',
      'tab\tseparated\nlines',
    ];
    const [counts, reference] = countBoth([...texts, ...texts], 1000);
    expect(counts).toEqual(reference);
  });
});
