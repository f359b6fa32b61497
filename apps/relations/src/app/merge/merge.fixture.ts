// Test-only: in-memory repositories for the unit tests of merge jobs and the link worker (no
// database, no bus), and records to put in them. Each fake answers as its repository does.
import { randomUUID } from 'node:crypto';
import type { ColumnSketchPayload, DerivationLink, EventEnvelope } from '@dc/contracts';
import type { AuthUser } from '@dc/platform';
import { RecordAccess } from '../access/record-access.service';
import type { ActiveGrant, RequestGrantsRepository } from '../access/request-grants.repository';
import type { RecordsRepository } from '../records/records.repository';
import type { RelatedRecord, SketchedRecord } from '../records/related-record';
import type { JobEventsRepository } from './job-events.repository';

/** The projection of records and their sketches (RecordsRepository's reads). */
export class FakeRecordsRepository implements Pick<RecordsRepository, 'findRecords' | 'sketched'> {
  private readonly records = new Map<string, SketchedRecord>();

  constructor(...records: SketchedRecord[]) {
    for (const record of records) this.records.set(record.record.id, record);
  }

  /** A record deleted from the catalogue (its tombstone reads as unknown). */
  delete(recordId: string): void {
    this.records.delete(recordId);
  }

  async findRecords(ids: string[]): Promise<RelatedRecord[]> {
    return [...new Set(ids)].flatMap((id) => this.records.get(id)?.record ?? []);
  }

  async sketched(ids: string[]): Promise<SketchedRecord[]> {
    return ids.flatMap((id) => this.records.get(id) ?? []);
  }
}

/** Relations' projection of request.* (RequestGrantsRepository's reads): the grants active now. */
export class FakeRequestGrantsRepository implements Pick<RequestGrantsRepository, 'activeGrant' | 'approvedAmong'> {
  private readonly grants = new Map<string, ActiveGrant>();

  approve(recordId: string, userId: string, grant: ActiveGrant = { requestId: randomUUID(), expiresAt: null }): ActiveGrant {
    this.grants.set(`${recordId}|${userId}`, grant);
    return grant;
  }

  revoke(recordId: string, userId: string): void {
    this.grants.delete(`${recordId}|${userId}`);
  }

  async activeGrant(recordId: string, userId: string): Promise<ActiveGrant | null> {
    return this.grants.get(`${recordId}|${userId}`) ?? null;
  }

  async approvedAmong(userId: string, recordIds: string[]): Promise<Set<string>> {
    return new Set(recordIds.filter((id) => this.grants.has(`${id}|${userId}`)));
  }
}

/** The outbox of job events (JobEventsRepository): what was written, one transaction per batch. */
export class FakeJobEventsRepository implements Pick<JobEventsRepository, 'publish'> {
  readonly batches: EventEnvelope[][] = [];
  /** Set to make the next write fail (the transaction rolls back: nothing is kept). */
  failure: Error | null = null;

  async publish(...events: EventEnvelope[]): Promise<void> {
    if (this.failure) throw this.failure;
    this.batches.push(events);
  }

  get events(): EventEnvelope[] {
    return this.batches.flat();
  }
}

/** The repositories as the services' constructors take them. */
export const asRecords = (fake: FakeRecordsRepository) => fake as unknown as RecordsRepository;
export const asJobEvents = (fake: FakeJobEventsRepository) => fake as unknown as JobEventsRepository;
export const recordAccess = (records: FakeRecordsRepository, grants: FakeRequestGrantsRepository) =>
  new RecordAccess(grants as unknown as RequestGrantsRepository, asRecords(records));

/** A test's fakes over these records, and the repositories made of them as the services' constructors take them. */
export function mergeFakes(...seeded: SketchedRecord[]) {
  const records = new FakeRecordsRepository(...seeded);
  const grants = new FakeRequestGrantsRepository();
  const jobEvents = new FakeJobEventsRepository();
  return {
    records,
    grants,
    jobEvents,
    repositories: { records: asRecords(records), access: recordAccess(records, grants), jobEvents: asJobEvents(jobEvents) },
  };
}
export type MergeFakes = ReturnType<typeof mergeFakes>;

export function user(username: string, organisationId: string = randomUUID(), groups: number[] = [3]): AuthUser {
  return { id: randomUUID(), username, organisationId, clientType: 'STANDARD', permissions: [], groups, passwordVersion: 1 };
}

/** A column's sketch: `values` are the value hashes it holds (its minhash). */
export function column(index: number, header: string, options: Partial<ColumnSketchPayload> & { values?: number[] } = {}): ColumnSketchPayload {
  const { values = [], ...rest } = options;
  return {
    index,
    header,
    privacy: 'plain',
    type: 'integer',
    count: values.length,
    missing: 0,
    distinct: values.length,
    minhash: [...values].sort((a, b) => a - b),
    numeric: null,
    words: [],
    ...rest,
  };
}

export interface RecordOptions {
  name: string;
  owner: AuthUser;
  visibility?: 'PR' | 'EV' | 'CU';
  access?: 'RE' | 'OP';
  /** Each inner list is one table of the record's file. */
  tables?: ColumnSketchPayload[][];
  fileName?: string;
  contentType?: string;
  /** null: the file is no longer stored. */
  storageKey?: string | null;
  ownerOnly?: boolean;
  derivedFrom?: DerivationLink[];
  rows?: number;
}

/** A record of one file, as relations' projection holds it after record.created and file.sketched. */
export function sketchedRecord(options: RecordOptions): SketchedRecord {
  const id = randomUUID();
  const fileId = randomUUID();
  const tables = options.tables ?? [[column(0, 'id')]];
  const fileName = options.fileName ?? `${options.name.toLowerCase()}.csv`;
  return {
    record: {
      id,
      name: options.name,
      ownerId: options.owner.id,
      organisationId: options.owner.organisationId,
      visibility: options.visibility ?? 'PR',
      sharedUserIds: [],
      sharedOrganisationIds: [],
      access: options.access ?? 'RE',
      type: fileName.split('.').pop() ?? '',
      size: 1000,
      changedAt: new Date('2026-11-20T09:12:00.000Z'),
      headers: tables.flatMap((t) => t.map((c) => c.header)),
      words: [],
      totalRows: options.rows ?? 10,
      encryptedHeaders: tables.flatMap((t) => t.filter((c) => c.privacy === 'hashed').map((c) => c.header)),
      fileIds: [fileId],
      ownerOnly: options.ownerOnly ?? false,
      derivedFrom: options.derivedFrom ?? [],
    },
    files: [
      {
        fileId,
        recordId: id,
        fileName,
        contentType: options.contentType ?? 'text/csv',
        storageKey: options.storageKey === undefined ? `catalogue/files/${fileId}` : options.storageKey,
        tables: tables.map((columns, t) => ({ name: `table ${t}`, totalRows: options.rows ?? 10, columns })),
      },
    ],
  };
}
