import { JwtService } from '@nestjs/jwt';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { createEvent, FileSketched, permissionsOfGroups, RecordCreated, RecordDeleted, RecordUpdated, type RecordSnapshot } from '@dc/contracts';
import { extractMetadata, type PrivateColumns, SketchCollector } from '@dc/extraction';
import { EventBus } from '@dc/messaging';
import { type ClientType, createApp, createLogger, loadConfig, type TokenClaims } from '@dc/platform';
import { ObjectStorage } from '@dc/storage';
import { RelationsModule } from '../app/relations.module';

export const TEST_JWT_SECRET = 'relations-test-secret-'.padEnd(48, 'x');
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 9).toString('base64');
/** The linkage key the test records' hashed columns are keyed with (docs/private-linkage.md). */
export const TEST_LINKAGE_KEY = new Uint8Array(32).fill(4);

function findDatasets(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'shared/datasets'))) return path.join(dir, 'shared/datasets');
  }
  return path.resolve(__dirname, '../../../../../shared/datasets');
}
export const DATASETS = findDatasets();

export interface Caller {
  id: string;
  username: string;
  organisationId: string;
  clientType: ClientType;
  groups: number[];
}

export function caller(username: string, organisationId: string, groups: number[] = [3]): Caller {
  return { id: randomUUID(), username, organisationId, clientType: 'STANDARD', groups };
}

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
export class RelationsTestApp {
  private version = new Map<string, number>();

  private constructor(
    readonly app: NestExpressApplication,
    readonly dataDir: string,
    private readonly db: Client,
  ) {}

  static async start(databaseUrl: string): Promise<RelationsTestApp> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'dc-relations-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      LOG_LEVEL: 'silent',
    });
    // RELATIONS_TEST_LOGS=1 shows the service's logs while debugging a test.
    const logger = createLogger({ service: 'relations-test', level: process.env.RELATIONS_TEST_LOGS === '1' ? 'debug' : 'silent' });
    const app = await createApp({ service: 'relations', config, logger, modules: [RelationsModule], shutdownHooks: false });
    await app.init();
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    return new RelationsTestApp(app, dataDir, db);
  }

  async close(): Promise<void> {
    await this.db.end();
    await this.app.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  http() {
    return request(this.app.getHttpServer());
  }

  async sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.db.query(text, params)).rows as T[];
  }

  async auth(who: Caller): Promise<{ Authorization: string }> {
    const claims: TokenClaims = {
      sub: who.id,
      username: who.username,
      org: who.organisationId,
      ct: who.clientType,
      perms: permissionsOfGroups(who.groups),
      groups: who.groups,
      pv: 1,
    };
    return { Authorization: `JWT ${await this.app.get(JwtService).signAsync(claims)}` };
  }

  /** Indexes a dataset file as the catalogue would, and waits until relations applied both events. */
  async index(
    owner: Caller,
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
    await this.app.get(EventBus).publish([
      createEvent(RecordCreated, id, snapshot),
      createEvent(FileSketched, fileId, {
        recordId: id,
        fileId,
        fileName,
        contentType: 'text/csv',
        storageKey: options.keepFile === false ? null : key,
        tables: sketches.tables,
      }),
    ]);
    if (options.keepFile === false) await storage.delete(key);
    await this.until(`SELECT 1 FROM relations.file_sketches s JOIN relations.records r USING (record_id) WHERE s.file_id = $1`, [fileId]);
    return { id, fileId, snapshot };
  }

  /** Publishes a changed snapshot (record.updated) and waits until it is applied. */
  async update(record: IndexedRecord, change: Partial<RecordSnapshot>): Promise<void> {
    const version = (this.version.get(record.id) ?? 1) + 1;
    this.version.set(record.id, version);
    record.snapshot = { ...record.snapshot, ...change, version, changedAt: new Date().toISOString() };
    await this.app.get(EventBus).publish([createEvent(RecordUpdated, record.id, record.snapshot)]);
    await this.until('SELECT 1 FROM relations.records WHERE record_id = $1 AND visibility = $2 AND access = $3', [
      record.id,
      record.snapshot.visibility,
      record.snapshot.access,
    ]);
  }

  async remove(record: IndexedRecord): Promise<void> {
    await this.app
      .get(EventBus)
      .publish([
        createEvent(RecordDeleted, record.id, { recordId: record.id, ownerId: record.snapshot.ownerId, organisationId: record.snapshot.organisationId }),
      ]);
    await this.until('SELECT 1 FROM relations.records WHERE record_id = $1 AND deleted', [record.id]);
  }

  /** Waits until the query finds a row (what the service does in the background, after an event). */
  async until(query: string, params: unknown[]): Promise<void> {
    const deadline = Date.now() + 30_000;
    while ((await this.sql(query, params)).length === 0) {
      if (Date.now() > deadline) throw new Error(`relations did not apply the events (${query})`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
