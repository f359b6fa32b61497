import { createEvent, type EventEnvelope, RecordCreated, type RecordSnapshot } from '@dc/contracts';
import { ServiceHarness, TEST_JWT_SECRET } from '@dc/testing';
import { SearchModule } from '../app/search.module';

export { TEST_JWT_SECRET };

export interface Viewer {
  id: string;
  username: string;
  organisationId: string;
  permissions?: string[];
}

/** Test-only: the search service as the real process builds it (createApp), on a test database. */
export class SearchTestApp extends ServiceHarness {
  static async start(databaseUrl: string): Promise<SearchTestApp> {
    return new SearchTestApp(await ServiceHarness.boot({ service: 'search', modules: [SearchModule], databaseUrl }));
  }

  /** `Authorization: JWT <token>` for the viewer (a Data Viewer with the permissions given), signed as identity signs them. */
  override auth(viewer: Viewer): { Authorization: string } {
    const token = this.sign({
      sub: viewer.id,
      username: viewer.username,
      org: viewer.organisationId,
      ct: 'STANDARD',
      perms: viewer.permissions ?? [],
      groups: [3],
      pv: 1,
    });
    return { Authorization: `JWT ${token}` };
  }

  /** Publishes record.created for each snapshot, as the catalogue does, and waits until search applied them all. */
  async indexRecords(records: RecordSnapshot[]): Promise<void> {
    await this.apply(records.map((record) => createEvent(RecordCreated, record.recordId, record)));
  }

  /** Publishes events as other services do and waits until search applied them all. */
  async apply(events: EventEnvelope[]): Promise<void> {
    await this.publish(...events);
    const ids = events.map((event) => event.id);
    await this.until('SELECT 1 WHERE (SELECT count(*) FROM search.processed_events WHERE event_id = ANY($1)) = $2', [ids, ids.length]);
  }
}
