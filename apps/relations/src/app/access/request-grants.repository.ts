import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { grantIsActive, type RequestSnapshot, type RequestStatus } from '@dc/contracts';
import { applyRequestSnapshot, ServiceDatabase } from '@dc/platform';

/** The user's request that grants download of a record now, with its end (a merge's lineage names it). */
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

/**
 * Relations' projection of the requests service's request.* events (newest version per request
 * wins): whether a requestor's request for a record is approved now (download right: approved, not
 * revoked or closed, not past its expiry), so an approved requestor may read its rows.
 */
@Injectable()
export class RequestGrantsRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /** Applies a request snapshot (request.created, request.updated); in the consumer's transaction. */
  async apply(manager: EntityManager, snapshot: RequestSnapshot): Promise<void> {
    await applyRequestSnapshot(manager, 'relations.request_grants', snapshot);
  }

  /** The user's request that grants download of the record now, if any. */
  async activeGrant(recordId: string, userId: string): Promise<ActiveGrant | null> {
    // The newest request that is not closed decides.
    const rows: GrantRow[] = await this.db.dataSource.query(
      `SELECT request_id, record_id, status, expires_at FROM relations.request_grants
        WHERE record_id = $1 AND requestor_id = $2 AND status <> 'closed' ORDER BY created_at DESC LIMIT 1`,
      [recordId, userId],
    );
    return active(rows[0]) ? { requestId: rows[0].request_id, expiresAt: rows[0].expires_at } : null;
  }

  /** Of these records, those the user may download now through an approved request (one look-up for many records). */
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
