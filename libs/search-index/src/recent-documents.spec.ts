import { RecentDocuments } from './recent-documents';
import { recordDocument } from './search-index.contract';

describe('RecentDocuments', () => {
  it('gives a kept document only for the write that stored it', () => {
    const kept = new RecentDocuments(10);
    const first = kept.keep('a', 5, recordDocument({ id: 'a', name: 'First' }));
    expect(kept.get('a', 5)).toBe(first);
    expect(kept.get('a', 6)).toBeUndefined();
    expect(kept.get('b', 5)).toBeUndefined();
    // A later write replaces it.
    const second = kept.keep('a', 6, recordDocument({ id: 'a', name: 'Second' }));
    expect(kept.get('a', 6)).toBe(second);
    expect(kept.get('a', 5)).toBeUndefined();
    expect(kept.size).toBe(1);
  });

  it('lets the oldest kept go first when full', () => {
    const kept = new RecentDocuments(2);
    for (const [id, seq] of [
      ['a', 1],
      ['b', 2],
      ['a', 3],
      ['c', 4],
    ] as const)
      kept.keep(id, seq, recordDocument({ id }));
    // 'a' was kept again after 'b', so 'b' went when 'c' came.
    expect(kept.get('b', 2)).toBeUndefined();
    expect(kept.get('a', 3)?.id).toBe('a');
    expect(kept.get('c', 4)?.id).toBe('c');
    expect(kept.size).toBe(2);
  });

  it('freezes what it keeps, nested objects too (every search shares it)', () => {
    const doc = kept(recordDocument({ id: 'a', card: { organisation: { id: 'o', name: 'Org' } } }));
    expect(() => {
      (doc as { name: string }).name = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (doc.card as { organisation: { name: string } }).organisation.name = 'changed';
    }).toThrow(TypeError);
    expect(() => (doc.headers as string[]).push('x')).toThrow(TypeError);
  });

  it('keeps nothing with no room', () => {
    const none = new RecentDocuments(0);
    const doc = none.keep('a', 1, recordDocument({ id: 'a' }));
    expect(none.get('a', 1)).toBeUndefined();
    expect(Object.isFrozen(doc)).toBe(false);
  });
});

function kept<T extends Parameters<RecentDocuments['keep']>[2]>(doc: T): T {
  return new RecentDocuments(1).keep(doc.id, 1, doc) as T;
}
