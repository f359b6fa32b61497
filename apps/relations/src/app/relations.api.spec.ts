import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createEvent, RelationTopRelated, type RelatedRecordPayload, RequestUpdated, TOP_RELATED_KEPT } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createTestDatabase, describeInfra, DocumentedAnswers, eventually, type TestDatabase } from '@dc/testing';
import { caller, type Caller, DATASETS, type IndexedRecord, RelationsTestApp } from '../testing/relations-test-app';
import { RANGE_ERROR } from './compare/dto';
import { NO_ACCESS } from './compare/relations.service';
import { NOT_TABULAR } from './merge/merge-scan.service';

const orgA = randomUUID();
const orgB = randomUUID();
const owner = caller('owner', orgA, [2, 3]);
const colleague = caller('colleague', orgA, [3]);
const outsider = caller('outsider', orgB, [3]);

/** Quantiles at 0, 1/100, ..., 1 with linear interpolation (R type 7), computed here by hand. */
function quantiles(values: number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  return Array.from({ length: 101 }, (_, i) => {
    const position = ((sorted.length - 1) * i) / 100;
    const low = Math.floor(position);
    const high = Math.min(sorted.length - 1, low + 1);
    return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
  });
}
function column(dataset: string, header: string): number[] {
  const [head, ...lines] = readFileSync(path.join(DATASETS, dataset), 'utf8').trim().split(/\r?\n/);
  // Counted from the end: country names hold quoted commas ("Korea, Rep."), the numbers never do.
  const fromEnd = head.split(',').indexOf(header) - head.split(',').length;
  return lines.map((line) => Number(line.split(',').at(fromEnd)));
}

describeInfra('relations API on the real datasets (PostgreSQL, fs storage)', true, () => {
  jest.setTimeout(120_000);
  let db: TestDatabase;
  let relations: RelationsTestApp;
  const headers = new Map<Caller, { Authorization: string }>();
  let gdp: IndexedRecord;
  let population: IndexedRecord;
  let co2Global: IndexedRecord;
  let co2MaunaLoa: IndexedRecord;
  let bank: IndexedRecord;
  let hiddenPopulation: IndexedRecord;
  let publicRequestOnly: IndexedRecord;
  let pdf: IndexedRecord;
  /** The latest relation.top-related list published for each record. */
  const published = new Map<string, RelatedRecordPayload[]>();
  const publishedFor = async (record: IndexedRecord, holds: (ids: string[]) => boolean) => {
    const deadline = Date.now() + 30_000;
    while (!published.has(record.id) || !holds(published.get(record.id)!.map((r) => r.recordId))) {
      if (Date.now() > deadline) throw new Error(`no relation.top-related for ${record.id} as expected: ${JSON.stringify(published.get(record.id))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return published.get(record.id)!;
  };

  /** Every answer of this suite is also checked against docs/openapi.json (asserted last). */
  const documented = new DocumentedAnswers();
  const get = (url: string, who: Caller | null = owner) => {
    const call = relations.http().get(url);
    return documented.checking('get', url, who ? call.set(headers.get(who)!) : call);
  };
  const post = (url: string, body: object, who: Caller | null = owner) => {
    const call = relations.http().post(url);
    return documented.checking('post', url, (who ? call.set(headers.get(who)!) : call).send(body));
  };
  const pairUrl = (relation: string, a: IndexedRecord, b: IndexedRecord, slash = '/') => `/api/relations/${relation}${slash}?record1=${a.id}&record2=${b.id}`;

  beforeAll(async () => {
    db = await createTestDatabase('dc_relations');
    relations = await RelationsTestApp.start(db.url);
    for (const who of [owner, colleague, outsider]) headers.set(who, await relations.auth(who));
    await relations.app.get(EventBus).subscribe('test-top-related', [RelationTopRelated.type], async (event) => {
      const { recordId, related } = RelationTopRelated.payload.parse(event.payload);
      published.set(recordId, related);
    });
    gdp = await relations.index(owner, 'csv/gdp.csv');
    population = await relations.index(owner, 'csv/population.csv');
    co2Global = await relations.index(owner, 'csv/co2-annmean-gl.csv', { visibility: 'EV' });
    co2MaunaLoa = await relations.index(owner, 'csv/co2-annmean-mlo.csv', { visibility: 'EV' });
    bank = await relations.index(owner, 'csv/bank-marketing.csv');
    pdf = await relations.index(owner, 'pdf/masculinity-survey.pdf');
    // Another organisation's records: one private (the owner's side never sees it), one public but on request.
    hiddenPopulation = await relations.index(outsider, 'csv/population.csv', { name: 'secret-population.csv' });
    publicRequestOnly = await relations.index(outsider, 'csv/population.csv', { name: 'public-population.csv', visibility: 'EV', access: 'RE' });
  });

  afterAll(async () => {
    await relations?.close();
    await db?.drop();
  });

  describe('joining', () => {
    it('finds gdp and population joinable on Country Code and Year with a high score, not unionable', async () => {
      const response = await get(pairUrl('joining', gdp, population));
      expect(response.status).toBe(200);
      const body = response.body;
      expect(body.joinable).toBe(true);
      expect(body.join_score).toBeGreaterThanOrEqual(0.9);
      const pair = (header: string) =>
        body.matching_headers.find((m: { header_left: string; header_right: string }) => m.header_left === header && m.header_right === header);
      // Every Country Code and Year of gdp exists in population (the datasets' README).
      expect(pair('Country Code')).toMatchObject({ header_similarity: 1 });
      expect(pair('Country Code').containment_left).toBeGreaterThanOrEqual(0.95);
      expect(pair('Country Code').score).toBeGreaterThanOrEqual(0.9);
      expect(pair('Year').containment_left).toBe(1);
      expect(pair('Year').score).toBeGreaterThanOrEqual(0.9);
      // Same header, but GDP and population values are of different scales: not a union.
      expect(body.unionable).toBe(false);
    });

    it('finds the two CO2 series unionable (same columns, values of one scale)', async () => {
      const body = (await get(pairUrl('joining', co2Global, co2MaunaLoa))).body;
      expect(body).toMatchObject({ unionable: true, union_score: 1 });
    });

    it('finds two unrelated files not joinable', async () => {
      const body = (await get(pairUrl('joining', gdp, bank))).body;
      expect(body.joinable).toBe(false);
      expect(body.join_score).toBeLessThan(0.5);
      expect(body.unionable).toBe(false);
    });

    it('answers with and without the trailing slash', async () => {
      const [a, b] = await Promise.all([get(pairUrl('joining', gdp, population, '')), get(pairUrl('joining', gdp, population, '/'))]);
      expect(a.status).toBe(200);
      expect(a.body).toEqual(b.body);
    });
  });

  describe('statistics', () => {
    it('computes NRMSD as calculated by hand from the files, to 6 decimals', async () => {
      const body = (await get(pairUrl('statistics', co2Global, co2MaunaLoa))).body;
      const left = column('csv/co2-annmean-gl.csv', 'Mean');
      const right = column('csv/co2-annmean-mlo.csv', 'Mean');
      const [qa, qb] = [quantiles(left), quantiles(right)];
      const rmsd = Math.sqrt(qa.reduce((sum, q, i) => sum + (q - qb[i]) ** 2, 0) / qa.length);
      const expected = rmsd / (Math.max(...left) - Math.min(...left));
      const entry = body.stats_mtx.find((m: { header_left: string; header_right: string }) => m.header_left === 'Mean' && m.header_right === 'Mean');
      expect(entry.nrmsd.toFixed(6)).toBe(expected.toFixed(6));
      expect(body.stats_mtx.every((m: { nrmsd: number }) => m.nrmsd < 10)).toBe(true);
      expect(body.stats_score).toBeGreaterThan(0);
    });

    it('computes Year against Year of gdp and population from exact quantiles as well', async () => {
      const body = (await get(pairUrl('statistics', gdp, population))).body;
      const left = column('csv/gdp.csv', 'Year');
      const right = column('csv/population.csv', 'Year');
      const [qa, qb] = [quantiles(left), quantiles(right)];
      const expected = Math.sqrt(qa.reduce((sum, q, i) => sum + (q - qb[i]) ** 2, 0) / qa.length) / (Math.max(...left) - Math.min(...left));
      const entry = body.stats_mtx.find((m: { header_left: string; header_right: string }) => m.header_left === 'Year' && m.header_right === 'Year');
      expect(entry.nrmsd.toFixed(6)).toBe(expected.toFixed(6));
    });
  });

  describe('semantics and structures', () => {
    it('lists similar words with WordNet scores inside the slider range', async () => {
      const all = (await get(pairUrl('semantics', gdp, co2Global))).body;
      expect(all.sem_score).toBeGreaterThan(0);
      expect(all.sim_words).toEqual(expect.arrayContaining([expect.objectContaining({ word_left: 'year', word_right: 'year', score: 1 })]));
      // Related words that are not equal (WordNet's hierarchy, not string equality).
      expect(all.sim_words.some((w: { word_left: string; word_right: string; score: number }) => w.word_left !== w.word_right && w.score > 0.5)).toBe(true);
      const narrowed = (await get(`${pairUrl('semantics', gdp, co2Global)}&min=0.2&max=0.6`)).body;
      expect(narrowed.sim_words.length).toBeGreaterThan(0);
      expect(narrowed.sim_words.every((w: { score: number }) => w.score >= 0.2 && w.score <= 0.6)).toBe(true);
    });

    it("refuses a maximum below the minimum with the spec's text", async () => {
      const response = await get(`${pairUrl('semantics', gdp, co2Global)}&min=0.8&max=0.2`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ max: [RANGE_ERROR] });
    });

    it('groups the columns sharing data types', async () => {
      const body = (await get(pairUrl('structures', gdp, population))).body;
      // gdp's Value holds decimals, population's whole numbers: three of four columns share a type.
      expect(body.struct_score).toBe(0.75);
      expect(body.struct_types).toEqual(
        expect.arrayContaining([
          { type: 'integer', headers_left: ['Year'], headers_right: ['Year', 'Value'] },
          { type: 'text', headers_left: ['Country Name', 'Country Code'], headers_right: ['Country Name', 'Country Code'] },
        ]),
      );
    });
  });

  describe('linkability and link-rows', () => {
    it('links gdp rows to population rows on Country Code and Year with a probability', async () => {
      const body = (await get(pairUrl('linkability', gdp, population))).body;
      expect(body.estimated).toBe(false);
      expect(body.tot_rows).toEqual({ left: 13979, right: 17195 });
      const byColumn = Object.fromEntries(body.matches.map((m: { column_left: string; total_matches: number }) => [m.column_left, m.total_matches]));
      expect(byColumn['Year']).toBe(13979);
      expect(byColumn['Country Code']).toBe(13979);
      expect(body.rows.length).toBe(10);
      expect(body.rows[0]).toMatchObject({ fieldsA: expect.arrayContaining(['Country Code', 'Year']), rows_match_prob: expect.any(Number) });
      expect(body.rows[0].rows_match_prob).toBeGreaterThan(0.9);
      expect(body.link_score).toBeGreaterThan(0.9);
      const rows = (await get(`${pairUrl('link-rows', gdp, population, '')}&limit=50`)).body;
      expect(rows.results).toHaveLength(50);
      // The best pairs come first: each gdp row's one population row agreeing on code and year.
      expect(rows.results.every((r: { rows_match_prob: number }) => r.rows_match_prob > 0.9)).toBe(true);
      expect(rows.totals[0]).toMatchObject({ total_rows: 13979 });
    });

    it('links hashed columns on their keyed hashes alone, never with a plain column', async () => {
      const hashedA = await relations.index(owner, 'csv/co2-annmean-gl.csv', { hash: ['Year'], mask: ['Mean', 'Uncertainty'] });
      const hashedB = await relations.index(owner, 'csv/co2-annmean-mlo.csv', { hash: ['Year'], mask: ['Mean', 'Uncertainty'] });
      const body = (await get(pairUrl('link-rows', hashedA, hashedB))).body;
      expect(body.matches).toEqual([{ column_left: 'Year', column_right: 'Year', total_matches: 47, estimated: false }]);
      expect(body.results[0].rows_match_prob).toBeGreaterThan(0.5);
      const mixed = (await get(pairUrl('linkability', hashedA, co2MaunaLoa))).body;
      expect(mixed.matches).toEqual([]);
      const sketches = await relations.sql<{ tables: string }>('SELECT tables::text FROM relations.file_sketches WHERE record_id = $1', [hashedA.id]);
      expect(sketches[0].tables).not.toMatch(/"words":\["[^"]/);
    });

    it('estimates matches from sketches for a record the caller may see but not download, and refuses its rows', async () => {
      const body = (await get(pairUrl('linkability', gdp, publicRequestOnly))).body;
      expect(body).toMatchObject({ estimated: true, message: NO_ACCESS, rows: [] });
      const response = await get(pairUrl('link-rows', gdp, publicRequestOnly));
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ detail: NO_ACCESS });
      expect((await get(pairUrl('link-rows', co2Global, co2MaunaLoa), null)).status).toBe(401);
    });
  });

  describe('authorisation', () => {
    it('answers 404 for a record the caller may not see, exactly as for an unknown one, on every relation', async () => {
      const unknown = { id: randomUUID() } as IndexedRecord;
      for (const relation of ['semantics', 'structures', 'statistics', 'joining', 'linkability', 'link-rows']) {
        const hidden = await get(pairUrl(relation, gdp, hiddenPopulation));
        const missing = await get(pairUrl(relation, gdp, unknown));
        expect([relation, hidden.status, hidden.body]).toEqual([relation, 404, { detail: 'Not found.' }]);
        expect(missing.body).toEqual(hidden.body);
      }
      expect((await get(`/api/relations/infer-header/?record=${hiddenPopulation.id}&header=Year`)).status).toBe(404);
      expect((await get(`/api/relations/joinable-with/?record=${hiddenPopulation.id}`)).status).toBe(404);
      // Anonymous visitors compare EV records only.
      expect((await get(pairUrl('joining', co2Global, co2MaunaLoa), null)).status).toBe(200);
      expect((await get(pairUrl('joining', co2Global, gdp), null)).status).toBe(404);
      // A colleague of the owner's organisation sees the private records.
      expect((await get(pairUrl('joining', gdp, population), colleague)).status).toBe(200);
    });

    it('lets an approved requestor read the rows of a Request-access record, until the approval is revoked (request.* events)', async () => {
      const requestId = randomUUID();
      const grant = (status: 'approved' | 'revoked', version: number) =>
        createEvent(RequestUpdated, requestId, {
          requestId,
          recordId: publicRequestOnly.id,
          requestorId: owner.id,
          requestorOrganisationId: owner.organisationId,
          ownerId: outsider.id,
          organisationId: outsider.organisationId,
          status,
          expiresAt: null,
          createdAt: new Date().toISOString(),
          changedAt: new Date().toISOString(),
          version,
        });
      const applied = async (version: number) =>
        eventually(async () =>
          expect(
            (await relations.sql<{ version: number }>('SELECT version FROM relations.request_grants WHERE request_id = $1', [requestId]))[0]?.version,
          ).toBe(version),
        );
      await relations.app.get(EventBus).publish([grant('approved', 4)]);
      await applied(4);
      expect((await get(pairUrl('link-rows', gdp, publicRequestOnly))).status).toBe(200);
      await relations.app.get(EventBus).publish([grant('revoked', 5)]);
      await applied(5);
      expect((await get(pairUrl('link-rows', gdp, publicRequestOnly))).status).toBe(403);
    });

    it('leaves a hidden record out of a merge scan without a trace of its name, headers or values', async () => {
      const response = await post('/api/relations/get-merge-relations/', { records: [gdp.id, hiddenPopulation.id] });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ records: [{ id: gdp.id, name: 'gdp.csv' }], merge_relations: [], linking_columns: [], messages: [] });
      expect(JSON.stringify(response.body)).not.toContain('secret-population');
    });

    it('forgets a deleted record', async () => {
      const doomed = await relations.index(owner, 'csv/unemployment.tsv');
      expect((await get(pairUrl('structures', gdp, doomed))).status).toBe(200);
      await relations.remove(doomed);
      expect((await get(pairUrl('structures', gdp, doomed))).status).toBe(404);
      expect(await relations.sql('SELECT 1 FROM relations.file_sketches WHERE record_id = $1', [doomed.id])).toEqual([]);
    });

    it('follows visibility changes from record.updated', async () => {
      const shared = await relations.index(outsider, 'csv/co2-annmean-gl.csv');
      expect((await get(pairUrl('structures', gdp, shared))).status).toBe(404);
      await relations.update(shared, { visibility: 'CU', sharedWithUserIds: [owner.id] });
      expect((await get(pairUrl('structures', gdp, shared))).status).toBe(200);
      expect((await get(pairUrl('structures', gdp, shared), colleague)).status).toBe(404);
    });
  });

  describe('get-merge-relations', () => {
    it('scores candidate field pairs and fills the Linking Columns table', async () => {
      const response = await post('/api/relations/get-merge-relations', { records: [gdp.id, population.id, co2Global.id, pdf.id] });
      expect(response.status).toBe(200);
      const { merge_relations, linking_columns, messages } = response.body;
      const code = merge_relations.find(
        (m: { header_left: string; record_left: string; record_right: string }) =>
          m.header_left === 'Country Code' && m.record_left === gdp.id && m.record_right === population.id,
      );
      expect(code).toMatchObject({ record_left_name: 'gdp.csv', record_right_name: 'population.csv', header_right: 'Country Code' });
      expect(code.total_sim).toBeGreaterThan(0.9);
      expect(merge_relations.every((m: { total_sim: number }) => m.total_sim >= 0.5)).toBe(true);
      const gdpPopulation = linking_columns.find(
        (l: { record_left: string; record_right: string }) => l.record_left === gdp.id && l.record_right === population.id,
      );
      expect(gdpPopulation.matches.length).toBeGreaterThan(0);
      expect(gdpPopulation.rows[0].rows_match_prob).toBeGreaterThan(0.9);
      expect(messages).toEqual([NOT_TABULAR]);
    });

    it('says when a record takes part without its values', async () => {
      const body = (await post('/api/relations/get-merge-relations/', { records: [gdp.id, publicRequestOnly.id] })).body;
      expect(body.messages).toEqual([NO_ACCESS]);
      expect(body.linking_columns[0]).toMatchObject({ estimated: true, rows: [] });
    });

    it('needs a signed-in caller and at least two records', async () => {
      expect((await post('/api/relations/get-merge-relations/', { records: [gdp.id, population.id] }, null)).status).toBe(401);
      const response = await post('/api/relations/get-merge-relations/', { records: [gdp.id] });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ records: ['Choose at least two records.'] });
    });
  });

  describe('infer-header, definition, joinable-with, top-related', () => {
    it('infers what a column holds', async () => {
      expect((await get(`/api/relations/infer-header?record=${gdp.id}&header=Year`)).body).toMatchObject({ header: 'Year', type: 'integer', inferred: 'year' });
      const name = (await get(`/api/relations/infer-header/?record=${gdp.id}&header=${encodeURIComponent('Country Name')}`)).body;
      expect(name.type).toBe('text');
      expect(name.candidates.length).toBeGreaterThan(0);
      expect((await get(`/api/relations/infer-header/?record=${gdp.id}&header=Nope`)).status).toBe(404);
      expect((await get(`/api/relations/infer-header/?record=${gdp.id}`)).body).toEqual({ header: ['This field is required.'] });
    });

    it('defines a word from WordNet', async () => {
      const body = (await get('/api/relations/definition/?word=population', null)).body;
      expect(body.word).toBe('population');
      expect(body.senses[0]).toMatchObject({ pos: 'noun', definition: expect.stringMatching(/people who inhabit/) });
      expect((await get('/api/relations/definition?word=qqzzxx', null)).status).toBe(404);
      expect((await get('/api/relations/definition/', null)).body).toEqual({ word: ['This field is required.'] });
    });

    it('lists the records joinable with a record, best first, among those whose values the caller may read', async () => {
      const body = (await get(`/api/relations/joinable-with/?record=${gdp.id}`)).body;
      const ids = body.results.map((r: { id: string }) => r.id);
      expect(ids[0]).toBe(population.id);
      // Visible but on request: whether its values meet gdp's is not the owner's to learn (value-sight.spec.ts).
      expect(ids).not.toContain(publicRequestOnly.id);
      expect(ids).not.toContain(hiddenPopulation.id);
      expect(ids).not.toContain(bank.id);
      expect(body.results[0].matching_headers.map((m: { header_left: string }) => m.header_left)).toEqual(expect.arrayContaining(['Country Code']));
    });

    it("keeps each record's best related records and publishes them as relation.top-related when sketches change", async () => {
      // gdp was indexed before population: population entered gdp's list from population's side.
      const list = await publishedFor(gdp, (ids) => ids.includes(population.id) && ids.includes(publicRequestOnly.id));
      expect(list.length).toBeLessThanOrEqual(TOP_RELATED_KEPT);
      const entry = list.find((r) => r.recordId === population.id)!;
      expect(entry).toEqual({
        recordId: population.id,
        semScore: expect.any(Number),
        structScore: 0.75,
        statsScore: expect.any(Number),
        linkScore: expect.any(Number),
      });
      expect(entry.linkScore).toBeGreaterThanOrEqual(0.9);
      // Best first, by the mean of the four scores.
      const totals = list.map((r) => r.semScore + r.structScore + r.statsScore + r.linkScore);
      expect(totals).toEqual([...totals].sort((a, b) => b - a));
      // Nothing is due any more: lists are computed when sketches change, not when read.
      await relations.until('SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM relations.related_pending)', []);
    });

    it('answers the top related records the caller may see with their four scores', async () => {
      await publishedFor(gdp, (ids) => ids.includes(population.id) && ids.includes(hiddenPopulation.id));
      const body = (await get(`/api/relations/top-related/?record=${gdp.id}`)).body;
      expect(body.top_related.map((r: { id: string }) => r.id)).toContain(population.id);
      expect(body.top_related[0]).toEqual({
        id: expect.any(String),
        name: expect.any(String),
        sem_score: expect.any(Number),
        struct_score: expect.any(Number),
        stats_score: expect.any(Number),
        link_score: expect.any(Number),
      });
      expect(body.top_related.map((r: { id: string }) => r.id)).not.toContain(hiddenPopulation.id);
      expect((await get(`/api/relations/top-related/?record=${gdp.id}`, outsider)).status).toBe(404);
    });

    it("takes a deleted record out of the others' lists", async () => {
      const [left, right] = [
        await relations.index(owner, 'csv/co2-annmean-gl.csv', { name: 'left-co2.csv' }),
        await relations.index(owner, 'csv/co2-annmean-mlo.csv', { name: 'right-co2.csv' }),
      ];
      await publishedFor(left, (ids) => ids.includes(right.id));
      await relations.remove(right);
      await publishedFor(left, (ids) => !ids.includes(right.id));
      expect(await relations.sql('SELECT 1 FROM relations.related_scores WHERE related_id = $1 OR record_id = $1', [right.id])).toEqual([]);
    });
  });

  it('answered every call above as docs/openapi.json documents it', () => {
    expect(documented.mismatches).toEqual([]);
    expect(documented.checked.size).toBeGreaterThan(20);
  });
});
