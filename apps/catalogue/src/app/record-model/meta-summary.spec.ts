import { statusFromMeta, summariseMeta } from './meta-summary';

const column = (words: string[]) => ({
  MIN: null,
  MAX: null,
  MEAN: null,
  STD: null,
  FORMATTED_VALS: [],
  SAMPLE_VALS: [],
  DUPLICATE_VALS: 0,
  MISSING_VALS: 0,
  WORDSET: words,
  ERRORS: [],
  DICT: {},
});

describe('summariseMeta', () => {
  it('collects headers, words and rows of a table, its sheets and archive members', () => {
    const meta = {
      NAME: 'book.xlsx',
      STATUS: 'partial',
      FILE: { HEADERS: ['County', 'Rate'], TOTAL_ROWS: 10, STATS: { '0': column(['cook', 'kings']), '1': column([]) } },
      SHEETS: [
        { NAME: 'A', HEADERS: ['County', 'Rate'], TOTAL_ROWS: 10, STATS: {} },
        { NAME: 'B', HEADERS: ['Notes'], TOTAL_ROWS: 3, STATS: { '0': column(['source']) } },
      ],
      KEYWORDS: ['unemployment'],
      ERRORS: ['Sheet C is empty'],
      MEMBERS: [{ NAME: 'inner.csv', FILE: { HEADERS: ['id'], TOTAL_ROWS: 5, STATS: {} }, ERRORS: ['line 9: too many fields'] }],
      ENCRYPTED_COLS: ['County'],
    };
    expect(summariseMeta(meta)).toEqual({
      headers: ['County', 'Rate', 'Notes', 'id'],
      words: ['cook', 'kings', 'source', 'unemployment'],
      totalRows: 15,
      errors: ['Sheet C is empty', 'line 9: too many fields'],
      encryptedColumns: ['County'],
    });
    expect(statusFromMeta(meta)).toBe('done');
  });

  it('copes with META without tables (documents, minimal, failures) and with missing META', () => {
    expect(summariseMeta({ NAME: 'a.pdf', WORDSET: ['form'], ERRORS: [] })).toEqual({
      headers: [],
      words: ['form'],
      totalRows: null,
      errors: [],
      encryptedColumns: [],
    });
    expect(summariseMeta(null)).toEqual({ headers: [], words: [], totalRows: null, errors: [], encryptedColumns: [] });
    expect(statusFromMeta({ STATUS: 'failed' })).toBe('failed');
    expect(statusFromMeta({ STATUS: 'skipped' })).toBe('skipped');
  });
});
