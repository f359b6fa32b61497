import type { DataSource } from 'typeorm';
import {
  createEvent,
  EventEnvelope,
  OrganisationUpdated,
  RecordCreated,
  RecordDeleted,
  RecordSnapshot,
  RecordUpdated,
  UserRegistered,
  UserUpdated,
} from '@dc/contracts';
import { createMessagingMigration, IdempotentConsumer } from '@dc/messaging';
import { openServiceDataSource } from '@dc/persistence';
import { EventHandler, ServiceEvents } from '@dc/platform';
import { PostgresSearchIndex } from '@dc/search-index';
import { createTestDatabase, type TestDatabase, testRecordSnapshot } from '@dc/testing';
import { DirectoryConsumer } from './directory/directory.consumer';
import { DirectoryRepository } from './directory/directory.repository';
import { SEARCH_MIGRATIONS } from './migrations';
import { RecordVersionsRepository } from './projection/record-versions.repository';
import { RecordsConsumer } from './records/records.consumer';

/** The consumers' handlers, fed the way the service runtime feeds them: once per event id, in a transaction. */
class CapturedEvents extends ServiceEvents {
  readonly handlers = new Map<string, EventHandler>();
  on(types: string[], handler: EventHandler): void {
    for (const type of types) this.handlers.set(type, handler);
  }
}

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

function snapshot(overrides: Partial<RecordSnapshot> = {}): RecordSnapshot {
  return testRecordSnapshot(
    { id: 'u-ada', username: 'ada', organisationId: 'o-1' },
    {
      recordId: 'r-1',
      name: 'River flow',
      description: 'Daily discharge',
      organisationName: 'Hydro Lab',
      access: 'OP',
      type: 'text/csv',
      createdAt: at(0).toISOString(),
      changedAt: at(0).toISOString(),
      headers: ['date', 'flow'],
      totalRows: 3,
      ...overrides,
    },
  );
}

describe('search consumers (record, user and organisation events) on PostgreSQL', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let index: PostgresSearchIndex;
  const events = new CapturedEvents();

  beforeAll(async () => {
    db = await createTestDatabase('dc_search_consumers');
    dataSource = await openServiceDataSource({ url: db.url, schema: 'search', migrations: [createMessagingMigration('search'), ...SEARCH_MIGRATIONS] });
    index = new PostgresSearchIndex({ connectionString: db.url, schema: 'search' });
    await index.init();
    const versions = new RecordVersionsRepository();
    const directory = new DirectoryRepository();
    new RecordsConsumer(events, index, versions, directory).onModuleInit();
    new DirectoryConsumer(events, directory, versions, index).onModuleInit();
  });
  afterAll(async () => {
    await index?.close();
    await dataSource?.destroy();
    await db?.drop();
  });
  beforeEach(async () => {
    await index.clear();
    await dataSource.query('TRUNCATE search.record_versions, search.users, search.organisations, search.processed_events');
  });

  const consumer = () => new IdempotentConsumer(dataSource, 'search');
  async function deliver(event: EventEnvelope): Promise<boolean> {
    const handler = events.handlers.get(event.type);
    if (!handler) throw new Error(`no handler for ${event.type}`);
    return consumer().handle('search', event, (manager) => handler(event, manager));
  }
  const recordEvent = (type: typeof RecordCreated | typeof RecordUpdated, minute: number, overrides: Partial<RecordSnapshot> = {}) =>
    createEvent(type, 'r-1', snapshot(overrides), { occurredAt: at(minute) });
  const userEvent = (minute: number, username: string) =>
    createEvent(UserUpdated, 'u-ada', { userId: 'u-ada', username, organisationId: 'o-1', clientType: 'STANDARD', active: true }, { occurredAt: at(minute) });
  const organisationEvent = (minute: number, name: string) =>
    createEvent(OrganisationUpdated, 'o-1', { organisationId: 'o-1', name }, { occurredAt: at(minute) });

  it('indexes a created record with its card, and applies a redelivered event once', async () => {
    const created = recordEvent(RecordCreated, 1);
    expect(await deliver(created)).toBe(true);
    expect(await deliver(created)).toBe(false);
    const doc = await index.get('r-1');
    expect(doc).toMatchObject({
      name: 'River flow',
      visibility: 'EV',
      headers: ['date', 'flow'],
      card: { user: 'ada', organisation: { id: 'o-1', name: 'Hydro Lab' }, total_rows: 3 },
    });
  });

  it('ignores an older record event that arrives after a newer one', async () => {
    await deliver(recordEvent(RecordUpdated, 5, { name: 'River flow v2', version: 2 }));
    await deliver(recordEvent(RecordUpdated, 3, { name: 'River flow v1', version: 1 }));
    expect((await index.get('r-1'))?.name).toBe('River flow v2');
    // A snapshot re-published later (npm run reindex) carries the same state and applies.
    await deliver(recordEvent(RecordUpdated, 9, { name: 'River flow v2', version: 2 }));
    expect((await index.get('r-1'))?.name).toBe('River flow v2');
  });

  it('does not bring a deleted record back through an older event delivered late', async () => {
    await deliver(recordEvent(RecordCreated, 1));
    await deliver(createEvent(RecordDeleted, 'r-1', { recordId: 'r-1', ownerId: 'u-ada', organisationId: 'o-1' }, { occurredAt: at(4) }));
    expect(await index.get('r-1')).toBeNull();
    await deliver(recordEvent(RecordUpdated, 2, { name: 'Late' }));
    expect(await index.get('r-1')).toBeNull();
    expect(await index.search({ viewer: null, view: 'all', page: 1, pageSize: 20, text: 'late' })).toMatchObject({ count: 0 });
  });

  it('puts a renamed owner and organisation on the cards of their records, and finds them under the new names', async () => {
    await deliver(recordEvent(RecordCreated, 1));
    await deliver(createEvent(RecordCreated, 'r-2', snapshot({ recordId: 'r-2', name: 'Lake levels' }), { occurredAt: at(1) }));
    await deliver(userEvent(2, 'ada.lovelace'));
    await deliver(organisationEvent(3, 'Hydrology Institute'));
    for (const id of ['r-1', 'r-2'])
      expect((await index.get(id))?.card).toMatchObject({ user: 'ada.lovelace', organisation: { id: 'o-1', name: 'Hydrology Institute' } });
    const listed = await index.search({ viewer: null, view: 'all', page: 1, pageSize: 20 });
    expect(listed.results.map((hit) => hit.card.user)).toEqual(['ada.lovelace', 'ada.lovelace']);
  });

  it('keeps the directory names for records indexed later, over the copies in the snapshot', async () => {
    await deliver(userEvent(2, 'ada.lovelace'));
    await deliver(organisationEvent(2, 'Hydrology Institute'));
    // The catalogue had not heard of the renames yet.
    await deliver(recordEvent(RecordUpdated, 3, { ownerUsername: 'ada', organisationName: 'Hydro Lab' }));
    expect((await index.get('r-1'))?.card).toMatchObject({ user: 'ada.lovelace', organisation: { name: 'Hydrology Institute' } });
  });

  it('ignores an older user or organisation event that arrives after a newer one', async () => {
    await deliver(recordEvent(RecordCreated, 1));
    await deliver(userEvent(6, 'ada.new'));
    await deliver(userEvent(4, 'ada.old'));
    await deliver(
      createEvent(
        UserRegistered,
        'u-ada',
        { userId: 'u-ada', username: 'ada.registered', organisationId: 'o-1', clientType: 'STANDARD' },
        { occurredAt: at(0) },
      ),
    );
    await deliver(organisationEvent(6, 'New name'));
    await deliver(organisationEvent(5, 'Old name'));
    expect((await index.get('r-1'))?.card).toMatchObject({ user: 'ada.new', organisation: { name: 'New name' } });
    expect(await dataSource.query('SELECT username, active FROM search.users')).toEqual([{ username: 'ada.new', active: true }]);
  });
});
