import { randomUUID } from 'node:crypto';
import { createEvent, JobCompleted, JobRequested, RequestUpdated, type RequestStatus, type SourceTerms } from '@dc/contracts';
import { ServiceDatabase } from '@dc/platform';
import { createTestDatabase, describeInfra, DocumentedAnswers, eventually, ServiceTestApp, testCaller, type TestDatabase } from '@dc/testing';
import { JobsModule } from '../jobs.module';

type Side = { terms?: SourceTerms | null; requestId?: string | null; grantExpiresAt?: string | null };

const MATCHES = [
  { fieldsA: ['ssn'], fieldsB: ['ssn'], rowA: 0, rowB: 2, rows_match_prob: 1 },
  { fieldsA: ['ssn'], fieldsB: ['ssn'], rowA: 1, rowB: 0, rows_match_prob: 0.875 },
];
const ENDED_ON_POPULATION = 'The access grant on "population.csv" has ended: the links made under it are no longer shown.';

/**
 * Lineage for LINK results on real PostgreSQL: a side read under a grant shows the job's row pairs
 * only while that very request grants (the jobs service's projection of request.* events). Events
 * arrive on the in-process bus as relations, the requests service and the link workers send them.
 */
describeInfra('jobs registry: LINK results follow the grant their records were read under (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let service: ServiceTestApp;
  const owner = testCaller('b', randomUUID());
  const documented = new DocumentedAnswers();
  const post = (url: string, body: object) => documented.checking('post', url, service.request('post', url, owner).send(body));
  const publish = (...events: Parameters<ServiceTestApp['publish']>) => service.publish(...events);

  /** A finished LINK job of the owner with two row pairs; each side's terms as relations named them (omitted: an event from before lineage). */
  async function linkJob(left: Side & { recordId?: string } = {}, right: Side & { recordId?: string } = {}) {
    const jobId = randomUUID();
    const source = (name: string, side: Side & { recordId?: string }) => ({
      recordId: side.recordId ?? randomUUID(),
      name,
      fileId: randomUUID(),
      fileName: name,
      storageKey: `k/${name}`,
      ...side,
    });
    const requested = createEvent(JobRequested, jobId, {
      jobId,
      type: 'LINK',
      owner: { userId: owner.id, username: 'b', organisationId: owner.organisationId, clientType: 'STANDARD', groups: [3] },
      info: 'Link of gdp.csv and population.csv: row linkage on the hashed columns.',
      left: source('gdp.csv', left),
      right: source('population.csv', right),
    });
    await publish(
      requested,
      createEvent(JobCompleted, jobId, { jobId, status: 'done', info: 'Linked 2 row pairs.', matches: MATCHES, totRows: { left: 2, right: 3 } }),
    );
    return { jobId, leftId: requested.payload.left.recordId, rightId: requested.payload.right.recordId };
  }

  /** The requests service's snapshot of a request of the owner (or of `requestorId`) for a record. */
  const requestEvent = (requestId: string, recordId: string, status: RequestStatus, version: number, expiresAt: string | null = null, requestorId = owner.id) =>
    createEvent(RequestUpdated, requestId, {
      requestId,
      recordId,
      requestorId,
      requestorOrganisationId: owner.organisationId,
      ownerId: randomUUID(),
      organisationId: randomUUID(),
      status,
      expiresAt,
      createdAt: new Date(Date.now() - 60_000).toISOString(),
      changedAt: new Date().toISOString(),
      version,
    });

  /** What the owner sees of the job: its content, and its entry in the list. */
  async function seen(jobId: string) {
    const content = await post('/api/tasks/job-content/', { job: jobId });
    expect(content.status).toBe(200);
    const list = await post('/api/tasks/jobs-list/', { page_size: 100 });
    const listed = list.body.results.find((job: { job_id: string }) => job.job_id === jobId);
    expect(listed.content.matches).toBeUndefined();
    expect(listed.content.withheld).toBe(content.body.content.withheld);
    return {
      matches: content.body.content.matches,
      total: content.body.content.total_matches,
      listedTotal: listed.content.total_matches,
      withheld: content.body.content.withheld,
    };
  }
  const shown = { matches: MATCHES, total: 2, listedTotal: 2, withheld: null };
  const withheld = (message: string) => ({ matches: [], total: 0, listedTotal: 0, withheld: message });

  beforeAll(async () => {
    db = await createTestDatabase('dc_jobs_link_grants');
    service = await ServiceTestApp.start({ service: 'jobs', modules: [JobsModule], databaseUrl: db.url });
  });

  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  });

  it("shows a grant side's row pairs while its request is approved, none with the reason once revoked; a late older event and a new approval bring nothing back", async () => {
    const requestId = randomUUID();
    const rightId = randomUUID();
    await publish(requestEvent(requestId, rightId, 'approved', 3));
    const { jobId } = await linkJob({ terms: 'own' }, { terms: 'grant', requestId, recordId: rightId });
    expect(await seen(jobId)).toEqual(shown);

    await publish(requestEvent(requestId, rightId, 'revoked', 4));
    expect(await seen(jobId)).toEqual(withheld(ENDED_ON_POPULATION));
    // The pairs stay stored: only what the owner is shown changed.
    const [stored] = await service
      .get(ServiceDatabase)
      .dataSource.query('SELECT jsonb_array_length(matches) AS pairs FROM jobs.jobs WHERE job_id = $1', [jobId]);
    expect(stored.pairs).toBe(2);

    // A redelivered approval (an older version) does not undo the revocation.
    await publish(requestEvent(requestId, rightId, 'approved', 3));
    expect((await seen(jobId)).withheld).toBe(ENDED_ON_POPULATION);
    // A new approval of the same record is another request: what was made under the old one stays withheld.
    await publish(requestEvent(randomUUID(), rightId, 'approved', 3));
    expect((await seen(jobId)).withheld).toBe(ENDED_ON_POPULATION);
    // Then closed by the requestor: still withheld, with the same reason.
    await publish(requestEvent(requestId, rightId, 'closed', 5));
    expect((await seen(jobId)).withheld).toBe(ENDED_ON_POPULATION);
  });

  it('withholds them once the approval expires, with no event: its expiry passing is enough', async () => {
    const requestId = randomUUID();
    const rightId = randomUUID();
    await publish(requestEvent(requestId, rightId, 'approved', 3, new Date(Date.now() + 2_500).toISOString()));
    const { jobId } = await linkJob({ terms: 'public' }, { terms: 'grant', requestId, recordId: rightId });
    expect(await seen(jobId)).toEqual(shown);
    await eventually(async () => expect(await seen(jobId)).toEqual(withheld(ENDED_ON_POPULATION)), 10_000);

    // Approved with an expiry already past: never shown.
    const pastId = randomUUID();
    const pastRecord = randomUUID();
    await publish(requestEvent(pastId, pastRecord, 'approved', 3, new Date(Date.now() - 1_000).toISOString()));
    expect(await seen((await linkJob({}, { terms: 'grant', requestId: pastId, recordId: pastRecord })).jobId)).toEqual(withheld(ENDED_ON_POPULATION));
  });

  it('takes a request it never heard of as the job vouches for it (approved until the expiry relations saw), until an event of it says otherwise', async () => {
    // Approved before the jobs service followed requests: relations checked it when the job was asked for.
    const unheard = randomUUID();
    const rightId = randomUUID();
    const { jobId } = await linkJob({ terms: 'own' }, { terms: 'grant', requestId: unheard, recordId: rightId });
    expect(await seen(jobId)).toEqual(shown);
    await publish(requestEvent(unheard, rightId, 'revoked', 1));
    expect(await seen(jobId)).toEqual(withheld(ENDED_ON_POPULATION));
    // Its expiry as relations saw it counts, too.
    const lapsed = await linkJob({ terms: 'own' }, { terms: 'grant', requestId: randomUUID(), grantExpiresAt: new Date(Date.now() - 1_000).toISOString() });
    expect(await seen(lapsed.jobId)).toEqual(withheld(ENDED_ON_POPULATION));
  });

  it("withholds them under a request without an id, or one that is not the owner's for that record; both sides ended are both named", async () => {
    expect(await seen((await linkJob({ terms: 'own' }, { terms: 'grant', requestId: null })).jobId)).toEqual(withheld(ENDED_ON_POPULATION));

    // Approved, but for someone else, or for another record: the job's word does not overrule the requests service's.
    const rightId = randomUUID();
    const othersRequest = randomUUID();
    const otherRecordsRequest = randomUUID();
    await publish(requestEvent(othersRequest, rightId, 'approved', 3, null, randomUUID()), requestEvent(otherRecordsRequest, randomUUID(), 'approved', 3));
    expect((await seen((await linkJob({}, { terms: 'grant', requestId: othersRequest, recordId: rightId })).jobId)).withheld).toBe(ENDED_ON_POPULATION);
    expect((await seen((await linkJob({}, { terms: 'grant', requestId: otherRecordsRequest, recordId: rightId })).jobId)).withheld).toBe(ENDED_ON_POPULATION);

    const [leftRequest, rightRequest, leftRecord, rightRecord] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await publish(requestEvent(leftRequest, leftRecord, 'revoked', 5), requestEvent(rightRequest, rightRecord, 'closed', 5));
    const both = await linkJob(
      { terms: 'grant', requestId: leftRequest, recordId: leftRecord },
      { terms: 'grant', requestId: rightRequest, recordId: rightRecord },
    );
    expect(await seen(both.jobId)).toEqual(
      withheld('The access grants on "gdp.csv" and "population.csv" have ended: the links made under them are no longer shown.'),
    );
  });

  it('leaves jobs whose sides were read under own, public or open terms, or from before lineage (no terms), as they were', async () => {
    for (const [left, right] of [
      [{ terms: 'own' }, { terms: 'own' }],
      [{ terms: 'own' }, { terms: 'public' }],
      [{ terms: 'public' }, { terms: 'open' }],
      [{}, {}],
      [
        { terms: null, requestId: null },
        { terms: null, requestId: null },
      ],
    ] as Array<[Side, Side]>) {
      expect(await seen((await linkJob(left, right)).jobId)).toEqual(shown);
    }
    // Both sides granted and approved: shown, until one of them is revoked.
    const [leftRequest, rightRequest, leftId, rightId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await publish(requestEvent(leftRequest, leftId, 'approved', 3), requestEvent(rightRequest, rightId, 'approved', 3));
    const { jobId } = await linkJob(
      { terms: 'grant', requestId: leftRequest, recordId: leftId },
      { terms: 'grant', requestId: rightRequest, recordId: rightId },
    );
    expect(await seen(jobId)).toEqual(shown);
    await publish(requestEvent(leftRequest, leftId, 'revoked', 4));
    expect((await seen(jobId)).withheld).toBe('The access grant on "gdp.csv" has ended: the links made under it are no longer shown.');
  });

  it('answered every call above as docs/openapi.json documents it', () => {
    expect(documented.mismatches).toEqual([]);
  });
});
