import { randomUUID } from 'node:crypto';
import { createEvent, RelationTopRelated, type RelatedRecordPayload } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createTestDatabase, describeInfra, eventually, type TestDatabase } from '@dc/testing';
import { type Caller, caller, CatalogueTestApp } from '../../testing/catalogue-test-app';
import { TOP_RELATED_SHOWN } from './top-related';

const orgA = randomUUID();
const orgB = randomUUID();
const owner = caller('owner', orgA, [3]);
const outsider = caller('outsider', orgB, [3]);

const scores = (recordId: string, x: number): RelatedRecordPayload => ({ recordId, semScore: x, structScore: x, statsScore: x, linkScore: x });

describeInfra('top_related of the record API (relation.top-related projection, real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  const headers = new Map<Caller, { Authorization: string }>();

  const create = async (who: Caller, name: string, visibility: 'PR' | 'EV' = 'PR'): Promise<string> => {
    const created = await catalogue.http().post('/api/records/').set(headers.get(who)!).send({ name });
    expect(created.status).toBe(201);
    if (visibility === 'EV')
      expect((await catalogue.http().put(`/api/records/${created.body.id}/`).set(headers.get(who)!).send({ visibility: 'EV' })).status).toBe(200);
    return created.body.id;
  };
  const publish = async (recordId: string, related: RelatedRecordPayload[], occurredAt = new Date()) => {
    await catalogue.app.get(EventBus).publish([createEvent(RelationTopRelated, recordId, { recordId, related }, { occurredAt })]);
  };
  const topRelated = async (recordId: string, who: Caller | null) => {
    const call = catalogue.http().get(`/api/records/${recordId}/`);
    const response = await (who ? call.set(headers.get(who)!) : call);
    expect(response.status).toBe(200);
    return response.body.top_related as Array<{ id: string; name: string; sem_score: number }>;
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_related');
    catalogue = await CatalogueTestApp.start(db.url);
    for (const who of [owner, outsider]) headers.set(who, await catalogue.auth(who));
    await catalogue.feedDirectory([owner, outsider], { [orgA]: 'Acme', [orgB]: 'Blue' });
  });

  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  it('shows each viewer only the related records they may see, in the published order, with the four scores', async () => {
    const subject = await create(owner, 'Public subject', 'EV');
    const privateSibling = await create(owner, 'Private sibling');
    const publicOther = await create(outsider, 'Public other', 'EV');
    const outsidersPrivate = await create(outsider, 'Outsider private');
    const deleted = await create(owner, 'Deleted since');
    expect((await catalogue.http().delete(`/api/records/${deleted}/`).set(headers.get(owner)!)).status).toBe(204);
    await publish(subject, [
      scores(privateSibling, 0.9),
      scores(outsidersPrivate, 0.8),
      scores(deleted, 0.7),
      scores(randomUUID(), 0.6),
      scores(publicOther, 0.5),
    ]);

    const forOwner = await eventually(async () => {
      const list = await topRelated(subject, owner);
      expect(list.length).toBeGreaterThan(0);
      return list;
    });
    expect(forOwner).toEqual([
      { id: privateSibling, name: 'Private sibling', sem_score: 0.9, struct_score: 0.9, stats_score: 0.9, link_score: 0.9 },
      { id: publicOther, name: 'Public other', sem_score: 0.5, struct_score: 0.5, stats_score: 0.5, link_score: 0.5 },
    ]);
    expect((await topRelated(subject, outsider)).map((r) => r.name)).toEqual(['Outsider private', 'Public other']);
    expect((await topRelated(subject, null)).map((r) => r.name)).toEqual(['Public other']);
  });

  it('keeps the newest list, shows at most five and goes with its record', async () => {
    const subject = await create(owner, 'Subject with many');
    const others = [];
    for (let i = 0; i < 7; i++) others.push(await create(owner, `Related ${i}`));
    const now = Date.now();
    await publish(
      subject,
      others.map((id, i) => scores(id, 0.9 - i / 10)),
      new Date(now),
    );
    // An older list delivered late changes nothing.
    await publish(subject, [scores(others[6], 1)], new Date(now - 60_000));
    await eventually(async () => expect(await topRelated(subject, owner)).toHaveLength(TOP_RELATED_SHOWN));
    expect((await topRelated(subject, owner)).map((r) => r.name)).toEqual(['Related 0', 'Related 1', 'Related 2', 'Related 3', 'Related 4']);
    expect((await catalogue.http().delete(`/api/records/${subject}/`).set(headers.get(owner)!)).status).toBe(204);
    expect(await catalogue.sql('SELECT 1 FROM catalogue.top_related WHERE record_id = $1', [subject])).toEqual([]);
  });
});
