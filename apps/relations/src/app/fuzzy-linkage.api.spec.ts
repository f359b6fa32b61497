// Privacy-preserving fuzzy linkage end to end: two privately indexed files whose company names were
// hashed as CLKs (keyed Bloom filters of bigrams) link their rows through the relations API, typos
// included, while nobody but the key holder could read a name.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { clkEncoder, linkageKeyId, seededRandom } from '@dc/extraction';
import { ObjectStorage } from '@dc/storage';
import { createTestDatabase, describeInfra, type TestDatabase, typo } from '@dc/testing';
import { caller, DATASETS, type IndexedRecord, RelationsTestApp, TEST_LINKAGE_KEY } from '../testing/relations-test-app';

const owner = caller('owner', randomUUID(), [2, 3]);
const random = seededRandom(20261125);

/** One typo (never in the first letter), replacing letters with rare ones. */
const withTypo = (value: string) => typo(value, random, 'xqzkw');

/**
 * The generated pair, from the real S&P 500 list: the left file names 300 companies; the right one
 * about 200 of them (every other one of those with a typo in its name), shuffled, and 60 companies the
 * left one does not have. Each file has a reference column of its own that links nothing.
 */
function generatedPair() {
  const rows = Papa.parse<string[]>(readFileSync(path.join(DATASETS, 'csv/sp500-constituents.csv'), 'utf8').trim(), { skipEmptyLines: true }).data.slice(1);
  const names = [...new Set(rows.map((r) => r[1].trim()))];
  const left = names.slice(0, 300);
  const kept = left
    .map((name, rowA) => ({ name, rowA }))
    .filter(() => random() < 2 / 3)
    .slice(0, 200);
  const right: Array<{ name: string; rowA: number | null; typo: boolean }> = kept.map(({ name, rowA }, i) => {
    const typed = i % 2 === 0 && name.length >= 8 ? withTypo(name) : name;
    return { name: typed, rowA, typo: typed !== name };
  });
  for (const name of names.slice(300, 360)) right.push({ name, rowA: null, typo: false });
  for (let i = right.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [right[i], right[j]] = [right[j], right[i]];
  }
  return { left, right };
}

/** A CSV of Ref and Company; `encode` turns a name into what leaves the browser. */
function csv(dir: string, file: string, prefix: string, names: string[], encode: (name: string) => string = (n) => n): string {
  const target = path.join(dir, file);
  writeFileSync(target, Papa.unparse([['Ref', 'Company'], ...names.map((name, i) => [`${prefix}${i + 1}`, encode(name)])], { newline: '\n' }) + '\n');
  return target;
}

describeInfra('fuzzy linkage of privately indexed files (CLK columns; PostgreSQL, fs storage)', true, () => {
  jest.setTimeout(120_000);
  let db: TestDatabase;
  let relations: RelationsTestApp;
  let auth: { Authorization: string };
  let dir: string;
  const pair = generatedPair();
  const files: Record<string, string> = {};
  const get = (relation: string, a: IndexedRecord, b: IndexedRecord, query = '') =>
    relations.http().get(`/api/relations/${relation}/?record1=${a.id}&record2=${b.id}${query}`).set(auth);
  /** Precision and recall of the row pairs linked with a probability of at least 0.5. */
  const quality = (results: Array<{ rowA: number; rowB: number; rows_match_prob: number }>) => {
    const linked = results.filter((r) => r.rows_match_prob >= 0.5);
    const correct = linked.filter((r) => pair.right[r.rowB].rowA === r.rowA);
    const truth = pair.right.filter((r) => r.rowA !== null);
    const typos = truth.filter((r) => r.typo);
    const typosFound = correct.filter((r) => pair.right[r.rowB].typo).length;
    return {
      precision: linked.length ? correct.length / linked.length : 1,
      recall: correct.length / truth.length,
      typoRecall: typosFound / typos.length,
      typos: typos.length,
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_relations_fuzzy');
    relations = await RelationsTestApp.start(db.url);
    auth = await relations.auth(owner);
    dir = mkdtempSync(path.join(tmpdir(), 'dc-fuzzy-'));
    // What private indexing sends: the browser encoded Company as CLKs under the organisation's key.
    const clk = clkEncoder(TEST_LINKAGE_KEY);
    files.leftPrivate = csv(dir, 'companies-left.csv', 'L', pair.left, clk);
    files.rightPrivate = csv(
      dir,
      'companies-right.csv',
      'R',
      pair.right.map((r) => r.name),
      clk,
    );
    files.rightOtherKey = csv(
      dir,
      'companies-right-other.csv',
      'R',
      pair.right.map((r) => r.name),
      clkEncoder(new Uint8Array(32).fill(7)),
    );
    files.left = csv(dir, 'left.csv', 'L', pair.left);
    files.right = csv(
      dir,
      'right.csv',
      'R',
      pair.right.map((r) => r.name),
    );
  });

  afterAll(async () => {
    await relations?.close();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const privately = (file: string, key = TEST_LINKAGE_KEY) =>
    relations.index(owner, file, { privateColumns: { prehashed: ['Company'], fuzzy: ['Company'], linkageKeyId: linkageKeyId(key) } });

  it("links the typo'd rows of two privately indexed files by the Dice similarity of their CLKs", async () => {
    const [left, right] = [await privately(files.leftPrivate), await privately(files.rightPrivate)];
    expect(pair.right.filter((r) => r.typo).length).toBeGreaterThanOrEqual(60);

    const linkability = (await get('linkability', left, right)).body;
    expect(linkability).toMatchObject({ estimated: false, message: null, tot_rows: { left: 300, right: pair.right.length } });
    expect(linkability.matches).toHaveLength(1);
    expect(linkability.matches[0]).toMatchObject({ column_left: 'Company', column_right: 'Company', estimated: false });
    expect(linkability.matches[0].total_matches).toBeGreaterThanOrEqual(0.9 * pair.right.filter((r) => r.rowA !== null).length);

    const rows = (await get('link-rows', left, right, '&limit=1000')).body;
    const found = quality(rows.results);
    expect(found.precision).toBeGreaterThanOrEqual(0.95);
    expect(found.recall).toBeGreaterThanOrEqual(0.9);
    expect(found.typoRecall).toBeGreaterThanOrEqual(0.85);
    // One typo'd row, in full: it names the column it matched on.
    const typoRow = pair.right.findIndex((r) => r.typo);
    const pairOfTypo = rows.results.find((r: { rowB: number }) => r.rowB === typoRow);
    expect(pairOfTypo).toMatchObject({ rowA: pair.right[typoRow].rowA, fieldsA: ['Company'], fieldsB: ['Company'] });
    expect(pairOfTypo.rows_match_prob).toBeGreaterThanOrEqual(0.5);
    expect(pairOfTypo.rows_match_prob).toBeLessThan(1);

    // What relations keeps: the sketch says CLK and names the key; the row index keeps 128 bytes per row.
    const [sketch] = await relations.sql<{ tables: Array<{ columns: Array<{ header: string; encoding?: string; linkageKeyId?: string; words: string[] }> }> }>(
      'SELECT tables FROM relations.file_sketches WHERE file_id = $1',
      [left.fileId],
    );
    expect(sketch.tables[0].columns.find((c) => c.header === 'Company')).toMatchObject({
      encoding: 'clk',
      linkageKeyId: linkageKeyId(TEST_LINKAGE_KEY),
      words: [],
    });
    const [build] = await relations.sql<{ columns: Array<{ header: string; clkKey?: string }> }>(
      `SELECT columns FROM relations.row_indexes WHERE file_id = $1 AND status = 'ready'`,
      [left.fileId],
    );
    const clkKey = build.columns.find((c) => c.header === 'Company')!.clkKey!;
    let bytes = 0;
    for await (const chunk of await relations.app.get(ObjectStorage).get(clkKey)) bytes += (chunk as Buffer).length;
    expect(bytes).toBe(300 * 128);
  });

  it('links nothing under another key: the columns do not even pair', async () => {
    const [left, right] = [await privately(files.leftPrivate), await privately(files.rightOtherKey, new Uint8Array(32).fill(7))];
    const body = (await get('linkability', left, right)).body;
    expect(body.matches).toEqual([]);
  });

  it('hashed by the server: exact keyed hashes link only untouched names, fuzzy ones the typos too', async () => {
    const exact = [await relations.index(owner, files.left, { hash: ['Company'] }), await relations.index(owner, files.right, { hash: ['Company'] })];
    const exactRows = (await get('link-rows', exact[0], exact[1], '&limit=1000')).body;
    // Half the names differ by a typo: too few equal hashes even to pair the columns, and a typo never links.
    expect(exactRows).toMatchObject({ matches: [], message: 'No columns of these records share values.' });
    expect(quality(exactRows.results)).toMatchObject({ precision: 1, recall: 0, typoRecall: 0 });

    const fuzzy = [
      await relations.index(owner, files.left, { hash: ['Company'], fuzzy: ['Company'] }),
      await relations.index(owner, files.right, { hash: ['Company'], fuzzy: ['Company'] }),
    ];
    const fuzzyRows = (await get('link-rows', fuzzy[0], fuzzy[1], '&limit=1000')).body;
    const found = quality(fuzzyRows.results);
    expect(found.precision).toBeGreaterThanOrEqual(0.95);
    expect(found.typoRecall).toBeGreaterThanOrEqual(0.85);
  });

  it("lists the fuzzy pair in the merge scan's Linking Columns table", async () => {
    const [left, right] = [await privately(files.leftPrivate), await privately(files.rightPrivate)];
    const body = (
      await relations
        .http()
        .post('/api/relations/get-merge-relations/')
        .set(auth)
        .send({ records: [left.id, right.id] })
    ).body;
    const linking = body.linking_columns.find((l: { record_left: string }) => l.record_left === left.id);
    expect(linking.matches[0]).toMatchObject({ column_left: 'Company', column_right: 'Company', estimated: false });
    expect(linking.rows[0].rows_match_prob).toBeGreaterThan(0.5);
  });
});
