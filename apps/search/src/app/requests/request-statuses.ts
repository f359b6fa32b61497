import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RequestSnapshot, RequestStatus, shownRequestStatus, ShownRequestStatus } from '@dc/contracts';
import { ServiceDatabase } from '@dc/platform';

/** Port: the viewer's current request status per record, for the cards of one page. */
export abstract class RequestStatuses {
  abstract statusesFor(viewerId: string, recordIds: string[]): Promise<Map<string, ShownRequestStatus>>;
}

/** Search's projection of request.* events (newest version per request wins). */
@Injectable()
export class PostgresRequestStatuses extends RequestStatuses {
  constructor(private readonly db: ServiceDatabase) {
    super();
  }

  static async save(manager: EntityManager, request: RequestSnapshot): Promise<void> {
    await manager.query(
      `INSERT INTO search.request_statuses (request_id, record_id, requestor_id, status, expires_at, created_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (request_id) DO UPDATE SET status = excluded.status, expires_at = excluded.expires_at, version = excluded.version
       WHERE search.request_statuses.version < excluded.version`,
      [request.requestId, request.recordId, request.requestorId, request.status, request.expiresAt, request.createdAt, request.version],
    );
  }

  /** One query per page: the newest request that is not closed, per record. */
  async statusesFor(viewerId: string, recordIds: string[]): Promise<Map<string, ShownRequestStatus>> {
    if (recordIds.length === 0) return new Map();
    const rows: Array<{ record_id: string; status: RequestStatus; expires_at: Date | null }> = await this.db.dataSource.query(
      `SELECT DISTINCT ON (record_id) record_id, status, expires_at FROM search.request_statuses
        WHERE requestor_id = $1 AND record_id = ANY($2) AND status <> 'closed'
        ORDER BY record_id, created_at DESC`,
      [viewerId, recordIds],
    );
    const now = new Date();
    return new Map(rows.map((row) => [row.record_id, shownRequestStatus({ status: row.status, expiresAt: row.expires_at }, now)]));
  }
}
