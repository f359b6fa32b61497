import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { CatalogueModule } from '@dc/service-catalogue';
import { RelationsModule } from '@dc/service-relations';
import {
  createTestDatabase,
  DATASETS,
  describeInfra,
  directoryEvents,
  eventually,
  ServiceTestApp,
  testCaller,
  type TestCaller,
  type TestDatabase,
} from '@dc/testing';

/**
 * top_related across two services in one process, as embedded mode composes them: the catalogue
 * extracts uploads and publishes their sketches, relations scores and publishes each record's best
 * related records, the catalogue keeps them and filters them per viewer on GET /api/records/{id}.
 */
describeInfra('top_related: catalogue and relations together (real PostgreSQL, in-process events)', true, () => {
  let db: TestDatabase;
  let service: ServiceTestApp;
  const owner = testCaller('owner', randomUUID());
  const outsider = testCaller('outsider', randomUUID());

  const as = (who: TestCaller) => service.auth(who);
  const upload = async (who: TestCaller, file: string): Promise<string> => {
    const response = await service.request('post', '/api/records/', who).attach('file', path.join(DATASETS, file));
    expect(response.status).toBe(201);
    return response.body.id;
  };
  const topRelatedIds = async (recordId: string, who: TestCaller) => {
    const response = await service.request('get', `/api/records/${recordId}/`, who);
    expect(response.status).toBe(200);
    return (response.body.top_related as Array<{ id: string }>).map((r) => r.id);
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_top_related');
    service = await ServiceTestApp.start({ service: 'gateway', name: 'top-related', modules: [CatalogueModule, RelationsModule], databaseUrl: db.url });
    await service.publish(
      ...directoryEvents([owner, outsider], { [owner.organisationId]: `${owner.username} org`, [outsider.organisationId]: `${outsider.username} org` }),
    );
  });

  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  });

  it('relates uploaded records and shows each viewer only the related records they may see', async () => {
    const gdp = await upload(owner, 'csv/gdp.csv');
    const population = await upload(owner, 'csv/population.csv');
    // The same data in another organisation, private to it.
    const outsidersPopulation = await upload(outsider, 'csv/population.csv');

    // Relations keeps both population records in gdp's list ...
    await eventually(async () => {
      const kept = (await service.sql<{ related_id: string }>('SELECT related_id FROM relations.related_scores WHERE record_id = $1', [gdp])).map(
        (r) => r.related_id,
      );
      expect(kept).toEqual(expect.arrayContaining([population, outsidersPopulation]));
    }, 60_000);
    // ... the catalogue shows the owner only the one they may see.
    const forOwner = await eventually(async () => {
      const ids = await topRelatedIds(gdp, owner);
      expect(ids).toContain(population);
      return ids;
    });
    expect(forOwner).not.toContain(outsidersPopulation);
    // The list is recomputed as each record's sketches arrive: its scores settle once both are extracted.
    await eventually(async () => {
      const [entry] = (await service.http().get(`/api/records/${gdp}/`).set(as(owner))).body.top_related;
      expect(entry).toEqual({
        id: population,
        name: 'population.csv',
        sem_score: expect.any(Number),
        struct_score: 0.75,
        stats_score: expect.any(Number),
        link_score: expect.any(Number),
      });
      expect(entry.link_score).toBeGreaterThanOrEqual(0.9);
    }, 60_000);

    // Once gdp is public the outsider sees it, with their own population beside it, never the owner's private one.
    expect((await service.http().put(`/api/records/${gdp}/`).set(as(owner)).send({ visibility: 'EV' })).status).toBe(200);
    const forOutsider = await topRelatedIds(gdp, outsider);
    expect(forOutsider).toContain(outsidersPopulation);
    expect(forOutsider).not.toContain(population);
  });
});
