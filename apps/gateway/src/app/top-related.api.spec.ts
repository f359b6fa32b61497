import { JwtService } from '@nestjs/jwt';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { createEvent, OrganisationUpdated, permissionsOfGroups, UserRegistered } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createApp, createLogger, loadConfig, type TokenClaims } from '@dc/platform';
import { CatalogueModule } from '@dc/service-catalogue';
import { RelationsModule } from '@dc/service-relations';
import { createTestDatabase, describeInfra, eventually, type TestDatabase } from '@dc/testing';

/** The nearest shared/datasets above this file (beside the repository, or above a worktree). */
function findDatasets(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'shared/datasets'))) return path.join(dir, 'shared/datasets');
  }
  return path.resolve(__dirname, '../../../../../shared/datasets');
}
const DATASETS = findDatasets();

interface Person {
  id: string;
  username: string;
  organisationId: string;
}

/**
 * top_related across two services in one process, as embedded mode composes them: the catalogue
 * extracts uploads and publishes their sketches, relations scores and publishes each record's best
 * related records, the catalogue keeps them and filters them per viewer on GET /api/records/{id}.
 */
describeInfra('top_related: catalogue and relations together (real PostgreSQL, in-process events)', true, () => {
  let db: TestDatabase;
  let sql: Client;
  let app: NestExpressApplication;
  let dataDir: string;
  const owner: Person = { id: randomUUID(), username: 'owner', organisationId: randomUUID() };
  const outsider: Person = { id: randomUUID(), username: 'outsider', organisationId: randomUUID() };
  const tokens = new Map<Person, string>();

  const as = (who: Person) => ({ Authorization: `JWT ${tokens.get(who)}` });
  const upload = async (who: Person, file: string): Promise<string> => {
    const response = await request(app.getHttpServer()).post('/api/records/').set(as(who)).attach('file', path.join(DATASETS, file));
    expect(response.status).toBe(201);
    return response.body.id;
  };
  const topRelatedIds = async (recordId: string, who: Person) => {
    const response = await request(app.getHttpServer()).get(`/api/records/${recordId}/`).set(as(who));
    expect(response.status).toBe(200);
    return (response.body.top_related as Array<{ id: string }>).map((r) => r.id);
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_top_related');
    dataDir = mkdtempSync(path.join(tmpdir(), 'dc-top-related-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      JWT_SECRET: 'top-related-test-'.padEnd(48, 'x'),
      ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
      LOG_LEVEL: 'silent',
    });
    app = await createApp({
      service: 'gateway',
      config,
      logger: createLogger({ service: 'top-related-test', level: 'silent' }),
      modules: [CatalogueModule, RelationsModule],
      shutdownHooks: false,
    });
    await app.init();
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    for (const who of [owner, outsider]) {
      const claims: TokenClaims = {
        sub: who.id,
        username: who.username,
        org: who.organisationId,
        ct: 'STANDARD',
        perms: permissionsOfGroups([3]),
        groups: [3],
        pv: 1,
      };
      tokens.set(who, await app.get(JwtService).signAsync(claims));
    }
    await app.get(EventBus).publish(
      [owner, outsider].flatMap((who) => [
        createEvent(OrganisationUpdated, who.organisationId, { organisationId: who.organisationId, name: `${who.username} org` }),
        createEvent(UserRegistered, who.id, {
          userId: who.id,
          username: who.username,
          organisationId: who.organisationId,
          clientType: 'STANDARD',
          groups: [3],
        }),
      ]),
    );
  });

  afterAll(async () => {
    await sql?.end();
    await app?.close();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('relates uploaded records and shows each viewer only the related records they may see', async () => {
    const gdp = await upload(owner, 'csv/gdp.csv');
    const population = await upload(owner, 'csv/population.csv');
    // The same data in another organisation, private to it.
    const outsidersPopulation = await upload(outsider, 'csv/population.csv');

    // Relations keeps both population records in gdp's list ...
    await eventually(async () => {
      const kept = (await sql.query('SELECT related_id FROM relations.related_scores WHERE record_id = $1', [gdp])).rows.map((r) => r.related_id);
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
      const [entry] = (await request(app.getHttpServer()).get(`/api/records/${gdp}/`).set(as(owner))).body.top_related;
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
    expect((await request(app.getHttpServer()).put(`/api/records/${gdp}/`).set(as(owner)).send({ visibility: 'EV' })).status).toBe(200);
    const forOutsider = await topRelatedIds(gdp, outsider);
    expect(forOutsider).toContain(outsidersPopulation);
    expect(forOutsider).not.toContain(population);
  });
});
