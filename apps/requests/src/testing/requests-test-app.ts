import { JwtService } from '@nestjs/jwt';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import {
  createEvent,
  EventEnvelope,
  OrganisationUpdated,
  permissionsOfGroups,
  PolicyUpdated,
  RecordSnapshot,
  RecordUpdated,
  UserUpdated,
  validateEnvelope,
} from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { ClientType, createApp, createLogger, loadConfig, TokenClaims } from '@dc/platform';
import { RequestsModule } from '../app/requests.module';

/** Test-only: the requests service as the real process builds it (createApp), on a test database. */
export const TEST_JWT_SECRET = 'requests-test-secret-'.padEnd(48, 'x');

export interface Person {
  id: string;
  username: string;
  email: string;
  organisationId: string;
  clientType: ClientType;
  groups: number[];
}

export function person(username: string, organisationId: string, groups: number[], clientType: ClientType = 'STANDARD'): Person {
  return { id: randomUUID(), username, email: `${username}@example.org`, organisationId, clientType, groups };
}

/** A record.updated payload with sensible defaults: an EV record that needs a request. */
export function recordSnapshot(owner: Person, overrides: Partial<RecordSnapshot> = {}): RecordSnapshot {
  const now = new Date().toISOString();
  return {
    recordId: randomUUID(),
    name: 'Rainfall 2024',
    altName: '',
    description: '',
    provenance: '',
    source: '',
    ownerId: owner.id,
    ownerUsername: owner.username,
    organisationId: owner.organisationId,
    organisationName: '',
    visibility: 'EV',
    sharedWithUserIds: [],
    sharedWithOrganisationIds: [],
    groupIds: [],
    projects: [],
    access: 'RE',
    ownerOnly: false,
    derivedFrom: [],
    accessFee: null,
    currency: 'CAD',
    policyId: null,
    origin: 'upload',
    type: 'csv',
    size: 10,
    version: 1,
    createdAt: now,
    changedAt: now,
    headers: [],
    words: [],
    totalRows: null,
    encryptedHeaders: [],
    files: [],
    ...overrides,
  };
}

export class RequestsTestApp {
  private constructor(
    readonly app: NestExpressApplication,
    private readonly dataDir: string,
    private readonly db: Client,
  ) {}

  static async start(databaseUrl: string): Promise<RequestsTestApp> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'dc-requests-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
      LOG_LEVEL: 'silent',
    });
    // REQUESTS_TEST_LOGS=1 shows the service's logs while debugging a test.
    const logger = createLogger({ service: 'requests-test', level: process.env.REQUESTS_TEST_LOGS === '1' ? 'debug' : 'silent' });
    const app = await createApp({ service: 'requests', config, logger, modules: [RequestsModule], shutdownHooks: false });
    await app.init();
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    return new RequestsTestApp(app, dataDir, db);
  }

  async close(): Promise<void> {
    await this.db.end();
    await this.app.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  http() {
    return request(this.app.getHttpServer());
  }

  async sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.db.query(text, params)).rows as T[];
  }

  async auth(who: Person): Promise<{ Authorization: string }> {
    const claims: TokenClaims = {
      sub: who.id,
      username: who.username,
      org: who.organisationId,
      ct: who.clientType,
      perms: permissionsOfGroups(who.groups),
      groups: who.groups,
      pv: 1,
    };
    return { Authorization: `JWT ${await this.app.get(JwtService).signAsync(claims)}` };
  }

  /** Publishes events as the other services would, and waits until the requests service applied every one. */
  async feed(...events: EventEnvelope[]): Promise<void> {
    await this.app.get(EventBus).publish(events);
    const ids = events.map((e) => e.id);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [{ n }] = await this.sql<{ n: number }>(
        "SELECT count(*)::int AS n FROM requests.processed_events WHERE consumer_group = 'requests' AND event_id = ANY($1)",
        [ids],
      );
      if (n === ids.length) return;
      if (Date.now() > deadline) throw new Error('events were not applied by the requests service');
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  feedPeople(people: Person[], organisations: Record<string, { name: string; description?: string }>): Promise<void> {
    return this.feed(
      ...Object.entries(organisations).map(([id, o]) =>
        createEvent(OrganisationUpdated, id, { organisationId: id, name: o.name, description: o.description ?? '' }),
      ),
      ...people.map((p) =>
        createEvent(UserUpdated, p.id, {
          userId: p.id,
          username: p.username,
          organisationId: p.organisationId,
          clientType: p.clientType,
          active: true,
          email: p.email,
          firstName: p.username,
          groups: p.groups,
        }),
      ),
    );
  }

  feedRecord(record: RecordSnapshot): Promise<void> {
    return this.feed(createEvent(RecordUpdated, record.recordId, record));
  }

  feedPolicy(policy: {
    id: string;
    organisationId: string;
    ownerId: string;
    name: string;
    fields: Array<{ topic: string; requirement: string; agree: 'yes' | 'no' }>;
    version?: number;
  }): Promise<void> {
    const now = new Date().toISOString();
    return this.feed(
      createEvent(PolicyUpdated, policy.id, {
        policyId: policy.id,
        organisationId: policy.organisationId,
        ownerId: policy.ownerId,
        name: policy.name,
        fields: policy.fields,
        createdAt: now,
        changedAt: now,
        version: policy.version ?? 1,
      }),
    );
  }

  /** The requests service's outbox events about one aggregate (a request id), oldest first. */
  async events(key: string): Promise<EventEnvelope[]> {
    return (await this.sql<{ envelope: unknown }>('SELECT envelope FROM requests.outbox_events WHERE key = $1 ORDER BY seq', [key])).map((r) =>
      validateEnvelope(r.envelope),
    );
  }

  /** The mail.requested payloads about a request, to one address, oldest first. */
  async mailsTo(
    requestId: string,
    email: string,
  ): Promise<Array<{ to: string; template: 'plain'; values: { subject: string; paragraphs: string[]; action?: { path: string } } }>> {
    return (await this.events(requestId))
      .filter((e) => e.type === 'mail.requested')
      .map((e) => e.payload as never)
      .filter((m: { to: string }) => m.to === email);
  }
}
