import { randomUUID } from 'node:crypto';
import { JobCompleted, type JobRequestedPayload } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createTestDatabase, describeInfra, DocumentedAnswers, eventually, type TestDatabase } from '@dc/testing';
import { caller, type Caller, type IndexedRecord, RelationsTestApp } from '../../testing/relations-test-app';
import { NO_HASHED_COLUMNS } from './merge-jobs.service';

const owner = caller('owner', randomUUID(), [2, 3]);
const outsider = caller('outsider', randomUUID(), [3]);

/**
 * LINK jobs and merges on hashed columns, as relations starts and (for LINK) runs them: link-records
 * and merge-enc-cols publish job.requested; relations' link worker takes LINK jobs from the bus and
 * reports job.completed with the row pairs.
 */
describeInfra('link jobs and merge-enc-cols (real PostgreSQL, in-process events)', true, () => {
  let db: TestDatabase;
  let relations: RelationsTestApp;
  const headers = new Map<Caller, { Authorization: string }>();
  const completed = new Map<string, ReturnType<typeof JobCompleted.payload.parse>>();
  let hashedGlobal: IndexedRecord;
  let hashedMaunaLoa: IndexedRecord;
  let plain: IndexedRecord;

  /** Every answer of this suite is also checked against docs/openapi.json (asserted last). */
  const documented = new DocumentedAnswers();
  const post = (url: string, body: object, who: Caller | null = owner) => {
    const call = relations.http().post(url).send(body);
    return documented.checking('post', url, who ? call.set(headers.get(who)!) : call);
  };
  const requested = async (jobId: string) => {
    const [row] = await relations.sql<{ payload: JobRequestedPayload }>(
      "SELECT payload FROM relations.outbox_events WHERE type = 'job.requested' AND key = $1",
      [jobId],
    );
    return row?.payload;
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_link_jobs');
    relations = await RelationsTestApp.start(db.url);
    for (const who of [owner, outsider]) headers.set(who, await relations.auth(who));
    await relations.app.get(EventBus).subscribe('test-job-completions', [JobCompleted.type], async (event) => {
      const done = JobCompleted.payload.parse(event.payload);
      completed.set(done.jobId, done);
    });
    hashedGlobal = await relations.index(owner, 'csv/co2-annmean-gl.csv', { hash: ['Year'], mask: ['Mean', 'Uncertainty'] });
    hashedMaunaLoa = await relations.index(owner, 'csv/co2-annmean-mlo.csv', { hash: ['Year'], mask: ['Mean', 'Uncertainty'] });
    plain = await relations.index(owner, 'csv/co2-annmean-mlo.csv', { name: 'plain.csv' });
  });

  afterAll(async () => {
    await relations?.close();
    await db?.drop();
  });

  it("runs a LINK job on the hashed columns: row pairs with a probability, for the job's owner", async () => {
    const started = await post('/api/relations/link-records/', { record_left: hashedGlobal.id, record_right: hashedMaunaLoa.id });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ nodata: false, nottabular: false, messages: ['New link job was successfully initiated.'] });
    const [job] = started.body.newmerges;
    expect(job).toMatchObject({ type: 'LINK', record_left_id: hashedGlobal.id, record_right_id: hashedMaunaLoa.id });
    expect(await requested(job.job_id)).toMatchObject({
      type: 'LINK',
      owner: { userId: owner.id },
      left: { recordId: hashedGlobal.id },
      right: { recordId: hashedMaunaLoa.id },
    });

    const done = await eventually(async () => {
      expect(completed.has(job.job_id)).toBe(true);
      return completed.get(job.job_id)!;
    }, 60_000);
    expect(done).toMatchObject({ status: 'done', totRows: { left: expect.any(Number), right: expect.any(Number) } });
    expect(done.matches.length).toBeGreaterThan(0);
    expect(done.matches[0]).toMatchObject({ fieldsA: ['Year'], fieldsB: ['Year'], rowA: expect.any(Number), rowB: expect.any(Number) });
    expect(done.matches[0].rows_match_prob).toBeGreaterThan(0.5);
    expect(done.info).toMatch(/^Linked \d+ row pairs of /);
  });

  it('merges on the hashed columns both records share (merge-enc-cols), horizontally unless told', async () => {
    const started = await post('/api/relations/merge-enc-cols', { record_left: hashedGlobal.id, record_right: hashedMaunaLoa.id });
    expect(started.body.messages).toEqual(['New merge job was successfully initiated.']);
    expect(await requested(started.body.newmerges[0].job_id)).toMatchObject({
      type: 'MERGE',
      merge: { mergeType: 'horizontal', pairs: [{ left: 'Year', right: 'Year' }] },
    });
  });

  it('refuses records without hashed columns in common, callers who may not read them, and anonymous callers', async () => {
    expect((await post('/api/relations/link-records/', { record_left: hashedGlobal.id, record_right: plain.id })).body).toEqual({
      non_field_errors: [NO_HASHED_COLUMNS],
    });
    const refused = await post('/api/relations/link-records/', { record_left: hashedGlobal.id, record_right: hashedMaunaLoa.id }, outsider);
    expect(refused.body).toMatchObject({
      nodata: true,
      newmerges: [],
      messages: ['Some merges could not be completed. You do not have access to those data.'],
    });
    expect((await post('/api/relations/merge-enc-cols/', { record_left: hashedGlobal.id, record_right: hashedMaunaLoa.id }, null)).status).toBe(401);
    expect((await post('/api/relations/link-records/', { record_left: hashedGlobal.id })).body).toEqual({ record_right: ['This field is required.'] });
  });

  it('answered every call above as docs/openapi.json documents it', () => {
    expect(documented.mismatches).toEqual([]);
  });
});
