import { Injectable, OnModuleInit } from '@nestjs/common';
import { grantIsActive, RequestCreated, RequestUpdated, type RequestStatus } from '@dc/contracts';
import { applyRequestSnapshot, ServiceDatabase, ServiceEvents } from '@dc/platform';

/**
 * Port: whether a requestor's request for a record is approved now (download right: approved, not
 * revoked or closed, not past its expiry), so an approved requestor may read its rows.
 */
export abstract class ApprovedRequests {
  /** The user's request that grants download of the record now, if any, with its end (a merge's lineage names it). */
  abstract activeGrant(recordId: string, userId: string): Promise<ActiveGrant | null>;
  /** Of these records, those the user may download now through an approved request (one look-up for many records). */
  abstract approvedAmong(userId: string, recordIds: string[]): Promise<Set<string>>;
}

export interface ActiveGrant {
  requestId: string;
  expiresAt: Date | null;
}

interface GrantRow {
  request_id: string;
  record_id: string;
  status: RequestStatus;
  expires_at: Date | null;
}

const active = (row: GrantRow | undefined) => !!row && grantIsActive({ status: row.status, expiresAt: row.expires_at });

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
      await applyRequestSnapshot(manager, 'relations.request_grants', RequestUpdated.payload.parse(event.payload));
    });
  }

  async activeGrant(recordId: string, userId: string): Promise<ActiveGrant | null> {
    // The newest request that is not closed decides.
    const rows: GrantRow[] = await this.db.dataSource.query(
      `SELECT request_id, record_id, status, expires_at FROM relations.request_grants
        WHERE record_id = $1 AND requestor_id = $2 AND status <> 'closed' ORDER BY created_at DESC LIMIT 1`,
      [recordId, userId],
    );
    return active(rows[0]) ? { requestId: rows[0].request_id, expiresAt: rows[0].expires_at } : null;
  }

  async approvedAmong(userId: string, recordIds: string[]): Promise<Set<string>> {
    if (recordIds.length === 0) return new Set();
    // Each record's newest request that is not closed decides, as activeGrant does.
    const rows: GrantRow[] = await this.db.dataSource.query(
      `SELECT DISTINCT ON (record_id) request_id, record_id, status, expires_at FROM relations.request_grants
        WHERE requestor_id = $1 AND record_id = ANY($2) AND status <> 'closed' ORDER BY record_id, created_at DESC`,
      [userId, recordIds],
    );
    return new Set(rows.filter(active).map((row) => row.record_id));
  }
}
