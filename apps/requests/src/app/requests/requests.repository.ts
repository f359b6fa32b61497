import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@dc/contracts';
import { ServiceDatabase } from '@dc/platform';
import type { AccessRequest, PolicyItem, RequestPolicy } from './request';

interface RequestRow {
  id: string;
  record_id: string;
  requestor_id: string;
  requestor_organisation_id: string;
  status: AccessRequest['status'];
  purpose: string;
  note: string;
  access_policies: Array<{ id: string; name: string; json_content: PolicyItem[] }>;
  created_at: Date;
  changed_at: Date;
  sent_at: Date | null;
  decided_at: Date | null;
  decided_by: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  revoke_reason: string | null;
  version: number;
}

const toRequest = (row: RequestRow): AccessRequest => ({
  id: row.id,
  recordId: row.record_id,
  requestorId: row.requestor_id,
  requestorOrganisationId: row.requestor_organisation_id,
  status: row.status,
  purpose: row.purpose,
  note: row.note,
  accessPolicies: row.access_policies.map((p): RequestPolicy => ({ id: p.id, name: p.name, items: p.json_content })),
  createdAt: row.created_at,
  changedAt: row.changed_at,
  sentAt: row.sent_at,
  decidedAt: row.decided_at,
  decidedBy: row.decided_by,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  revokeReason: row.revoke_reason,
  version: row.version,
});

/** Stored as the spec names it: each policy's items under json_content. */
const storedPolicies = (policies: RequestPolicy[]) => JSON.stringify(policies.map((p) => ({ id: p.id, name: p.name, json_content: p.items })));

/** The owner side of a record: its owner, or a Data Admin of its organisation ($2 user, $3 organisation, $4 is Data Admin). */
const RECEIVED = `FROM requests.requests q JOIN requests.records r ON r.id = q.record_id
  WHERE q.status NOT IN ('new', 'closed') AND (r.owner_id = $1 OR ($3::boolean AND r.organisation_id = $2))`;

/** Request I/O bound to one entity manager (inside a transaction when writing). */
export class RequestStore {
  constructor(
    readonly manager: EntityManager,
    private readonly publisher?: (...events: EventEnvelope[]) => Promise<void>,
  ) {}

  async publish(...events: EventEnvelope[]): Promise<void> {
    if (!this.publisher) throw new Error('publish needs a transaction');
    await this.publisher(...events);
  }

  async find(id: string, options: { forUpdate?: boolean } = {}): Promise<AccessRequest | null> {
    const rows: RequestRow[] = await this.manager.query(`SELECT * FROM requests.requests WHERE id = $1 ${options.forUpdate ? 'FOR UPDATE' : ''}`, [id]);
    return rows[0] ? toRequest(rows[0]) : null;
  }

  /** The requestor's request for the record that is not closed (at most one). */
  async findOpen(recordId: string, requestorId: string): Promise<AccessRequest | null> {
    const rows: RequestRow[] = await this.manager.query(`SELECT * FROM requests.requests WHERE record_id = $1 AND requestor_id = $2 AND status <> 'closed'`, [
      recordId,
      requestorId,
    ]);
    return rows[0] ? toRequest(rows[0]) : null;
  }

  /** Takes a transaction lock on the requestor and record, so two POSTs at once make one request. */
  async lockPair(recordId: string, requestorId: string): Promise<void> {
    await this.manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('requests.pair:' || $1 || ':' || $2, 0))`, [recordId, requestorId]);
  }

  async insert(request: AccessRequest): Promise<void> {
    await this.manager.query(
      `INSERT INTO requests.requests (id, record_id, requestor_id, requestor_organisation_id, status, purpose, note, access_policies, created_at, changed_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11)`,
      [
        request.id,
        request.recordId,
        request.requestorId,
        request.requestorOrganisationId,
        request.status,
        request.purpose,
        request.note,
        storedPolicies(request.accessPolicies),
        request.createdAt,
        request.changedAt,
        request.version,
      ],
    );
  }

  async save(request: AccessRequest): Promise<void> {
    await this.manager.query(
      `UPDATE requests.requests SET status = $2, purpose = $3, note = $4, access_policies = $5::jsonb, changed_at = $6, sent_at = $7, decided_at = $8,
         decided_by = $9, expires_at = $10, revoked_at = $11, revoke_reason = $12, version = $13
       WHERE id = $1`,
      [
        request.id,
        request.status,
        request.purpose,
        request.note,
        storedPolicies(request.accessPolicies),
        request.changedAt,
        request.sentAt,
        request.decidedAt,
        request.decidedBy,
        request.expiresAt,
        request.revokedAt,
        request.revokeReason,
        request.version,
      ],
    );
  }

  /** My Requests: the requestor's requests that are not closed, newest first. */
  async sent(requestorId: string, page: { offset: number; limit: number }): Promise<{ count: number; requests: AccessRequest[] }> {
    const [{ count }]: Array<{ count: number }> = await this.manager.query(
      `SELECT count(*)::int AS count FROM requests.requests WHERE requestor_id = $1 AND status <> 'closed'`,
      [requestorId],
    );
    const rows: RequestRow[] = await this.manager.query(
      `SELECT * FROM requests.requests WHERE requestor_id = $1 AND status <> 'closed' ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [requestorId, page.limit, page.offset],
    );
    return { count, requests: rows.map(toRequest) };
  }

  /** Received Requests: sent requests for records the caller reviews (owner, or Data Admin of the organisation), newest first. */
  async received(
    reviewer: { id: string; organisationId: string; dataAdmin: boolean },
    page: { offset: number; limit: number },
  ): Promise<{ count: number; requests: AccessRequest[] }> {
    const params = [reviewer.id, reviewer.organisationId, reviewer.dataAdmin];
    const [{ count }]: Array<{ count: number }> = await this.manager.query(`SELECT count(*)::int AS count ${RECEIVED}`, params);
    const rows: RequestRow[] = await this.manager.query(`SELECT q.* ${RECEIVED} ORDER BY q.created_at DESC, q.id LIMIT $4 OFFSET $5`, [
      ...params,
      page.limit,
      page.offset,
    ]);
    return { count, requests: rows.map(toRequest) };
  }

  /**
   * What waits for the caller: received requests not yet decided (sent or in review), and per request
   * the messages of the other side written after the caller's read mark (for the requestor, anyone
   * else's; for the owner side, the requestor's). Closed requests and drafts count for nothing.
   */
  async attention(reviewer: { id: string; organisationId: string; dataAdmin: boolean }): Promise<AttentionRow[]> {
    const rows: Array<{ request_id: string; pending: boolean; unread: number }> = await this.manager.query(
      `WITH pending AS (
         SELECT q.id ${RECEIVED} AND q.status IN ('sent', 'review')
       ), unread AS (
         SELECT q.id, count(*)::int AS unread
         FROM requests.requests q
         JOIN requests.records r ON r.id = q.record_id
         JOIN requests.messages m ON m.request_id = q.id
         LEFT JOIN requests.message_reads mr ON mr.request_id = q.id AND mr.user_id = $1
         WHERE q.status NOT IN ('new', 'closed') AND m.created_at > coalesce(mr.read_at, '-infinity')
           AND ((q.requestor_id = $1 AND m.user_id <> $1)
             OR (q.requestor_id <> $1 AND (r.owner_id = $1 OR ($3::boolean AND r.organisation_id = $2)) AND m.user_id = q.requestor_id))
         GROUP BY q.id
       )
       SELECT coalesce(p.id, u.id) AS request_id, p.id IS NOT NULL AS pending, coalesce(u.unread, 0)::int AS unread
       FROM pending p FULL JOIN unread u ON u.id = p.id
       ORDER BY request_id`,
      [reviewer.id, reviewer.organisationId, reviewer.dataAdmin],
    );
    return rows.map((r) => ({ requestId: r.request_id, pending: r.pending, unread: r.unread }));
  }
}

/** A request that waits for the caller: a received one to decide, or one with messages the other side wrote since the caller last read. */
export interface AttentionRow {
  requestId: string;
  pending: boolean;
  unread: number;
}

@Injectable()
export class RequestsRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /** Writes in one transaction; events published through the store go out only if it commits. */
  transaction<T>(work: (store: RequestStore) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new RequestStore(tx.manager, (...events) => tx.publish(...events))));
  }

  read<T>(work: (store: RequestStore) => Promise<T>): Promise<T> {
    return work(new RequestStore(this.db.dataSource.manager));
  }
}
