import { MAX_PAGE, pageOf, strictPageOf } from './paging';

describe('pageOf', () => {
  it('reads page and page_size, defaulting nonsense', () => {
    expect(pageOf({ page: '3', page_size: '20' })).toEqual({ page: 3, pageSize: 20, offset: 40 });
    expect(pageOf({ page: 'x', page_size: 'abc' })).toEqual({ page: 1, pageSize: 100, offset: 0 });
    expect(pageOf({ page: '-2', page_size: '-5' })).toEqual({ page: 1, pageSize: 1, offset: 0 });
    expect(pageOf({}, { size: 200, max: 500 })).toEqual({ page: 1, pageSize: 200, offset: 0 });
    expect(pageOf({ page_size: '9999' }, { size: 200, max: 500 }).pageSize).toBe(500);
  });

  it('caps a huge page so the offset stays an integer the database accepts', () => {
    const { page, offset } = pageOf({ page: '9'.repeat(200), page_size: '100' });
    expect(page).toBe(MAX_PAGE);
    expect(Number.isSafeInteger(offset)).toBe(true);
  });
});

describe('strictPageOf', () => {
  it('reads a whole number from 1 and caps a huge one, however many digits it has', () => {
    expect(['1', '42', 7, '1000000'].map(strictPageOf)).toEqual([1, 42, 7, MAX_PAGE]);
    expect(['1000001', '99999999999999999999999', '9'.repeat(400)].map(strictPageOf)).toEqual([MAX_PAGE, MAX_PAGE, MAX_PAGE]);
  });

  it('answers null for anything that is not a page', () => {
    expect(['0', '-1', '1.5', 'x', '', ' ', '1e309', 'Infinity', undefined, null, ['2'], {}].map(strictPageOf)).toEqual(Array(12).fill(null));
  });
});
