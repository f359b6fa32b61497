import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createEvent, MergeCompleted, type RequestSnapshot } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { Caller, caller, CatalogueTestApp, DATASETS } from '../../testing/catalogue-test-app';

const CO2 = path.join(DATASETS, 'csv/co2-annmean-gl.csv');
const orgA = randomUUID();
const orgB = randomUUID();
const alice = caller('li-alice', orgA, [1, 2, 3]);
const bruno = caller('li-bruno', orgB, [1, 2, 3]);
const colleague = caller('li-colleague', orgB, [2]);

/**
 * The catalogue's side of lineage on its own (real PostgreSQL): merge.completed as the jobs service
 * publishes it, with and without terms (events from before lineage), `open` terms (a source Open to
 * the maker alone) and what stops them, and a source deleted after the merge.
 */
describeInfra('catalogue lineage: merge.completed links, open terms, older events (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  const headers = new Map<Caller, { Authorization: string }>();
  const as = (who: Caller) => headers.get(who)!;
  const http = () => catalogue.http();
  const details = async (who: Caller, id: string) => (await http().get(`/api/records/${id}/`).set(as(who))).body;
  const link = (who: Caller, id: string) => http().get(`/api/records/${id}/download/`).set(as(who));
  let storageKey: string;

  /** A record of alice's with these terms. */
  const sourceWith = async (name: string, terms: object) => {
    const { body } = await http().post('/api/records/').set(as(alice)).attach('file', CO2).field('name', name).field('allowDuplicate', 'true');
    await http().put(`/api/records/${body.id}/`).set(as(alice)).send(terms).expect(200);
    return body.id as string;
  };
  /** merge.completed as the jobs service publishes it (its file: any stored object), then the record it made. */
  const merged = async (sources: Array<{ recordId: string; name: string; terms?: 'own' | 'public' | 'open' | 'grant'; requestId?: string }>) => {
    const recordId = randomUUID();
    const owner = { userId: bruno.id, username: bruno.username, organisationId: orgB, clientType: bruno.clientType, groups: bruno.groups };
    const payload = {
      jobId: randomUUID(),
      recordId,
      owner,
      name: 'Merge',
      description: '',
      provenance: '',
      fileName: 'merge.csv',
      storageKey,
      size: 821,
      checksum: 'x',
      rows: 47,
      sources,
    };
    await catalogue.app.get(EventBus).publish([createEvent(MergeCompleted, recordId, payload)]);
    await eventually(async () => expect((await http().get(`/api/records/${recordId}/`).set(as(bruno))).status).toBe(200));
    return recordId;
  };
  const grant = (requestId: string, recordId: string, status: RequestSnapshot['status'], version: number): RequestSnapshot => ({
    requestId,
    recordId,
    requestorId: bruno.id,
    requestorOrganisationId: orgB,
    ownerId: alice.id,
    organisationId: orgA,
    status,
    expiresAt: null,
    createdAt: new Date().toISOString(),
    changedAt: new Date().toISOString(),
    version,
  });

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_lineage');
    catalogue = await CatalogueTestApp.start(db.url);
    for (const who of [alice, bruno, colleague]) headers.set(who, await catalogue.auth(who));
    await catalogue.feedDirectory([alice, bruno, colleague], { [orgA]: 'Acme', [orgB]: 'Blue' });
    const own = await http().post('/api/records/').set(as(bruno)).attach('file', CO2);
    [{ storage_key: storageKey }] = await catalogue.sql<{ storage_key: string }>('SELECT storage_key FROM catalogue.files WHERE record_id = $1', [own.body.id]);
  });
  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  it("open terms: the result is its maker's alone, and downloads while the source stays Open and visible to them", async () => {
    const shared = await sourceWith('Shared with Blue', { visibility: 'CU', access: 'OP' });
    await http()
      .post('/api/visibilities/')
      .set(as(alice))
      .send({ associated_record: shared, visibility_selection: 'CU', organisations_with_visibility: [orgB] })
      .expect(201);
    const result = await merged([{ recordId: shared, name: 'Shared with Blue', terms: 'open' }]);
    expect(await details(bruno, result)).toMatchObject({
      visibility: 'PR',
      lineage: { restricted: true, download_blocked: null, sources: [{ id: shared, terms: 'open', holds: true }] },
    });
    expect((await link(colleague, result)).status).toBe(404);
    expect((await link(bruno, result)).status).toBe(200);
    await http().put(`/api/records/${shared}/`).set(as(alice)).send({ access: 'RE' }).expect(200);
    expect((await link(bruno, result)).body).toEqual({
      detail: 'This record was made from "Shared with Blue", which is no longer open to you; its data can no longer be downloaded.',
    });
    await http().put(`/api/records/${shared}/`).set(as(alice)).send({ access: 'OP' }).expect(200);
    expect((await link(bruno, result)).status).toBe(200);
    // A source deleted since blocks it too, and is still named.
    await http().delete(`/api/records/${shared}/`).set(as(alice)).expect(204);
    expect((await link(bruno, result)).body).toEqual({
      detail: 'This record was made from "Shared with Blue", which was removed from the product; its data can no longer be downloaded.',
    });
  });

  it('an event from before lineage (no terms): the catalogue decides them from the sources as they are', async () => {
    const requested = await sourceWith('Requested rainfall', { visibility: 'EV', access: 'RE' });
    const published = await sourceWith('Published rainfall', { visibility: 'EV', access: 'OP' });
    const requestId = randomUUID();
    await catalogue.applyRequests(grant(requestId, requested, 'approved', 1));
    const result = await merged([
      { recordId: requested, name: 'Requested rainfall' },
      { recordId: published, name: 'Published rainfall' },
    ]);
    const { lineage } = await details(bruno, result);
    expect(lineage.sources.map((s: { id: string; terms: string }) => [s.id, s.terms])).toEqual([
      [published, 'public'],
      [requested, 'grant'],
    ]);
    expect(
      (await catalogue.sql('SELECT request_id FROM catalogue.record_lineage WHERE derived_record_id = $1 AND source_record_id = $2', [result, requested]))[0],
    ).toEqual({ request_id: requestId });
    expect(lineage.restricted).toBe(true);
    expect((await link(bruno, result)).status).toBe(200);
    await catalogue.applyRequests(grant(requestId, requested, 'revoked', 2));
    expect((await link(bruno, result)).status).toBe(403);

    // Only public and own sources: an ordinary record, which its maker may publish.
    const open = await merged([{ recordId: published, name: 'Published rainfall' }]);
    expect(await details(bruno, open)).toMatchObject({ lineage: { restricted: false, sources: [{ terms: 'public' }] } });
    await http().put(`/api/records/${open}/`).set(as(bruno)).send({ visibility: 'EV', access: 'OP' }).expect(200);
    // A source gone before the result was made counts as granted: the result stays its maker's, and cannot be downloaded.
    const gone = await merged([{ recordId: randomUUID(), name: 'Gone' }]);
    expect(await details(bruno, gone)).toMatchObject({ visibility: 'PR', download_url: null, lineage: { restricted: true } });
  });
});
