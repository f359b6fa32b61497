import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { createLogger, SecretCipher } from '@dc/platform';
import { ObjectStorage } from '@dc/storage';
import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { caller, CatalogueTestApp, DATASETS } from '../../testing/catalogue-test-app';
import { PendingObjects } from '../recovery/pending-objects';
import { EarlyExtractions } from './early-extractions';
import { ExtractionRepository } from './extraction.repository';
import { EXTRACTION_FAILED_MESSAGE, ExtractionWorker, ExtractionWorkerSettings } from './extraction.worker';
import { MetadataExtractionInput, MetadataExtractionOptions, MetadataExtractor } from './metadata-extractor';

const CO2 = path.join(DATASETS, 'csv/co2-annmean-gl.csv');
const CO2_MLO = path.join(DATASETS, 'csv/co2-annmean-mlo.csv');
const UNEMPLOYMENT = path.join(DATASETS, 'csv/unemployment.tsv');

const org = randomUUID();
const owner = caller('owner', org, [1, 2, 3]);

/** Reads the whole stream and describes the first line as headers, like a real table extractor would. */
class HeaderLineExtractor extends MetadataExtractor {
  async extract(input: MetadataExtractionInput, options: MetadataExtractionOptions) {
    const chunks: Buffer[] = [];
    for await (const chunk of input.stream) chunks.push(chunk as Buffer);
    const lines = Buffer.concat(chunks).toString('utf8').split(/\r?\n/).filter(Boolean);
    const headers = lines[0].split(/[,\t]/);
    return {
      NAME: input.fileName,
      CONTENT_TYPE: input.contentType,
      SIZE: input.size,
      EXTRACT_OPTION: options.extractOption,
      STATUS: 'complete',
      FILE: { HEADERS: headers, TOTAL_ROWS: lines.length - 1, STATS: { '0': { WORDSET: ['carbon'] } } },
      KEYWORDS: ['dioxide'],
      ERRORS: [],
    };
  }
}

class FailingExtractor extends MetadataExtractor {
  calls = 0;
  async extract(input: MetadataExtractionInput): Promise<Record<string, unknown>> {
    this.calls++;
    input.stream.destroy();
    throw new Error('disk on fire at /secret/path');
  }
}

/** Never finishes on its own; tells when it started and when it was aborted. */
class HangingExtractor extends MetadataExtractor {
  private markStarted!: () => void;
  readonly started = new Promise<void>((resolve) => (this.markStarted = resolve));
  aborted = false;
  async extract(_input: MetadataExtractionInput, options: MetadataExtractionOptions): Promise<Record<string, unknown>> {
    options.signal?.addEventListener('abort', () => (this.aborted = true));
    this.markStarted();
    return new Promise(() => undefined);
  }
}

describeInfra('extraction worker (real PostgreSQL, fs storage)', true, () => {
  let db: TestDatabase;
  let sql: Client;
  let catalogue: CatalogueTestApp;
  let dataDir: string;

  const upload = async (file: string, fields: Record<string, string> = {}) => {
    let call = catalogue
      .http()
      .post('/api/records/')
      .set(await catalogue.auth(owner))
      .attach('file', file);
    for (const [name, value] of Object.entries(fields)) call = call.field(name, value);
    const response = await call;
    expect(response.status).toBe(201);
    return response.body as { id: string; FILES: Array<{ id: string }> };
  };
  const fileRow = async (id: string) =>
    (await sql.query('SELECT extraction_status, attempts, meta, error, storage_key, claim_token FROM catalogue.files WHERE id = $1', [id])).rows[0] as {
      extraction_status: string;
      attempts: number;
      meta: { ERRORS?: string[]; FILE?: unknown } | null;
      error: string | null;
      storage_key: string | null;
      claim_token: string | null;
    };
  /** A worker of our own over the app's queue and storage, with a test extractor. */
  const runWorker = async (extractor: MetadataExtractor, settings: Partial<ExtractionWorkerSettings> = {}) => {
    const worker = new ExtractionWorker(
      catalogue.app.get(ExtractionRepository),
      extractor,
      catalogue.app.get(ObjectStorage),
      catalogue.app.get(SecretCipher),
      catalogue.app.get(PendingObjects),
      catalogue.app.get(EarlyExtractions),
      createLogger({ service: 'test', level: 'silent' }),
      { pollIntervalMs: 60_000, ...settings },
    );
    worker.onApplicationBootstrap();
    return worker;
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_worker');
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    catalogue = await CatalogueTestApp.start(db.url);
    dataDir = catalogue.dataDir;
    await catalogue.feedDirectory([owner], { [org]: 'Acme' });
  });

  afterAll(async () => {
    await catalogue?.close();
    await sql?.end();
    await db?.drop();
  });

  it('picks up, after a restart, a file whose extraction was interrupted; gives up after 3 attempts; leaves live claims alone', async () => {
    const interrupted = await upload(CO2);
    const tooOften = await upload(CO2_MLO);
    const live = await upload(UNEMPLOYMENT);
    for (const record of [interrupted, tooOften, live])
      await eventually(async () => expect((await fileRow(record.FILES[0].id)).extraction_status).toBe('done'));
    await catalogue.close({ keepData: true });

    // What a process killed mid-extraction leaves behind: running, a claim, a heartbeat that stopped.
    const crashed = `extraction_status = 'running', meta = NULL, claim_token = gen_random_uuid(), heartbeat_at = now() - interval '1 hour'`;
    await sql.query(`UPDATE catalogue.files SET ${crashed}, attempts = 1 WHERE id = $1`, [interrupted.FILES[0].id]);
    await sql.query(`UPDATE catalogue.files SET ${crashed}, attempts = 3 WHERE id = $1`, [tooOften.FILES[0].id]);
    // Another worker still busy with this one (fresh heartbeat): not ours to take.
    await sql.query(
      `UPDATE catalogue.files SET extraction_status = 'running', meta = NULL, claim_token = gen_random_uuid(), heartbeat_at = now(), attempts = 1 WHERE id = $1`,
      [live.FILES[0].id],
    );

    catalogue = await CatalogueTestApp.start(db.url, { dataDir });
    const resumed = await eventually(async () => {
      const row = await fileRow(interrupted.FILES[0].id);
      expect(row.extraction_status).toBe('done');
      return row;
    });
    expect(resumed).toMatchObject({ attempts: 2, claim_token: null, meta: { NAME: 'co2-annmean-gl.csv' } });
    const gaveUp = await eventually(async () => {
      const row = await fileRow(tooOften.FILES[0].id);
      expect(row.extraction_status).toBe('failed');
      return row;
    });
    expect(gaveUp.meta!.ERRORS).toEqual(['Metadata extraction was interrupted 3 times; it was not tried again.']);
    const details = await catalogue
      .http()
      .get(`/api/records/${tooOften.id}`)
      .set(await catalogue.auth(owner));
    expect(details.body).toMatchObject({
      extraction_status: 'done',
      FILES: [{ extraction_status: 'failed', META: { ERRORS: [expect.stringContaining('interrupted')] } }],
    });
    expect((await fileRow(live.FILES[0].id)).extraction_status).toBe('running');

    const events = await catalogue.events(interrupted.FILES[0].id);
    expect(events.filter((e) => e.type === 'file.metadata-extracted').map((e) => [e.type, (e.payload as { status: string }).status])).toEqual([
      ['file.metadata-extracted', 'done'],
      ['file.metadata-extracted', 'done'],
    ]);
    // Each finished extraction also hands the column sketches to the relations service.
    const sketched = events
      .filter((e) => e.type === 'file.sketched')
      .map((e) => e.payload as { recordId: string; storageKey: string | null; tables: Array<{ columns: unknown[] }> });
    expect(sketched).toHaveLength(2);
    expect(sketched[0]).toMatchObject({ recordId: interrupted.id, storageKey: expect.any(String) });
    expect(sketched[0].tables[0].columns.length).toBeGreaterThan(0);
    expect((await catalogue.events(tooOften.FILES[0].id)).at(-1)!.payload).toMatchObject({
      status: 'failed',
      errors: ['Metadata extraction was interrupted 3 times; it was not tried again.'],
    });
    await sql.query(`UPDATE catalogue.files SET extraction_status = 'done', claim_token = NULL WHERE id = $1`, [live.FILES[0].id]);
  });

  it("takes at once, fresh heartbeat or not, a file whose instance died (its lock is gone); leaves a living instance's alone", async () => {
    const orphaned = await upload(CO2, { allowDuplicate: 'true' });
    const held = await upload(CO2_MLO, { allowDuplicate: 'true' });
    for (const record of [orphaned, held]) await eventually(async () => expect((await fileRow(record.FILES[0].id)).extraction_status).toBe('done'));
    // Another instance, alive: a session holding its lock, as a running catalogue does.
    const living = randomUUID();
    const session = new Client({ connectionString: db.url });
    await session.connect();
    try {
      await session.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [living]);
      // Both claims look busy (heartbeat just now); one instance was killed, the other runs.
      const running = `extraction_status = 'running', meta = NULL, claim_token = gen_random_uuid(), heartbeat_at = now(), attempts = 1, claimed_by = $2`;
      await sql.query(`UPDATE catalogue.files SET ${running} WHERE id = $1`, [orphaned.FILES[0].id, randomUUID()]);
      await sql.query(`UPDATE catalogue.files SET ${running} WHERE id = $1`, [held.FILES[0].id, living]);
      catalogue.app.get(ExtractionWorker).nudge();
      await eventually(async () => expect(await fileRow(orphaned.FILES[0].id)).toMatchObject({ extraction_status: 'done', attempts: 2, claim_token: null }));
      await catalogue.app.get(ExtractionWorker).idle();
      expect((await fileRow(held.FILES[0].id)).extraction_status).toBe('running');
    } finally {
      await session.end();
    }
    // Its instance gone, the held file is taken too.
    catalogue.app.get(ExtractionWorker).nudge();
    await eventually(async () => expect(await fileRow(held.FILES[0].id)).toMatchObject({ extraction_status: 'done', attempts: 2 }));
  });

  describe("with a worker of our own (the app's is stopped)", () => {
    beforeAll(async () => {
      await catalogue.app.get(ExtractionWorker).onModuleDestroy();
    });

    it('stores META, publishes headers and words, and drops the object afterwards when deleteFile=true', async () => {
      const record = await upload(CO2, { deleteFile: 'true', name: 'Global CO2', allowDuplicate: 'true' });
      const worker = await runWorker(new HeaderLineExtractor());
      await worker.idle();
      await worker.onModuleDestroy();
      const row = await fileRow(record.FILES[0].id);
      expect(row).toMatchObject({ extraction_status: 'done', attempts: 1, storage_key: null, meta: { FILE: { TOTAL_ROWS: expect.any(Number) } } });
      expect(await catalogue.app.get(ObjectStorage).exists(`catalogue/files/${record.FILES[0].id}`)).toBe(false);
      const download = await catalogue
        .http()
        .get(`/api/records/${record.id}/download/`)
        .set(await catalogue.auth(owner));
      expect(download.status).toBe(404);
      const updated = (await catalogue.events(record.id)).at(-1)!;
      // Under metadata the words of cells (WORDSET "carbon", keyword "dioxide") are not published: a table's words are its headers'.
      expect(updated).toMatchObject({
        type: 'record.updated',
        payload: { headers: ['Year', 'Mean', 'Uncertainty'], words: ['year', 'mean', 'uncertainty'], files: [{ extractionStatus: 'done' }] },
      });
      expect((await catalogue.events(record.FILES[0].id))[0].payload).toMatchObject({
        status: 'done',
        headers: ['Year', 'Mean', 'Uncertainty'],
        totalRows: 47,
        extractOption: 'metadata',
      });
    });

    it('retries a failing extraction later, then fails for good with a message that reveals nothing', async () => {
      const record = await upload(CO2, { allowDuplicate: 'true' });
      const extractor = new FailingExtractor();
      for (let attempt = 1; attempt <= 3; attempt++) {
        const worker = await runWorker(extractor, { retryDelaySeconds: 3600 });
        await worker.idle();
        await worker.onModuleDestroy();
        const row = await fileRow(record.FILES[0].id);
        expect(row.attempts).toBe(attempt);
        expect(row.extraction_status).toBe(attempt < 3 ? 'pending' : 'failed');
        // Not due again before its delay: make it due for the next round.
        await sql.query('UPDATE catalogue.files SET next_attempt_at = now() WHERE id = $1', [record.FILES[0].id]);
      }
      expect(extractor.calls).toBe(3);
      const row = await fileRow(record.FILES[0].id);
      expect(row.meta!.ERRORS).toEqual([EXTRACTION_FAILED_MESSAGE]);
      expect(JSON.stringify(row)).not.toContain('/secret/path');
    });

    it('fails an extraction that runs past the time-out, and hands a file back when shutting down', async () => {
      const slow = await upload(CO2_MLO, { allowDuplicate: 'true' });
      const hanging = new HangingExtractor();
      const worker = await runWorker(hanging, { timeoutMs: 200 });
      await worker.idle();
      await worker.onModuleDestroy();
      expect(hanging.aborted).toBe(true);
      expect(await fileRow(slow.FILES[0].id)).toMatchObject({ extraction_status: 'failed', meta: { ERRORS: ['Metadata extraction timed out after 200 ms.'] } });

      const interrupted = await upload(UNEMPLOYMENT, { allowDuplicate: 'true' });
      const stuck = new HangingExtractor();
      const stopping = await runWorker(stuck);
      await stuck.started;
      await stopping.onModuleDestroy();
      expect(stuck.aborted).toBe(true);
      expect(await fileRow(interrupted.FILES[0].id)).toMatchObject({ extraction_status: 'pending', attempts: 0, claim_token: null, meta: null });
    });
  });
});
