import type { TableSketch } from '@dc/extraction';
import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import type { CatalogueFile, ExtractOption, ExtractionStatus, PrivateColumnChoices } from '../record-model/record';
import { FileRow, RecordStore, RecordsRepository, toFile } from '../record-store/records.repository';
import { CatalogueInstance, instanceAlive } from '../recovery/catalogue-instance';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import { PendingObjects } from '../recovery/pending-objects';

export interface ClaimedFile {
  file: CatalogueFile;
  claimToken: string;
  extractOption: ExtractOption;
  deleteAfterExtraction: boolean;
  privateColumns: PrivateColumnChoices | null;
}

export interface ExtractionOutcome {
  status: Extract<ExtractionStatus, 'done' | 'failed' | 'skipped'>;
  meta: Record<string, unknown>;
  error: string | null;
  /** Drop the stored object (deleteFile): its key is cleared here and returned to be deleted after commit. */
  dropObject: boolean;
  /** Column sketches gathered during extraction, published as file.sketched for the relations service. */
  sketches?: TableSketch[];
}

/** The extraction queue lives in the files table: pending rows, and running ones whose worker died or stopped beating. */
@Injectable()
export class ExtractionRepository {
  constructor(
    private readonly db: ServiceDatabase,
    private readonly work: UnitOfWork,
    private readonly records: RecordsRepository,
    private readonly pending: PendingObjects,
    private readonly instance: CatalogueInstance,
  ) {}

  /**
   * Claims the next file due: pending, or running whose instance is gone (killed, restarted: known
   * at once from its lock) or whose heartbeat is older than the lease (a worker stuck or cut off).
   * SKIP LOCKED lets several workers claim side by side. Counts the attempt.
   */
  async claimNext(claimToken: string, leaseSeconds: number): Promise<ClaimedFile | null> {
    // UPDATE answers [rows, affected count].
    const [rows]: [Array<FileRow & { extract_option: ExtractOption; delete_file: boolean; private_columns: PrivateColumnChoices | null }>, number] =
      await this.db.dataSource.query(
        `UPDATE catalogue.files f
          SET extraction_status = 'running', attempts = f.attempts + 1, claim_token = $1, claimed_by = $3, heartbeat_at = now(), changed_at = now()
         FROM catalogue.records r
        WHERE r.id = f.record_id
          AND f.id = (SELECT id FROM catalogue.files
                       WHERE next_attempt_at <= now()
                         AND (extraction_status = 'pending'
                              OR (extraction_status = 'running'
                                  AND (heartbeat_at < now() - make_interval(secs => $2) OR (claimed_by IS NOT NULL AND NOT ${instanceAlive('claimed_by')}))))
                       ORDER BY next_attempt_at, created_at
                       LIMIT 1
                       FOR UPDATE SKIP LOCKED)
        RETURNING f.*, r.extract_option, r.delete_file, r.private_columns`,
        [claimToken, leaseSeconds, this.instance.id],
      );
    const row = rows[0];
    if (!row) return null;
    return { file: toFile(row), claimToken, extractOption: row.extract_option, deleteAfterExtraction: row.delete_file, privateColumns: row.private_columns };
  }

  /** Keeps the claim alive; false when it was lost (another worker reclaimed the file, or it was deleted). */
  async heartbeat(fileId: string, claimToken: string): Promise<boolean> {
    const result: [unknown[], number] = await this.db.dataSource.query('UPDATE catalogue.files SET heartbeat_at = now() WHERE id = $1 AND claim_token = $2', [
      fileId,
      claimToken,
    ]);
    return result[1] > 0;
  }

  /** Puts the file back in the queue, to try again after the delay. */
  async retryLater(fileId: string, claimToken: string, error: string, delaySeconds: number): Promise<void> {
    await this.db.dataSource.query(
      `UPDATE catalogue.files SET extraction_status = 'pending', error = $3, claim_token = NULL, claimed_by = NULL, heartbeat_at = NULL,
         next_attempt_at = now() + make_interval(secs => $4), changed_at = now()
       WHERE id = $1 AND claim_token = $2`,
      [fileId, claimToken, error, delaySeconds],
    );
  }

  /** Gives the file back without counting the attempt (the worker is shutting down). */
  async release(fileId: string, claimToken: string): Promise<void> {
    await this.db.dataSource.query(
      `UPDATE catalogue.files SET extraction_status = 'pending', attempts = greatest(attempts - 1, 0), claim_token = NULL, claimed_by = NULL, heartbeat_at = NULL, changed_at = now()
       WHERE id = $1 AND claim_token = $2`,
      [fileId, claimToken],
    );
  }

  /**
   * Stores the outcome and, in the same transaction, lets the caller publish its events. Returns
   * null when the claim was lost (nothing written), else the storage key to delete, if any.
   */
  async complete(
    fileId: string,
    claimToken: string,
    outcome: ExtractionOutcome,
    afterUpdate: (store: RecordStore, file: CatalogueFile) => Promise<void>,
  ): Promise<{ droppedKey: string | null } | null> {
    // Its own unit of work, even when the worker was nudged from inside another one.
    return this.work.detached(() =>
      this.records.transaction(async (store) => {
        const manager = this.work.manager;
        // The record first, then the file: the order deletes and edits lock them in, so none deadlocks with this.
        await manager.query('SELECT 1 FROM catalogue.records r JOIN catalogue.files f ON f.record_id = r.id WHERE f.id = $1 FOR UPDATE OF r', [fileId]);
        const previous: Array<{ storage_key: string | null }> = await manager.query(
          'SELECT storage_key FROM catalogue.files WHERE id = $1 AND claim_token = $2 FOR UPDATE',
          [fileId, claimToken],
        );
        if (previous.length === 0) return null;
        await manager.query(
          `UPDATE catalogue.files SET extraction_status = $3, meta = $4::jsonb, error = $5, claim_token = NULL, claimed_by = NULL, heartbeat_at = NULL,
           extracted_at = now(), changed_at = now(), storage_key = CASE WHEN $6 THEN NULL ELSE storage_key END
         WHERE id = $1 AND claim_token = $2`,
          [fileId, claimToken, outcome.status, JSON.stringify(outcome.meta), outcome.error, outcome.dropObject],
        );
        const file = await store.findFile(fileId);
        // The linkage key sent with the upload is kept only until the record's files are extracted.
        await manager.query(
          `UPDATE catalogue.records SET private_columns = private_columns - 'sealedKey'
          WHERE id = $1 AND private_columns ->> 'sealedKey' IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM catalogue.files WHERE record_id = $1 AND extraction_status IN ('pending', 'running'))`,
          [file!.recordId],
        );
        await afterUpdate(store, file!);
        const droppedKey = outcome.dropObject ? previous[0].storage_key : null;
        // Deleted after the commit; should the process die first, the sweep deletes it.
        if (droppedKey) await this.pending.deleting([droppedKey]);
        return { droppedKey };
      }),
    );
  }
}
