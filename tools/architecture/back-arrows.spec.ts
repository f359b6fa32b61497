import path from 'node:path';
import { type Arrow, arrowsOf, backArrows } from './back-arrows';

const root = path.resolve(__dirname, '../..');
const arrow = (from: string, to: string, imports = 1): Arrow => ({ from, to, imports });

describe('back arrows between the folders of an app', () => {
  it('finds none in layers, and the lighter arrow of a two-way pair', () => {
    expect(backArrows([arrow('ui/', 'model/'), arrow('ui/', 'api/'), arrow('api/', 'model/')])).toEqual([]);
    expect(backArrows([arrow('records/', 'files/', 3), arrow('files/', 'records/', 1), arrow('files/', 'storage/')])).toEqual([arrow('files/', 'records/', 1)]);
  });

  it('reads relative imports, dynamic ones included, and leaves tests and test helpers out', () => {
    const arrows = arrowsOf(path.join(root, 'apps/catalogue/src/app'));
    expect(arrows.length).toBeGreaterThan(10);
    expect(arrows.every((a) => a.from !== a.to && a.imports > 0)).toBe(true);
  });

  it.each([
    ['apps/catalogue/src/app', 0],
    ['apps/relations/src/app', 0],
    ['apps/requests/src/app', 0],
    ['apps/identity/src/app', 0],
    ['apps/search/src/app', 0],
    ['apps/jobs/src/app', 0],
    ['apps/web/src', 3],
  ])('%s has at most %i', (app, most) => {
    const back = backArrows(arrowsOf(path.join(root, app)));
    expect({ app, back: back.length <= most ? [] : back }).toEqual({ app, back: [] });
  });
});
