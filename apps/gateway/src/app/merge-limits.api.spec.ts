import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { derivedUuid } from '@dc/messaging';
import { CatalogueModule } from '@dc/service-catalogue';
import { JobsModule } from '@dc/service-jobs';
import { RelationsModule } from '@dc/service-relations';
import { ObjectStorage } from '@dc/storage';
import {
  createTestDatabase,
  describeInfra,
  directoryEvents,
  DocumentedAnswers,
  eventually,
  ServiceTestApp,
  testCaller,
  type TestCaller,
  type TestDatabase,
} from '@dc/testing';

const MIB = 1024 * 1024;
/** Above what the attack makes at the default MERGE_MAX_ROWS (2,000,001 rows of 9 bytes), so rows stop it first. */
const MAX_BYTES = 24 * MIB;
const QUOTA = 32 * MIB;

/** Under the key 1: `rows` rows whose value is `width` letters (2 and 3 letters alternately when width is 0). */
const keyedCsv = (valueHeader: string, rows: number, width = 0) =>
  [`key,${valueHeader}`, ...Array.from({ length: rows }, (_, i) => `1,${width ? 'x'.repeat(width) : i < rows / 2 ? 'ab' : 'abc'}`)].join('\n') + '\n';

/**
 * Bounded merge output (issue 21, item 5), through the services embedded mode composes: uploads
 * in the catalogue, merge-features in relations, the merge worker of the jobs service, the
 * registry on /api/tasks and the merged record back in the catalogue. The defaults hold for
 * MERGE_MAX_ROWS; MERGE_MAX_BYTES and DERIVED_STORAGE_QUOTA_BYTES are set low so that results of a
 * few megabytes reach them.
 */
describeInfra('merge limits: rows, bytes and the quota on merged records (real PostgreSQL, in-process events)', true, () => {
  let db: TestDatabase;
  let service: ServiceTestApp;
  /** The people signed up, by id. */
  const callers = new Map<string, TestCaller>();
  const documented = new DocumentedAnswers();
  const post = (url: string, body: object, who: string) => documented.checking('post', url, service.request('post', url, callers.get(who)).send(body));

  const signUp = async (username: string) => {
    const who = testCaller(username, randomUUID(), [1, 2, 3]);
    callers.set(who.id, who);
    await service.publish(...directoryEvents([who], { [who.organisationId]: `${username} org` }));
    return who.id;
  };
  /** Uploads a CSV and waits until relations can merge it (the record with its file, and the file's sketch). */
  const upload = async (who: string, name: string, text: string) => {
    const created = await service.request('post', '/api/records/', callers.get(who)).attach('file', Buffer.from(text), name);
    expect(created.status).toBe(201);
    const ready =
      'SELECT 1 FROM relations.records r JOIN relations.file_sketches s ON s.record_id = r.record_id AND s.file_id = ANY(r.file_ids) WHERE r.record_id = $1';
    await eventually(async () => expect(await service.sql(ready, [created.body.id])).toHaveLength(1), 60_000);
    return created.body.id as string;
  };
  const merge = async (who: string, left: string, right: string) => {
    const started = await post(
      '/api/relations/merge-features/',
      { merge_relations: [{ record_left: left, record_right: right, header_left: 'key', header_right: 'key' }], merge_type: 'horizontal' },
      who,
    );
    expect(started.body.newmerges).toHaveLength(1);
    const jobId = started.body.newmerges[0].job_id as string;
    const job = await eventually(async () => {
      const read = (await post('/api/tasks/job-content/', { job: jobId }, who)).body;
      expect(read.is_active).toBe(false);
      return read;
    }, 60_000);
    return { jobId, job };
  };
  const usedBy = async (who: string) =>
    Number((await service.sql('SELECT coalesce(sum(bytes), 0) AS used FROM jobs.derived_storage WHERE owner_id = $1', [who]))[0].used);
  const mergedRecords = async (who: string) =>
    (await service.sql("SELECT id FROM catalogue.records WHERE owner_id = $1 AND origin = 'merge' ORDER BY date_created", [who])).map((r) => r.id as string);
  /** A stopped merge keeps nothing: no object, no merge.completed (so no record), no bytes counted, no work files. */
  const nothingLeftOf = async (who: string, jobId: string) => {
    expect(await service.get(ObjectStorage).exists(`jobs/merges/${jobId}.csv`)).toBe(false);
    expect(await service.sql("SELECT 1 FROM jobs.outbox_events WHERE type = 'merge.completed' AND key = $1", [jobId])).toEqual([]);
    expect(await service.sql('SELECT 1 FROM catalogue.records WHERE id = $1', [derivedUuid(jobId, 'record')])).toEqual([]);
    expect(await mergedRecords(who)).toEqual([]);
    expect(await usedBy(who)).toBe(0);
    expect(existsSync(path.join(tmpdir(), 'dc-jobs-work', jobId))).toBe(false);
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_merge_limits');
    service = await ServiceTestApp.start({
      service: 'gateway',
      name: 'merge-limits',
      modules: [CatalogueModule, RelationsModule, JobsModule],
      databaseUrl: db.url,
      env: { MERGE_MAX_BYTES: String(MAX_BYTES), DERIVED_STORAGE_QUOTA_BYTES: String(QUOTA) },
    });
    expect(service.config.MERGE_MAX_ROWS).toBe(2_000_000);
  }, 120_000);
  jest.setTimeout(180_000);

  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  });

  it('stops the merge of two 11 KB files with one repeated key (4,000,000 rows) at the rows limit, keeping nothing, and says why', async () => {
    const attacker = await signUp('attacker');
    const [leftCsv, rightCsv] = [keyedCsv('a', 2000), keyedCsv('b', 2000)];
    expect([leftCsv.length, rightCsv.length]).toEqual([11_006, 11_006]);
    const left = await upload(attacker, 'left.csv', leftCsv);
    const right = await upload(attacker, 'right.csv', rightCsv);

    const { jobId, job } = await merge(attacker, left, right);
    expect(job).toMatchObject({ status: 'complete', failed: true, content: { result_record_id: null } });
    expect(job.info).toBe(
      'The merge was stopped: its result would have more than 2,000,000 rows, the most a merge may make (MERGE_MAX_ROWS). ' +
        'A value repeated on both sides multiplies rows: merge on columns whose values are unique in at least one of the records, or merge smaller parts of them.',
    );
    await nothingLeftOf(attacker, jobId);
  });

  it('stops a result of few but wide rows at the bytes limit, keeping nothing', async () => {
    const owner = await signUp('wide');
    // 40,000 rows of about 805 bytes: 32 MB, under the rows limit, over 24 MiB.
    const left = await upload(owner, 'wide-left.csv', keyedCsv('a', 200, 800));
    const right = await upload(owner, 'wide-right.csv', keyedCsv('b', 200, 1));
    const { jobId, job } = await merge(owner, left, right);
    expect(job).toMatchObject({ failed: true, content: { result_record_id: null } });
    expect(job.info).toMatch(
      /^The merge was stopped: its result would be larger than 24 MiB \(25,165,824 bytes\), the most a merge may make \(MERGE_MAX_BYTES\)\. /,
    );
    await nothingLeftOf(owner, jobId);
  });

  it("merges under the limits, counts merged records against the owner's quota, refuses the merge that would pass it, and frees it when a merged record is deleted", async () => {
    const owner = await signUp('quota');
    // 40,000 rows of about 305 bytes: a 12 MB result; the quota (32 MiB) holds two.
    const left = await upload(owner, 'q-left.csv', keyedCsv('a', 200, 300));
    const right = await upload(owner, 'q-right.csv', keyedCsv('b', 200, 1));

    const first = await merge(owner, left, right);
    expect(first.job).toMatchObject({ failed: false, info: 'Merged 40000 rows of q-left.csv and q-right.csv into a new record.' });
    const firstRecord = first.job.content.result_record_id as string;
    const size = await eventually(async () => {
      const rows = await service.sql('SELECT size FROM catalogue.files WHERE record_id = $1', [firstRecord]);
      expect(rows).toHaveLength(1);
      return Number(rows[0].size);
    });
    expect(size).toBeGreaterThan(12_000_000);
    expect(await usedBy(owner)).toBe(size);

    const second = await merge(owner, left, right);
    expect(second.job).toMatchObject({ failed: false });
    expect(await usedBy(owner)).toBe(2 * size);

    // 32 MiB less two results leaves less than a third one needs: stopped while it streams.
    const third = await merge(owner, left, right);
    expect(third.job).toMatchObject({ failed: true, content: { result_record_id: null } });
    expect(third.job.info).toBe(
      'The merge was stopped: its result would take your merged records past your storage quota of 32 MiB (33,554,432 bytes) (DERIVED_STORAGE_QUOTA_BYTES); ' +
        `they take ${((2 * size) / MIB).toFixed(1)} MiB (${(2 * size).toLocaleString('en')} bytes) now. Delete merged records you no longer need, then merge again.`,
    );
    expect(await service.get(ObjectStorage).exists(`jobs/merges/${third.jobId}.csv`)).toBe(false);
    expect(existsSync(path.join(tmpdir(), 'dc-jobs-work', third.jobId))).toBe(false);
    expect(await usedBy(owner)).toBe(2 * size);
    await eventually(async () => expect(await mergedRecords(owner)).toHaveLength(2));

    // The catalogue's record.deleted frees the deleted record's bytes in the jobs service's own count.
    expect((await service.request('delete', `/api/records/${firstRecord}/`, callers.get(owner))).status).toBeLessThan(300);
    await eventually(async () => expect(await usedBy(owner)).toBe(size));
    const fourth = await merge(owner, left, right);
    expect(fourth.job).toMatchObject({ failed: false });
    expect(await usedBy(owner)).toBe(2 * size);
  });

  it('answered every call above as docs/openapi.json documents it', () => {
    expect(documented.mismatches).toEqual([]);
  });
});
