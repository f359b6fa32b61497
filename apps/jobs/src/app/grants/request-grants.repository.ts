import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { JobRequestedPayload, RequestSnapshot } from '@dc/contracts';
import { applyRequestSnapshot } from '@dc/platform';

/** The jobs service's copy of the requests service's requests: all I/O of jobs.request_grants. */
@Injectable()
export class RequestGrantsRepository {
  /** Keeps the newest version of each request, whatever order redelivered events arrive in. */
  async apply(manager: EntityManager, request: RequestSnapshot): Promise<void> {
    await applyRequestSnapshot(manager, 'jobs.request_grants', request);
  }

  /**
   * A job asked for under a grant is evidence of it: relations checked the request was approved when
   * the job was asked for. A request this copy has not heard of (approved before the jobs service
   * followed requests, in embedded mode whose bus keeps no events) is taken as approved until its
   * expiry as it stood then; version 0, so every real event of it wins.
   */
  async vouchFor(manager: EntityManager, job: JobRequestedPayload, occurredAt: string): Promise<void> {
    for (const side of [job.left, job.right]) {
      if (side.terms !== 'grant' || !side.requestId) continue;
      await manager.query(
        `INSERT INTO jobs.request_grants (request_id, record_id, requestor_id, status, expires_at, created_at, version)
         VALUES ($1, $2, $3, 'approved', $4, $5, 0) ON CONFLICT (request_id) DO NOTHING`,
        [side.requestId, side.recordId, job.owner.userId, side.grantExpiresAt, occurredAt],
      );
    }
  }
}
