import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DetailError, LOGGER, ServiceDatabase } from '@dc/platform';
import { ObjectStorage } from '@dc/storage';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import { CatalogueInstance, instanceAlive } from './catalogue-instance';

/** What an upload whose objects were swept meanwhile answers (its instance was taken for dead). */
export const UPLOAD_INTERRUPTED = 'The upload was interrupted; please send it again.';

/** The objects one request stores: each registered before its first byte is written. */
export interface PendingUpload {
  /** Call before storing an object under the key (ReceiveOptions.beforePut). */
  beforePut(key: string): Promise<void>;
  /** Once the request is over: deletes what it stored that no record took (all of it when it failed). */
  end(): Promise<void>;
}

/**
 * Objects in the store that no file row owns: uploads being received (registered before their
 * first byte is stored, settled in the transaction that creates their record) and objects of
 * deleted files (registered in the transaction that deletes the rows, cleared once the object is
 * gone). Whatever is left by an instance that died is deleted by sweep().
 */
@Injectable()
export class PendingObjects {
  private readonly logger: Logger;

  constructor(
    private readonly db: ServiceDatabase,
    private readonly work: UnitOfWork,
    private readonly storage: ObjectStorage,
    private readonly instance: CatalogueInstance,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'pending-objects' });
  }

  /** Tracks the objects of one upload request. */
  upload(): PendingUpload {
    const keys: string[] = [];
    return {
      beforePut: async (key) => {
        await this.db.dataSource.query(`INSERT INTO catalogue.pending_objects (storage_key, holder, reason) VALUES ($1, $2, 'upload')`, [
          key,
          this.instance.id,
        ]);
        keys.push(key);
      },
      end: async () => {
        if (keys.length === 0) return;
        // Still pending is what no committed record settled, whatever happened after (the database decides, not the caller).
        const pending: Array<{ storage_key: string }> | undefined = await this.db.dataSource
          .query(`SELECT storage_key FROM catalogue.pending_objects WHERE storage_key = ANY($1) AND holder = $2 AND reason = 'upload'`, [
            keys,
            this.instance.id,
          ])
          .catch((error: unknown) => void this.logger.error({ err: error }, "could not look up an upload's objects; the sweep deletes them later"));
        if (pending?.length) await this.remove(pending.map((row) => row.storage_key));
      },
    };
  }

  /**
   * In the unit of work that records the uploaded objects as files: they are owned from then on.
   * Refused when a row is missing: a sweep took this instance for dead and deleted the object.
   */
  async settle(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const [, settled]: [unknown[], number] = await this.work.manager.query(
      `DELETE FROM catalogue.pending_objects WHERE storage_key = ANY($1) AND reason = 'upload'`,
      [keys],
    );
    if (settled !== keys.length) throw new DetailError(UPLOAD_INTERRUPTED, 409);
  }

  /** In the unit of work that deletes file rows: their objects are to be deleted after it commits (remove). */
  async deleting(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.work.manager.query(
      `INSERT INTO catalogue.pending_objects (storage_key, holder, reason) SELECT key, $2, 'delete' FROM unnest($1::text[]) AS key
       ON CONFLICT (storage_key) DO UPDATE SET holder = EXCLUDED.holder, reason = 'delete'`,
      [keys, this.instance.id],
    );
  }

  /** Deletes the objects (an upload that failed, files deleted), then forgets them; never throws: what fails stays for the sweep. */
  async remove(keys: string[]): Promise<void> {
    const results = await Promise.allSettled(keys.map((key) => this.storage.delete(key)));
    const removed = keys.filter((key, i) => {
      const result = results[i];
      if (result.status === 'rejected') this.logger.error({ err: result.reason, key }, 'could not delete a stored object; the sweep tries again');
      return result.status === 'fulfilled';
    });
    if (removed.length === 0) return;
    // A row left here only costs the sweep a delete of nothing once this instance is gone.
    await this.db.dataSource
      .query('DELETE FROM catalogue.pending_objects WHERE storage_key = ANY($1) AND holder = $2', [removed, this.instance.id])
      .catch((error: unknown) => this.logger.error({ err: error }, 'could not forget deleted objects; the sweep does it later'));
  }

  /**
   * Deletes the objects left by instances that are gone (killed during an upload or a delete). Each
   * row stays locked while its object is deleted, so an upload settling it meanwhile waits, then
   * finds it gone and fails instead of recording a file without its object. Answers how many.
   */
  async sweep(): Promise<number> {
    let swept = 0;
    for (;;) {
      const key = await this.db.transaction(async ({ manager }) => {
        const rows: Array<{ storage_key: string }> = await manager.query(
          `SELECT storage_key FROM catalogue.pending_objects p WHERE NOT ${instanceAlive('p.holder')} LIMIT 1 FOR UPDATE SKIP LOCKED`,
        );
        const found = rows[0]?.storage_key;
        if (found === undefined) return undefined;
        await this.storage.delete(found);
        await manager.query('DELETE FROM catalogue.pending_objects WHERE storage_key = $1', [found]);
        return found;
      });
      if (key === undefined) return swept;
      this.logger.info({ key }, 'deleted an object left by an interrupted upload or delete');
      swept++;
    }
  }
}
