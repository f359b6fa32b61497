import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@dc/contracts';
import { AuditContent, AuditEntry, chainEntry } from '../audit/audit-chain';
import type { AuditRepository } from '../audit/audit.repository';
import type { DirectoryRepository, Organisation, Person } from '../directory/directory.repository';
import type { KnownPolicy, KnownRecord, RecordsRepository } from '../records/records.repository';
import type { MessagesRepository } from './messages.repository';
import type { AccessRequest, RequestMessage } from './request';
import type { RequestsRepository, RequestStore } from './requests.repository';

/**
 * Test-only: in-memory stand-ins for the requests service's repositories, with the same methods and
 * the same rules as their SQL (one open request per requestor and record, newest first, the owner
 * side's received list), so a service runs on them without a database. A transaction that throws
 * leaves nothing behind, and its events are published only when it ends well, as PostgreSQL's would.
 */
type Public<T> = { [K in keyof T]: T[K] };

/** The manager the fakes hand around; nothing reads it. */
const NO_MANAGER = {} as EntityManager;
const copy = <T>(value: T): T => structuredClone(value);
const paged = <T>(items: T[], page: { offset: number; limit: number }) => items.slice(page.offset, page.offset + page.limit);

export class FakeRecords implements Public<RecordsRepository> {
  readonly stored = new Map<string, KnownRecord>();
  readonly policies = new Map<string, KnownPolicy & { deleted: boolean }>();

  async applyRecord(_manager: EntityManager, record: Omit<KnownRecord, 'deleted'>): Promise<void> {
    if (!this.stored.get(record.id)?.deleted) this.stored.set(record.id, { ...copy(record), deleted: false });
  }
  async deleteRecord(_manager: EntityManager, id: string): Promise<void> {
    const record = this.stored.get(id);
    if (record) record.deleted = true;
  }
  async findRecord(_manager: EntityManager, id: string): Promise<KnownRecord | null> {
    const record = this.stored.get(id);
    return record ? copy(record) : null;
  }
  async records(_manager: EntityManager, ids: string[]): Promise<Map<string, KnownRecord>> {
    return new Map(ids.filter((id) => this.stored.has(id)).map((id) => [id, copy(this.stored.get(id)!)]));
  }
  async applyPolicy(_manager: EntityManager, policy: KnownPolicy): Promise<void> {
    const known = this.policies.get(policy.id);
    if (!known || (known.version < policy.version && !known.deleted)) this.policies.set(policy.id, { ...copy(policy), deleted: false });
  }
  async deletePolicy(_manager: EntityManager, id: string, organisationId: string): Promise<void> {
    this.policies.set(id, { ...(this.policies.get(id) ?? { id, organisationId, name: '', fields: [], version: 0 }), deleted: true });
  }
  async findPolicy(_manager: EntityManager, id: string): Promise<KnownPolicy | null> {
    const policy = this.policies.get(id);
    if (!policy || policy.deleted) return null;
    const { deleted: _deleted, ...known } = copy(policy);
    return known;
  }
}

export class FakeDirectory implements Public<DirectoryRepository> {
  readonly people = new Map<string, Person>();
  readonly orgs = new Map<string, Organisation>();

  async upsertOrganisation(_manager: EntityManager, organisation: Organisation): Promise<boolean> {
    this.orgs.set(organisation.id, copy(organisation));
    return true;
  }
  async upsertUser(
    _manager: EntityManager,
    user: Pick<Person, 'id' | 'username' | 'organisationId' | 'active' | 'deleted'> & Partial<Person>,
  ): Promise<boolean> {
    const known = this.people.get(user.id);
    this.people.set(user.id, { firstName: '', lastName: '', email: '', groups: [], ...known, ...copy(user) } as Person);
    return true;
  }
  async rememberCaller(_manager: EntityManager, user: { id: string; username: string; organisationId: string; groups: number[] }): Promise<void> {
    if (!this.people.has(user.id)) this.people.set(user.id, { firstName: '', lastName: '', email: '', active: true, deleted: false, ...copy(user) });
  }
  async person(_manager: EntityManager, id: string): Promise<Person | null> {
    return this.people.has(id) ? copy(this.people.get(id)!) : null;
  }
  async usernames(_manager: EntityManager, ids: string[]): Promise<Map<string, string>> {
    return new Map(ids.filter((id) => this.people.has(id)).map((id) => [id, this.people.get(id)!.username]));
  }
  async organisation(_manager: EntityManager, id: string): Promise<Organisation | null> {
    return this.orgs.has(id) ? copy(this.orgs.get(id)!) : null;
  }
  async organisations(_manager: EntityManager, ids: string[]): Promise<Map<string, Organisation>> {
    return new Map(ids.filter((id) => this.orgs.has(id)).map((id) => [id, copy(this.orgs.get(id)!)]));
  }
  async membersInGroup(_manager: EntityManager, organisationId: string, group: number): Promise<Person[]> {
    return [...this.people.values()]
      .filter((p) => p.organisationId === organisationId && p.groups.includes(group) && p.active && !p.deleted)
      .sort((a, b) => a.username.localeCompare(b.username))
      .map(copy);
  }
}

export class FakeAudit implements Public<AuditRepository> {
  entries: AuditEntry[] = [];

  async append(_manager: EntityManager, content: AuditContent): Promise<AuditEntry> {
    const last = this.entries.at(-1);
    const entry = chainEntry(content, last ? { seq: last.seq, hash: last.hash } : null);
    this.entries.push(entry);
    return entry;
  }
  async ofRecord(_manager: EntityManager, recordId: string, page: { offset: number; limit: number }) {
    const entries = this.entries.filter((e) => e.recordId === recordId);
    return { count: entries.length, entries: paged(entries, page) };
  }
  async verify(): Promise<{ checked: number; broken: null }> {
    return { checked: this.entries.length, broken: null };
  }
}

export class FakeMessages implements Public<MessagesRepository> {
  messages: RequestMessage[] = [];

  async insert(_manager: EntityManager, message: RequestMessage): Promise<void> {
    this.messages.push(copy(message));
  }
  async thread(_manager: EntityManager, requestId: string, page: { offset: number; limit: number }) {
    const messages = this.messages.filter((m) => m.requestId === requestId);
    return { count: messages.length, messages: paged(messages, page) };
  }
  reads = new Map<string, Date>();
  async markRead(_manager: EntityManager, requestId: string, userId: string, messageId: string | null): Promise<Date | null> {
    const times = this.messages.filter((m) => m.requestId === requestId && (messageId === null || m.id === messageId)).map((m) => m.createdAt.getTime());
    if (!times.length) return null;
    const key = `${requestId}:${userId}`;
    const readAt = new Date(Math.max(...times, this.reads.get(key)?.getTime() ?? -Infinity));
    this.reads.set(key, readAt);
    return readAt;
  }
}

const newestFirst = (a: AccessRequest, b: AccessRequest) => b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id);

class FakeRequestStore implements Public<RequestStore> {
  readonly manager = NO_MANAGER;
  constructor(
    private readonly rows: Map<string, AccessRequest>,
    private readonly records: FakeRecords,
    private readonly pending?: EventEnvelope[],
  ) {}

  async publish(...events: EventEnvelope[]): Promise<void> {
    if (!this.pending) throw new Error('publish needs a transaction');
    this.pending.push(...events);
  }
  async find(id: string): Promise<AccessRequest | null> {
    return this.rows.has(id) ? copy(this.rows.get(id)!) : null;
  }
  async findOpen(recordId: string, requestorId: string): Promise<AccessRequest | null> {
    const open = [...this.rows.values()].find((r) => r.recordId === recordId && r.requestorId === requestorId && r.status !== 'closed');
    return open ? copy(open) : null;
  }
  async lockPair(): Promise<void> {}
  async insert(request: AccessRequest): Promise<void> {
    if (this.rows.has(request.id) || (await this.findOpen(request.recordId, request.requestorId)))
      throw new Error('duplicate key value violates unique constraint');
    this.rows.set(request.id, copy(request));
  }
  async save(request: AccessRequest): Promise<void> {
    if (this.rows.has(request.id)) this.rows.set(request.id, copy(request));
  }
  async sent(requestorId: string, page: { offset: number; limit: number }) {
    const mine = [...this.rows.values()].filter((r) => r.requestorId === requestorId && r.status !== 'closed').sort(newestFirst);
    return { count: mine.length, requests: paged(mine, page).map(copy) };
  }
  async received(reviewer: { id: string; organisationId: string; dataAdmin: boolean }, page: { offset: number; limit: number }) {
    const reviewed = [...this.rows.values()]
      .filter((r) => {
        const record = this.records.stored.get(r.recordId);
        const reviews = !!record && (record.ownerId === reviewer.id || (reviewer.dataAdmin && record.organisationId === reviewer.organisationId));
        return reviews && r.status !== 'new' && r.status !== 'closed';
      })
      .sort(newestFirst);
    return { count: reviewed.length, requests: paged(reviewed, page).map(copy) };
  }
  /** Received requests waiting for a decision only: the fake store does not see the threads (attention.api.spec.ts covers unread messages). */
  async attention(reviewer: { id: string; organisationId: string; dataAdmin: boolean }) {
    const { requests } = await this.received(reviewer, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    return requests.filter((r) => r.status === 'sent' || r.status === 'review').map((r) => ({ requestId: r.id, pending: true, unread: 0 }));
  }
}

export class FakeRequests implements Public<RequestsRepository> {
  rows = new Map<string, AccessRequest>();
  /** Events of the transactions that ended well, in order. */
  published: EventEnvelope[] = [];

  constructor(private readonly records: FakeRecords) {}

  async transaction<T>(work: (store: RequestStore) => Promise<T>): Promise<T> {
    const working = new Map([...this.rows].map(([id, row]) => [id, copy(row)]));
    const pending: EventEnvelope[] = [];
    const result = await work(new FakeRequestStore(working, this.records, pending) as unknown as RequestStore);
    this.rows = working;
    this.published.push(...pending);
    return result;
  }
  read<T>(work: (store: RequestStore) => Promise<T>): Promise<T> {
    return work(new FakeRequestStore(this.rows, this.records) as unknown as RequestStore);
  }
}
