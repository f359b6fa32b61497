import { Injectable, OnModuleInit } from '@nestjs/common';
import { grantIsActive, RequestCreated, RequestUpdated, type RequestStatus } from '@dc/contracts';
import { ServiceDatabase, ServiceEvents } from '@dc/platform';

/**
 * Port: whether a requestor's request for a record is approved now (download right: approved, not
 * revoked or closed, not past its expiry), so an approved requestor may read its rows.
 */
export abstract class ApprovedRequests {
  abstract isApproved(recordId: string, userId: string): Promise<boolean>;
}

/** Relations' projection of the requests service's request.* events (newest version per request wins). */
@Injectable()
export class ProjectedApprovedRequests extends ApprovedRequests implements OnModuleInit {
  constructor(
    private readonly db: ServiceDatabase,
    private readonly events: ServiceEvents,
  ) {
    super();
  }

  onModuleInit(): void {
    this.events.on([RequestCreated.type, RequestUpdated.type], async (event, manager) => {
      const request = RequestUpdated.payload.parse(event.payload);
      await manager.query(
        `INSERT INTO relations.request_grants (request_id, record_id, requestor_id, status, expires_at, created_at, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (request_id) DO UPDATE SET status = excluded.status, expires_at = excluded.expires_at, version = excluded.version
         WHERE relations.request_grants.version < excluded.version`,
        [request.requestId, request.recordId, request.requestorId, request.status, request.expiresAt, request.createdAt, request.version],
      );
    });
  }

  async isApproved(recordId: string, userId: string): Promise<boolean> {
    const rows: Array<{ status: RequestStatus; expires_at: Date | null }> = await this.db.dataSource.query(
      `SELECT status, expires_at FROM relations.request_grants
        WHERE record_id = $1 AND requestor_id = $2 AND status <> 'closed' ORDER BY created_at DESC LIMIT 1`,
      [recordId, userId],
    );
    return !!rows[0] && grantIsActive({ status: rows[0].status, expiresAt: rows[0].expires_at });
  }
}
