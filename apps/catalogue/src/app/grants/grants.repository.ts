import { Injectable } from '@nestjs/common';
import type { RequestSnapshot } from '@dc/contracts';
import { applyRequestSnapshot } from '@dc/platform';
import { RecordRequest, RecordRequests } from '../record-model/record-requests';
import { UnitOfWork } from '../unit-of-work/unit-of-work';

/**
 * The catalogue's projection of the requests service's requests (request.created, request.updated):
 * one row per request with its status and expiry, the newest version kept.
 */
@Injectable()
export class GrantsRepository {
  constructor(private readonly work: UnitOfWork) {}

  /** Applies a request's state unless a newer version was applied already. */
  async apply(request: RequestSnapshot): Promise<void> {
    await applyRequestSnapshot(this.work.manager, 'catalogue.request_grants', request);
  }
}

/** The RecordRequests port over the projection (the real adapter, in both run modes). */
@Injectable()
export class ProjectedRecordRequests extends RecordRequests {
  constructor(private readonly work: UnitOfWork) {
    super();
  }

  async requestOf(recordId: string, userId: string): Promise<RecordRequest | null> {
    const rows: Array<{ request_id: string; status: RecordRequest['status']; expires_at: Date | null }> = await this.work.manager.query(
      `SELECT request_id, status, expires_at FROM catalogue.request_grants
        WHERE record_id = $1 AND requestor_id = $2 AND status <> 'closed'
        ORDER BY created_at DESC, request_id LIMIT 1`,
      [recordId, userId],
    );
    return rows[0] ? { requestId: rows[0].request_id, status: rows[0].status, expiresAt: rows[0].expires_at } : null;
  }
}
