import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TableSketchPayload } from '@dc/contracts';
import { ServiceDatabase } from '@dc/platform';
import type { IndexedColumn, RowIndexBuild } from './row-index';

/** A stored file as the index builder needs it, with the time of the sketch it was built from. */
export interface IndexableFile {
  fileId: string;
  fileName: string;
  storageKey: string;
  tables: TableSketchPayload[];
  sketchedAt: Date;
}

interface FileRow {
  file_id: string;
  file_name: string;
  storage_key: string;
  tables: TableSketchPayload[];
  occurred_at: Date;
}

const toFile = (row: FileRow): IndexableFile => ({
  fileId: row.file_id,
  fileName: row.file_name,
  storageKey: row.storage_key,
  tables: row.tables,
  sketchedAt: row.occurred_at,
});

/** The row-index builds of stored files (relations' own schema). */
@Injectable()
export class RowIndexRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /**
   * Marks every finished build of these files dropped (their objects are deleted by the worker); in
   * the caller's transaction. A build still running is left to its own save, which drops it when its
   * file changed or went away, so no object is deleted under a running build.
   */
  async dropBuilds(manager: EntityManager, fileIds: string[]): Promise<void> {
    if (fileIds.length === 0) return;
    await manager.query(`UPDATE relations.row_indexes SET status = 'dropped' WHERE file_id = ANY($1) AND status IN ('ready', 'failed')`, [fileIds]);
  }

  async readyBuild(fileId: string): Promise<RowIndexBuild | null> {
    const rows = (await this.db.dataSource.query(
      `SELECT build_id, file_id, columns FROM relations.row_indexes WHERE file_id = $1 AND status = 'ready' ORDER BY built_at DESC LIMIT 1`,
      [fileId],
    )) as Array<{ build_id: string; file_id: string; columns: IndexedColumn[] }>;
    return rows[0] ? { buildId: rows[0].build_id, fileId: rows[0].file_id, columns: rows[0].columns } : null;
  }

  /** The stored file with its sketch, or null when it is unknown or no longer stored. */
  async file(fileId: string): Promise<IndexableFile | null> {
    const rows = (await this.db.dataSource.query(
      'SELECT file_id, file_name, storage_key, tables, occurred_at FROM relations.file_sketches WHERE file_id = $1 AND storage_key IS NOT NULL',
      [fileId],
    )) as FileRow[];
    return rows[0] ? toFile(rows[0]) : null;
  }

  /** The oldest stored file without a ready or failed build (the background builder's next one). */
  async nextUnindexed(): Promise<IndexableFile | null> {
    const rows = (await this.db.dataSource.query(
      `SELECT s.file_id, s.file_name, s.storage_key, s.tables, s.occurred_at FROM relations.file_sketches s
       WHERE s.storage_key IS NOT NULL AND jsonb_array_length(s.tables) > 0
         AND NOT EXISTS (SELECT 1 FROM relations.row_indexes i WHERE i.file_id = s.file_id AND i.status IN ('ready', 'failed'))
       ORDER BY s.occurred_at, s.file_id LIMIT 1`,
    )) as FileRow[];
    return rows[0] ? toFile(rows[0]) : null;
  }

  /**
   * Records a finished build. When the file's sketch changed or the file went away meanwhile, the
   * build is recorded as dropped at once; a ready build replaces the file's earlier builds.
   */
  async save(
    file: IndexableFile,
    build: RowIndexBuild,
    outcome: { status: 'ready' } | { status: 'failed'; error: string },
  ): Promise<'ready' | 'failed' | 'dropped'> {
    return this.db.transaction(async ({ manager }) => {
      const [current] = (await manager.query('SELECT occurred_at FROM relations.file_sketches WHERE file_id = $1 AND storage_key = $2 FOR SHARE', [
        file.fileId,
        file.storageKey,
      ])) as Array<{ occurred_at: Date }>;
      const stale = !current || current.occurred_at.getTime() !== file.sketchedAt.getTime();
      const status = stale ? 'dropped' : outcome.status;
      if (status === 'ready') await this.dropBuilds(manager, [file.fileId]);
      // The building row (begin) becomes the build's outcome.
      await manager.query(
        `INSERT INTO relations.row_indexes (build_id, file_id, status, columns, error) VALUES ($1, $2, $3, $4::jsonb, $5)
         ON CONFLICT (build_id) DO UPDATE SET status = EXCLUDED.status, columns = EXCLUDED.columns, error = EXCLUDED.error, built_at = now()`,
        [build.buildId, file.fileId, status, JSON.stringify(build.columns), outcome.status === 'failed' ? outcome.error : null],
      );
      return status;
    });
  }

  /** Records a build as started, before it stores its first object. */
  async begin(fileId: string, buildId: string): Promise<void> {
    await this.db.dataSource.query(`INSERT INTO relations.row_indexes (build_id, file_id, status) VALUES ($1, $2, 'building')`, [buildId, fileId]);
  }

  /** Marks a build dropped, so the worker deletes whatever objects it stored (a build given up). */
  async drop(buildId: string): Promise<void> {
    await this.db.dataSource.query(`UPDATE relations.row_indexes SET status = 'dropped' WHERE build_id = $1 AND status = 'building'`, [buildId]);
  }

  /**
   * Builds still building after `staleAfterMs`: their process died mid-build (no build takes that
   * long), so they are marked dropped and the worker deletes their objects. Returns how many.
   */
  async dropStaleBuilds(staleAfterMs: number): Promise<number> {
    const [{ dropped }] = (await this.db.dataSource.query(
      `WITH stale AS (UPDATE relations.row_indexes SET status = 'dropped'
         WHERE status = 'building' AND built_at < now() - make_interval(secs => $1) RETURNING 1)
       SELECT count(*)::int AS dropped FROM stale`,
      [staleAfterMs / 1000],
    )) as Array<{ dropped: number }>;
    return dropped;
  }

  async droppedBuilds(limit: number): Promise<Array<{ buildId: string; fileId: string }>> {
    const rows = (await this.db.dataSource.query(`SELECT build_id, file_id FROM relations.row_indexes WHERE status = 'dropped' ORDER BY built_at LIMIT $1`, [
      limit,
    ])) as Array<{ build_id: string; file_id: string }>;
    return rows.map((r) => ({ buildId: r.build_id, fileId: r.file_id }));
  }

  async forget(buildId: string): Promise<void> {
    await this.db.dataSource.query(`DELETE FROM relations.row_indexes WHERE build_id = $1 AND status = 'dropped'`, [buildId]);
  }
}
