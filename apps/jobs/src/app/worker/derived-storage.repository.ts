import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ServiceDatabase } from '@dc/platform';

/** A merge result about to be counted against its owner's quota. */
export interface DerivedCharge {
  ownerId: string;
  jobId: string;
  recordId: string;
  bytes: number;
  quotaBytes: number;
}

/**
 * The jobs schema's count of the bytes each owner's merged records take (jobs.derived_storage):
 * what the quota on derived records is checked against.
 */
@Injectable()
export class DerivedStorageRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /** Bytes of the owner's merged records not deleted since. */
  async usedBy(ownerId: string): Promise<number> {
    const [row] = (await this.db.dataSource.query('SELECT coalesce(sum(bytes), 0)::float8 AS used FROM jobs.derived_storage WHERE owner_id = $1', [
      ownerId,
    ])) as Array<{ used: number }>;
    return row.used;
  }

  /**
   * Counts a result, in the transaction that finishes its job, unless the owner's other results
   * leave it no room: false then, and nothing is written. The owner's lock makes two merges that
   * finish at once count one after the other, so together they cannot pass the quota.
   */
  async charge(manager: EntityManager, charge: DerivedCharge): Promise<boolean> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('jobs.derived_storage:' || $1, 0))`, [charge.ownerId]);
    const [{ used }] = (await manager.query('SELECT coalesce(sum(bytes), 0)::float8 AS used FROM jobs.derived_storage WHERE owner_id = $1 AND job_id <> $2', [
      charge.ownerId,
      charge.jobId,
    ])) as Array<{ used: number }>;
    if (used + charge.bytes > charge.quotaBytes) return false;
    await manager.query(
      `INSERT INTO jobs.derived_storage (record_id, job_id, owner_id, bytes, stored_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (record_id) DO NOTHING`,
      [charge.recordId, charge.jobId, charge.ownerId, charge.bytes],
    );
    return true;
  }

  /** record.deleted: a deleted merged record takes no more of its owner's quota (other records are not here). */
  async forget(manager: EntityManager, recordId: string): Promise<void> {
    await manager.query('DELETE FROM jobs.derived_storage WHERE record_id = $1', [recordId]);
  }
}
