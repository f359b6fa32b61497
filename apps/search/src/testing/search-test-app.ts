import { JwtService } from '@nestjs/jwt';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import request from 'supertest';
import { createEvent, EventEnvelope, RecordCreated, RecordSnapshot } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createApp, createLogger, loadConfig, TokenClaims } from '@dc/platform';
import { SearchModule } from '../app/search.module';

/** Test-only: the search service as the real process builds it (createApp), on a test database. */
export const TEST_JWT_SECRET = 'search-test-secret-'.padEnd(48, 'x');

export interface Viewer {
  id: string;
  username: string;
  organisationId: string;
  permissions?: string[];
}

export class SearchTestApp {
  private constructor(
    readonly app: NestExpressApplication,
    private readonly db: Client,
  ) {}

  static async start(databaseUrl: string): Promise<SearchTestApp> {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: TEST_JWT_SECRET,
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'silent',
    });
    const logger = createLogger({ service: 'search-test', level: 'silent' });
    const app = await createApp({ service: 'search', config, logger, modules: [SearchModule], shutdownHooks: false });
    await app.init();
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    return new SearchTestApp(app, db);
  }

  async close(): Promise<void> {
    await this.db.end();
    await this.app.close();
  }

  http() {
    return request(this.app.getHttpServer());
  }

  /** `Authorization: JWT <token>` for the viewer, signed as identity signs them. */
  async auth(viewer: Viewer): Promise<{ Authorization: string }> {
    const claims: TokenClaims = {
      sub: viewer.id,
      username: viewer.username,
      org: viewer.organisationId,
      ct: 'STANDARD',
      perms: viewer.permissions ?? [],
      groups: [3],
      pv: 1,
    };
    return { Authorization: `JWT ${await this.app.get(JwtService).signAsync(claims)}` };
  }

  /** Publishes record.created for each snapshot, as the catalogue does, and waits until search applied them all. */
  async indexRecords(records: RecordSnapshot[]): Promise<void> {
    await this.apply(records.map((record) => createEvent(RecordCreated, record.recordId, record)));
  }

  /** Publishes events as other services do and waits until search applied them all. */
  async apply(events: EventEnvelope[]): Promise<void> {
    await this.app.get(EventBus).publish(events);
    const ids = events.map((event) => event.id);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM search.processed_events WHERE event_id = ANY($1)', [ids]);
      if (rows[0].n === ids.length) return;
      if (Date.now() > deadline) throw new Error('events were not applied by the search service');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
