import type { Abstract, DynamicModule, Type } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import supertest from 'supertest';
import { createEvent, type EventEnvelope, OrganisationUpdated, permissionsOfGroups, UserRegistered, UserUpdated, validateEnvelope } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { type AppConfig, type AppOptions, type AuthUser, type ClientType, createApp, createLogger, loadConfig, type TokenClaims } from '@dc/platform';
import type { HttpMethod } from './openapi-answers';

/** The secrets every test app gets unless its `env` says otherwise. */
export const TEST_JWT_SECRET = 'service-test-secret-'.padEnd(48, 'x');
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

/** A person as the services know them from identity's events and tokens. */
export interface TestCaller {
  id: string;
  username: string;
  organisationId: string;
  clientType: ClientType;
  groups: number[];
}

export function testCaller(username: string, organisationId: string, groups: number[] = [3], clientType: ClientType = 'STANDARD'): TestCaller {
  return { id: randomUUID(), username, organisationId, clientType, groups };
}

/** The caller as the services' guards hand them on (AuthUser), signed in with the permissions of their groups. */
export function authUser(who: TestCaller): AuthUser {
  return { ...who, permissions: permissionsOfGroups(who.groups), passwordVersion: 1 };
}

/** The claims identity signs for the caller. */
export function tokenClaims(who: TestCaller): TokenClaims {
  return {
    sub: who.id,
    username: who.username,
    org: who.organisationId,
    ct: who.clientType,
    perms: permissionsOfGroups(who.groups),
    groups: who.groups,
    pv: 1,
  };
}

/**
 * Identity's events about these people and organisations (id to name): organisation.updated for
 * each organisation, then user.registered for each person, or user.updated (active, with an
 * `<username>@example.org` address) with `updated`.
 */
export function directoryEvents(people: TestCaller[], organisations: Record<string, string>, options: { updated?: boolean } = {}): EventEnvelope[] {
  const user = (p: TestCaller) => ({ userId: p.id, username: p.username, organisationId: p.organisationId, clientType: p.clientType });
  return [
    ...Object.entries(organisations).map(([id, name]) => createEvent(OrganisationUpdated, id, { organisationId: id, name })),
    ...people.map((p) =>
      options.updated
        ? createEvent(UserUpdated, p.id, { ...user(p), active: true, email: `${p.username}@example.org`, groups: p.groups })
        : createEvent(UserRegistered, p.id, { ...user(p), groups: p.groups }),
    ),
  ];
}

export interface ServiceTestAppOptions {
  /** createApp's service name: a service's own (`catalogue`), or `gateway` for several service modules composed as embedded mode does. */
  service: string;
  /** The service modules (libs/testing imports no app: the caller passes them), and extra global modules. */
  modules: Array<Type<unknown> | DynamicModule>;
  databaseUrl: string;
  /** More configuration, over the test defaults (NODE_ENV=test, the test secrets, a temporary DATA_DIR). */
  env?: Record<string, string>;
  /** DATA_DIR (e.g. to restart on the same files); a new temporary directory when absent. */
  dataDir?: string;
  /**
   * Names the logger and the temporary DATA_DIR (default: `service`). Logs are silent unless
   * TEST_APP_LOGS or <NAME>_TEST_LOGS (e.g. CATALOGUE_TEST_LOGS) is 1 (debug) or a log level.
   */
  name?: string;
  /** Collects every log line (trace level) here instead, for suites that assert on logs. */
  logs?: string[];
  /** Mounts more on the HTTP server before the routes are set (e.g. the gateway's web app), as createApp's configure. */
  configure?: AppOptions['configure'];
}

/** What ServiceTestApp.start builds; subclasses pass it on to the constructor. */
export interface StartedService {
  app: NestExpressApplication;
  config: AppConfig;
  dataDir: string;
  databaseUrl: string;
}

/**
 * A started test app and the helpers every suite uses. ServiceTestApp.start starts one; the
 * service-specific harnesses (with a start of their own) extend this class with their helpers.
 */
export class ServiceHarness {
  readonly app: NestExpressApplication;
  readonly config: AppConfig;
  readonly dataDir: string;
  readonly databaseUrl: string;
  private db?: Promise<Client>;
  private readonly tokens = new WeakMap<TestCaller, string>();

  protected constructor(started: StartedService) {
    this.app = started.app;
    this.config = started.config;
    this.dataDir = started.dataDir;
    this.databaseUrl = started.databaseUrl;
  }

  /** Builds and initialises the application (for subclasses' own start). */
  protected static async boot(options: ServiceTestAppOptions): Promise<StartedService> {
    const name = options.name ?? options.service;
    const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), `dc-${name}-`));
    try {
      const config = loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: options.databaseUrl,
        DATA_DIR: dataDir,
        JWT_SECRET: TEST_JWT_SECRET,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        LOG_LEVEL: 'silent',
        ...options.env,
      });
      const app = await createApp({
        service: options.service,
        config,
        logger: testLogger(name, options.logs),
        modules: options.modules,
        shutdownHooks: false,
        configure: options.configure,
      });
      await app.init();
      return { app, config, dataDir, databaseUrl: options.databaseUrl };
    } catch (error) {
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Closes the app and its SQL connection, and removes DATA_DIR (unless keepData, e.g. to restart on it). */
  async stop(options: { keepData?: boolean } = {}): Promise<void> {
    const db = this.db;
    this.db = undefined;
    await (await db?.catch(() => undefined))?.end();
    await this.app.close();
    if (!options.keepData) rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** The same as stop. */
  close(options: { keepData?: boolean } = {}): Promise<void> {
    return this.stop(options);
  }

  get<T>(token: Type<T> | Abstract<T> | string | symbol): T {
    return this.app.get(token);
  }

  /** A supertest agent on the app's HTTP server. */
  http() {
    return supertest(this.app.getHttpServer());
  }

  /** A request as the caller (`Authorization: JWT <token>`), or without a token when who is null or absent. */
  request(method: HttpMethod, url: string, who?: TestCaller | null) {
    const test = this.http()[method](url);
    return who ? test.set(this.auth(who)) : test;
  }

  /** A token for the caller, signed as identity signs them (cached per caller). */
  token(who: TestCaller): string {
    let token = this.tokens.get(who);
    if (!token) this.tokens.set(who, (token = this.sign(tokenClaims(who))));
    return token;
  }

  sign(claims: TokenClaims): string {
    return this.app.get(JwtService).sign(claims);
  }

  /** `Authorization: JWT <token>` for the caller. */
  auth(who: TestCaller): { Authorization: string } {
    return { Authorization: `JWT ${this.token(who)}` };
  }

  /** Publishes events on the bus, as other services would. */
  publish(...events: EventEnvelope[]): Promise<void> {
    return this.app.get(EventBus).publish(events);
  }

  /** Runs a query on the test database (one connection, opened on first use). */
  async sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    this.db ??= (async () => {
      const client = new Client({ connectionString: this.databaseUrl });
      await client.connect();
      return client;
    })();
    return (await (await this.db).query(text, params)).rows as T[];
  }

  /** Waits until the query finds a row (what the services do in the background, after an event). */
  async until(query: string, params: unknown[] = [], timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.sql(query, params)).length === 0) {
      if (Date.now() > deadline) throw new Error(`the events were not applied within ${timeoutMs} ms (${query})`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** The events in a schema's outbox about one aggregate, oldest first, validated. */
  async outbox(schema: string, key: string): Promise<EventEnvelope[]> {
    const rows = await this.sql<{ envelope: unknown }>(`SELECT envelope FROM ${schema}.outbox_events WHERE key = $1 ORDER BY seq`, [key]);
    return rows.map((row) => validateEnvelope(row.envelope));
  }
}

function testLogger(name: string, logs?: string[]) {
  if (logs) {
    const destination = new Writable({ write: (chunk, _encoding, done) => (logs.push(String(chunk)), done()) });
    return createLogger({ service: `${name}-test`, level: 'trace', destination });
  }
  const shown = process.env.TEST_APP_LOGS ?? process.env[`${name.toUpperCase().replace(/\W/g, '_')}_TEST_LOGS`];
  return createLogger({ service: `${name}-test`, level: !shown ? 'silent' : shown === '1' ? 'debug' : shown });
}

/**
 * Test-only: one or more service modules as the real process builds them (createApp, its
 * platform and infrastructure adapters), on a test database, with fs storage under a temporary
 * DATA_DIR and the in-process event bus.
 */
export class ServiceTestApp extends ServiceHarness {
  static async start(options: ServiceTestAppOptions): Promise<ServiceTestApp> {
    return new ServiceTestApp(await ServiceHarness.boot(options));
  }
}
