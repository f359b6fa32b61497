import type { Type } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import {
  createEvent,
  EventEnvelope,
  OrganisationUpdated,
  permissionsOfGroups,
  RequestSnapshot,
  RequestUpdated,
  UserRegistered,
  validateEnvelope,
} from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { ClientType, createApp, createLogger, loadConfig, TokenClaims } from '@dc/platform';
import { CatalogueModule } from '../app/catalogue.module';

/** Test-only: the catalogue service as the real process builds it (createApp), on a test database. */
export const TEST_JWT_SECRET = 'catalogue-test-secret-'.padEnd(48, 'x');
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
/** The nearest shared/datasets above this file: beside the repository (CI, /work/main) or above a worktree. */
function findDatasets(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'shared/datasets'))) return path.join(dir, 'shared/datasets');
  }
  return path.resolve(__dirname, '../../../../../shared/datasets');
}
export const DATASETS = findDatasets();

export interface Caller {
  id: string;
  username: string;
  organisationId: string;
  clientType: ClientType;
  groups: number[];
}

export function caller(username: string, organisationId: string, groups: number[], clientType: ClientType = 'STANDARD'): Caller {
  return { id: randomUUID(), username, organisationId, clientType, groups };
}

export class CatalogueTestApp {
  private constructor(
    readonly app: NestExpressApplication,
    readonly dataDir: string,
    private readonly db: Client,
  ) {}

  /** A temporary DATA_DIR (fs storage) unless one is given, e.g. to restart on the same files. */
  /** modules: extra (global) modules, e.g. to provide settings the catalogue takes as optional. */
  /** env: more configuration, e.g. PUBLIC_URL, s3StorageEnv(...) for the S3 driver, ALLOWED_PRIVATE_ENDPOINTS for loopback databases and s3rver. */
  static async start(
    databaseUrl: string,
    options: { dataDir?: string; maxUploadBytes?: number; modules?: Type[]; env?: Record<string, string> } = {},
  ): Promise<CatalogueTestApp> {
    const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'dc-catalogue-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      LOG_LEVEL: 'silent',
      ...(options.maxUploadBytes ? { MAX_UPLOAD_BYTES: String(options.maxUploadBytes) } : {}),
      ...options.env,
    });
    // CATALOGUE_TEST_LOGS=1 shows the service's logs while debugging a test.
    const logger = createLogger({ service: 'catalogue-test', level: process.env.CATALOGUE_TEST_LOGS === '1' ? 'debug' : 'silent' });
    const app = await createApp({ service: 'catalogue', config, logger, modules: [CatalogueModule, ...(options.modules ?? [])], shutdownHooks: false });
    await app.init();
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    return new CatalogueTestApp(app, dataDir, db);
  }

  /** keepData: leave DATA_DIR for a restart. */
  async close(options: { keepData?: boolean } = {}): Promise<void> {
    await this.db.end();
    await this.app.close();
    if (!options.keepData) rmSync(this.dataDir, { recursive: true, force: true });
  }

  http() {
    return request(this.app.getHttpServer());
  }

  async sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.db.query(text, params)).rows as T[];
  }

  /** The events in the catalogue's outbox about one aggregate, oldest first, validated. */
  async events(key: string): Promise<EventEnvelope[]> {
    return (await this.sql<{ envelope: unknown }>('SELECT envelope FROM catalogue.outbox_events WHERE key = $1 ORDER BY seq', [key])).map((r) =>
      validateEnvelope(r.envelope),
    );
  }

  /** `Authorization: JWT <token>` for the caller, signed as identity signs them. */
  async auth(who: Caller): Promise<{ Authorization: string }> {
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

  /** Publishes identity's events for these people and organisations and waits until the catalogue applied them. */
  async feedDirectory(people: Caller[], organisations: Record<string, string>): Promise<void> {
    await this.app.get(EventBus).publish([
      ...Object.entries(organisations).map(([id, name]) => createEvent(OrganisationUpdated, id, { organisationId: id, name })),
      ...people.map((p) =>
        createEvent(UserRegistered, p.id, {
          userId: p.id,
          username: p.username,
          organisationId: p.organisationId,
          clientType: p.clientType,
          groups: p.groups,
        }),
      ),
    ]);
    const ids = people.map((p) => p.id);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [{ n }] = await this.sql<{ n: number }>('SELECT count(*)::int AS n FROM catalogue.users WHERE id = ANY($1)', [ids]);
      const [{ m }] = await this.sql<{ m: number }>('SELECT count(*)::int AS m FROM catalogue.organisations WHERE id = ANY($1)', [Object.keys(organisations)]);
      if (n === ids.length && m === Object.keys(organisations).length) return;
      if (Date.now() > deadline) throw new Error('identity events were not applied by the catalogue');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Publishes the requests service's request.updated for each state and waits until the grant projection holds it. */
  async applyRequests(...requests: RequestSnapshot[]): Promise<void> {
    await this.app.get(EventBus).publish(requests.map((r) => createEvent(RequestUpdated, r.requestId, r)));
    const deadline = Date.now() + 30_000;
    for (const request of requests) {
      for (;;) {
        const [row] = await this.sql<{ version: number }>('SELECT version FROM catalogue.request_grants WHERE request_id = $1', [request.requestId]);
        if (row && row.version >= request.version) break;
        if (Date.now() > deadline) throw new Error('request events were not applied by the catalogue');
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}
