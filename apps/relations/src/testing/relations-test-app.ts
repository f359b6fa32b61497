import { randomUUID } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { createEvent, FileSketched, RecordCreated, RecordDeleted, RecordUpdated, type RecordSnapshot } from '@dc/contracts';
import { extractMetadata, type PrivateColumns, SketchCollector } from '@dc/extraction';
import { ObjectStorage } from '@dc/storage';
import { DATASETS, ServiceHarness, TEST_ENCRYPTION_KEY, TEST_JWT_SECRET, testCaller, type TestCaller } from '@dc/testing';
import { RelationsModule } from '../app/relations.module';

export { DATASETS, TEST_ENCRYPTION_KEY, TEST_JWT_SECRET, testCaller as caller, type TestCaller as Caller };
/** The linkage key the test records' hashed columns are keyed with (docs/private-linkage.md). */
export const TEST_LINKAGE_KEY = new Uint8Array(32).fill(4);

export interface IndexedRecord {
  id: string;
  fileId: string;
  snapshot: RecordSnapshot;
}

/**
 * Test-only: the relations service as the real process builds it, on a test database with fs
 * storage. Records arrive as the catalogue sends them: the file is stored, extracted with the
 * extraction library (column sketches in the same pass) and record.created and file.sketched are
 * published on the bus.
 */
export class RelationsTestApp extends ServiceHarness {
  private version = new Map<string, number>();

  static async start(databaseUrl: string): Promise<RelationsTestApp> {
    return new RelationsTestApp(await ServiceHarness.boot({ service: 'relations', modules: [RelationsModule], databaseUrl }));
  }

  /** Indexes a dataset file as the catalogue would, and waits until relations applied both events. */
  async index(
    owner: TestCaller,
    dataset: string,
    options: {
      visibility?: 'PR' | 'EV' | 'CU';
      access?: 'RE' | 'OP';
      sharedWithUserIds?: string[];
      hash?: string[];
      fuzzy?: string[];
      mask?: string[];
      privateColumns?: PrivateColumns;
      keepFile?: boolean;
      name?: string;
    } = {},
  ): Promise<IndexedRecord> {
    const file = path.isAbsolute(dataset) ? dataset : path.join(DATASETS, dataset);
    const fileName = path.basename(file);
    const id = randomUUID();
    const fileId = randomUUID();
    const key = `catalogue/files/${fileId}`;
    const storage = this.app.get(ObjectStorage);
    await storage.put(key, createReadStream(file));
    // privateColumns as given (e.g. columns hashed before the upload, as private indexing sends them), else hash and mask here.
    const privateColumns: PrivateColumns | undefined =
      options.privateColumns ??
      (options.hash?.length || options.mask?.length
        ? {
            hash: options.hash ?? [],
            fuzzy: options.fuzzy,
            formats: (options.mask ?? []).map((column) => ({ column, format: 'mask' as const })),
            linkageKey: TEST_LINKAGE_KEY,
          }
        : undefined);
    const sketches = new SketchCollector();
    const meta = await extractMetadata({ stream: createReadStream(file), fileName }, { extractOption: 'metadata', sketches, privateColumns });
    const now = new Date().toISOString();
    const snapshot = RecordCreated.payload.parse({
      recordId: id,
      name: options.name ?? fileName,
      ownerId: owner.id,
      ownerUsername: owner.username,
      organisationId: owner.organisationId,
      visibility: options.visibility ?? 'PR',
      sharedWithUserIds: options.sharedWithUserIds ?? [],
      access: options.access ?? 'RE',
      accessFee: null,
      currency: 'CAD',
      policyId: null,
      origin: 'upload',
      type: path.extname(fileName).slice(1),
      size: statSync(file).size,
      version: 1,
      createdAt: now,
      changedAt: now,
      headers: meta.FILE?.HEADERS ?? [],
      words: meta.KEYWORDS ?? [],
      totalRows: meta.FILE?.TOTAL_ROWS ?? null,
      encryptedHeaders: meta.ENCRYPTED_COLS ?? [],
      files: [{ fileId, name: fileName, contentType: 'text/csv', size: statSync(file).size, checksum: 'x', extractionStatus: 'done' }],
    });
    this.version.set(id, 1);
    await this.publish(
      createEvent(RecordCreated, id, snapshot),
      createEvent(FileSketched, fileId, {
        recordId: id,
        fileId,
        fileName,
        contentType: 'text/csv',
        storageKey: options.keepFile === false ? null : key,
        tables: sketches.tables,
      }),
    );
    if (options.keepFile === false) await storage.delete(key);
    await this.until(`SELECT 1 FROM relations.file_sketches s JOIN relations.records r USING (record_id) WHERE s.file_id = $1`, [fileId]);
    return { id, fileId, snapshot };
  }

  /** Publishes a changed snapshot (record.updated) and waits until it is applied. */
  async update(record: IndexedRecord, change: Partial<RecordSnapshot>): Promise<void> {
    const version = (this.version.get(record.id) ?? 1) + 1;
    this.version.set(record.id, version);
    record.snapshot = { ...record.snapshot, ...change, version, changedAt: new Date().toISOString() };
    await this.publish(createEvent(RecordUpdated, record.id, record.snapshot));
    await this.until('SELECT 1 FROM relations.records WHERE record_id = $1 AND visibility = $2 AND access = $3', [
      record.id,
      record.snapshot.visibility,
      record.snapshot.access,
    ]);
  }

  async remove(record: IndexedRecord): Promise<void> {
    const { ownerId, organisationId } = record.snapshot;
    await this.publish(createEvent(RecordDeleted, record.id, { recordId: record.id, ownerId, organisationId }));
    await this.until('SELECT 1 FROM relations.records WHERE record_id = $1 AND deleted', [record.id]);
  }
}
