import { randomUUID } from 'node:crypto';
import { createEvent, type EventEnvelope, OrganisationUpdated, PolicyUpdated, type RecordSnapshot, RecordUpdated, UserUpdated } from '@dc/contracts';
import type { ClientType } from '@dc/platform';
import { ServiceHarness, TEST_JWT_SECRET, type TestCaller, testRecordSnapshot } from '@dc/testing';
import { RequestsModule } from '../app/requests.module';

export { TEST_JWT_SECRET };

export interface Person extends TestCaller {
  email: string;
}

export function person(username: string, organisationId: string, groups: number[], clientType: ClientType = 'STANDARD'): Person {
  return { id: randomUUID(), username, email: `${username}@example.org`, organisationId, clientType, groups };
}

/** A record.updated payload with sensible defaults: an EV record that needs a request. */
export function recordSnapshot(owner: Person, overrides: Partial<RecordSnapshot> = {}): RecordSnapshot {
  return testRecordSnapshot(owner, overrides);
}

/** Test-only: the requests service as the real process builds it (createApp), on a test database. */
export class RequestsTestApp extends ServiceHarness {
  static async start(databaseUrl: string): Promise<RequestsTestApp> {
    return new RequestsTestApp(await ServiceHarness.boot({ service: 'requests', modules: [RequestsModule], databaseUrl }));
  }

  /** Publishes events as the other services would, and waits until the requests service applied every one. */
  async feed(...events: EventEnvelope[]): Promise<void> {
    await this.publish(...events);
    const ids = events.map((e) => e.id);
    await this.until("SELECT 1 WHERE (SELECT count(*) FROM requests.processed_events WHERE consumer_group = 'requests' AND event_id = ANY($1)) = $2", [
      ids,
      ids.length,
    ]);
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
  events(key: string): Promise<EventEnvelope[]> {
    return this.outbox('requests', key);
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
