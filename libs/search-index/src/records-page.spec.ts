import { decodeSearchCursor, encodeSearchCursor, toRecordsPage } from './records-page';

describe('search cursors', () => {
  it('round-trips through a URL-safe token', () => {
    for (const cursor of [
      { score: 3, changedAt: '2024-01-01T00:00:00.000Z', id: 'a b/é' },
      { score: null, changedAt: '2024-01-01T00:00:00+02:00', id: 'x' },
      { score: 0.6363636363636364, changedAt: '2024-01-01T00:00:00Z', id: 'y' },
    ]) {
      const token = encodeSearchCursor(cursor);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeSearchCursor(token)).toEqual(cursor);
    }
  });

  it('turns anything else into null', () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const token of [
      '',
      '!!',
      'x'.repeat(3000),
      'bm90IGpzb24',
      encode({}),
      encode([1, 'yesterday', 'a']),
      encode(['3', '2024-01-01T00:00:00Z', 'a']),
      encode([1, '2024-01-01T00:00:00Z', '']),
      encode([1, '2024-01-01T00:00:00Z']),
    ]) {
      expect(decodeSearchCursor(token)).toBeNull();
    }
  });
});

describe('toRecordsPage', () => {
  const results = ['a', 'b'];
  it("carries the next page's cursor in the next link only, beside its page number", () => {
    const page = toRecordsPage({ count: 45, results }, { baseUrl: '/api/records/?query=ozone&page=2&cursor=old', page: 2, pageSize: 20, nextCursor: 'abc' });
    expect(page.next).toBe('/api/records/?query=ozone&page=3&page_size=20&cursor=abc');
    expect(page.previous).toBe('/api/records/?query=ozone&page=1&page_size=20');
  });

  it('links both neighbours in the middle, keeping the other query parameters', () => {
    const page = toRecordsPage({ count: 45, results }, { baseUrl: 'https://dc.example/api/records/?query=ozone&view=all&page=2', page: 2, pageSize: 20 });
    expect(page).toEqual({
      count: 45,
      next: 'https://dc.example/api/records/?query=ozone&view=all&page=3&page_size=20',
      previous: 'https://dc.example/api/records/?query=ozone&view=all&page=1&page_size=20',
      results,
    });
  });

  it('has no previous on the first page and no next on the last', () => {
    expect(toRecordsPage({ count: 40, results }, { baseUrl: '/api/records/', page: 1, pageSize: 20 })).toMatchObject({
      previous: null,
      next: '/api/records/?page=2&page_size=20',
    });
    expect(toRecordsPage({ count: 40, results }, { baseUrl: '/api/records/', page: 2, pageSize: 20 })).toMatchObject({
      previous: '/api/records/?page=1&page_size=20',
      next: null,
    });
  });

  it('has neither link for a single or empty page', () => {
    expect(toRecordsPage({ count: 3, results }, { baseUrl: '/api/recordsannon/', page: 1, pageSize: 20 })).toMatchObject({ previous: null, next: null });
    expect(toRecordsPage({ count: 0, results: [] }, { baseUrl: '/api/recordsannon/', page: 1, pageSize: 20 })).toEqual({
      count: 0,
      previous: null,
      next: null,
      results: [],
    });
  });

  it('points back to the last page from beyond the end', () => {
    expect(toRecordsPage({ count: 25, results: [] }, { baseUrl: '/api/records/?query=x', page: 9, pageSize: 10 })).toMatchObject({
      next: null,
      previous: '/api/records/?query=x&page=3&page_size=10',
    });
  });

  it('follows the index on whether a next page exists, and says when the count stopped at its limit', () => {
    const capped = toRecordsPage({ count: 10000, countCapped: true, hasMore: true, results }, { baseUrl: '/api/records/', page: 500, pageSize: 20 });
    expect(capped).toEqual({
      count: 10000,
      count_capped: true,
      next: '/api/records/?page=501&page_size=20',
      previous: '/api/records/?page=499&page_size=20',
      results,
    });
    // The last page of the result window: more match, but no page follows.
    expect(toRecordsPage({ count: 10000, countCapped: true, hasMore: false, results }, { baseUrl: '/api/records/', page: 500, pageSize: 20 }).next).toBeNull();
    expect(toRecordsPage({ count: 40, countCapped: false, hasMore: false, results }, { baseUrl: '/api/records/', page: 1, pageSize: 20 })).toEqual({
      count: 40,
      next: null,
      previous: null,
      results,
    });
  });
});
