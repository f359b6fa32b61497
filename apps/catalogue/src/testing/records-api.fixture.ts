import { randomUUID } from 'node:crypto';
import { listAll, ObjectStorage } from '@dc/storage';
import { createTestDatabase, TestDatabase } from '@dc/testing';
import { Caller, caller, CatalogueTestApp } from './catalogue-test-app';

/** Test-only: the set-up the records API suites share (creation, private columns, who sees what). */

export const orgA = randomUUID();
export const orgB = randomUUID();
export const orgC = randomUUID();
export const owner = caller('owner', orgA, [3]);
export const member = caller('member', orgA, [3]);
export const admin = caller('admin', orgA, [2]);
export const outsider = caller('outsider', orgB, [1, 2, 3]);
export const friend = caller('friend', orgC, [1, 2, 3]);
export const basic = caller('basic', orgC, [3], 'BASIC');
export const everyone = [owner, member, admin, outsider, friend, basic];

/** The catalogue of one suite, its storage and the callers' tokens, with the calls the suites make. */
export class RecordsApi {
  db!: TestDatabase;
  catalogue!: CatalogueTestApp;
  storage!: ObjectStorage;
  readonly headers = new Map<Caller, { Authorization: string }>();

  readonly http = () => this.catalogue.http();
  readonly as = (who: Caller) => this.headers.get(who)!;
  readonly upload = (who: Caller, files: string[], fields: Record<string, string> = {}) => {
    let call = this.http().post('/api/records/').set(this.as(who));
    for (const [name, value] of Object.entries(fields)) call = call.field(name, value);
    for (const file of files) call = call.attach('file', file);
    return call;
  };
  readonly outbox = (key: string) => this.catalogue.events(key);
  /** Records, files and stored objects. */
  readonly counts = async () => {
    const [row] = await this.catalogue.sql<{ records: number; files: number }>(
      'SELECT (SELECT count(*) FROM catalogue.records)::int AS records, (SELECT count(*) FROM catalogue.files)::int AS files',
    );
    return { ...row, objects: (await listAll(this.storage, 'catalogue/')).length };
  };
}

/**
 * Within a describe block: the catalogue on a new test database, every caller signed in and, as in
 * production, the directory projection fed by identity's events; closed and dropped after the block.
 */
export function useRecordsApi(options: { maxUploadBytes: number }): RecordsApi {
  const api = new RecordsApi();
  beforeAll(async () => {
    api.db = await createTestDatabase('dc_catalogue');
    api.catalogue = await CatalogueTestApp.start(api.db.url, { maxUploadBytes: options.maxUploadBytes });
    api.storage = api.catalogue.app.get(ObjectStorage);
    for (const who of everyone) api.headers.set(who, await api.catalogue.auth(who));
    await api.catalogue.feedDirectory(everyone, { [orgA]: 'Acme', [orgB]: 'Blue', [orgC]: 'Cyan' });
  });
  afterAll(async () => {
    await api.catalogue?.close();
    await api.db?.drop();
  });
  return api;
}

/**
 * Within a describe block: the catalogue on a new test database (named after the suite) with one
 * signed-in caller of a known organisation, Acme; closed and dropped after the block.
 */
export function useOneCallerCatalogue(databaseName: string, who: Caller): { catalogue: CatalogueTestApp; auth: { Authorization: string } } {
  const state = {} as { db: TestDatabase; catalogue: CatalogueTestApp; auth: { Authorization: string } };
  beforeAll(async () => {
    state.db = await createTestDatabase(databaseName);
    state.catalogue = await CatalogueTestApp.start(state.db.url);
    await state.catalogue.feedDirectory([who], { [who.organisationId]: 'Acme' });
    state.auth = await state.catalogue.auth(who);
  });
  afterAll(async () => {
    await state.catalogue?.close();
    await state.db?.drop();
  });
  return state;
}
