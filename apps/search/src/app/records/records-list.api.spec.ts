import { createEvent, RecordSnapshot, RequestSnapshot, RequestUpdated } from '@dc/contracts';
import { createTestDatabase, describeInfra, type TestDatabase, testRecordSnapshot } from '@dc/testing';
import { Client } from 'pg';
import { SearchTestApp, type Viewer } from '../../testing/search-test-app';
import { MAX_REMEMBERED_REQUESTS, PostgresRequestStatuses, REQUEST_STATUSES_TTL_MS, RequestStatuses } from '../requests/request-statuses';

const ada: Viewer = { id: 'u-ada', username: 'ada', organisationId: 'org-a' };
const amy: Viewer = { id: 'u-amy', username: 'amy', organisationId: 'org-a' };
const bob: Viewer = { id: 'u-bob', username: 'bob', organisationId: 'org-b' };
const carol: Viewer = { id: 'u-carol', username: 'carol', organisationId: 'org-c' };
const dave: Viewer = { id: 'u-dave', username: 'dave', organisationId: 'org-d' };
const viewers = { anonymous: null, ada, amy, bob, carol, dave };
type ViewerName = keyof typeof viewers;

let minute = 0;
function record(
  recordId: string,
  owner: Viewer,
  visibility: RecordSnapshot['visibility'],
  shared: { users?: string[]; organisations?: string[] } = {},
): RecordSnapshot {
  const changedAt = new Date(Date.UTC(2026, 0, 1, 0, minute++)).toISOString();
  return testRecordSnapshot(owner, {
    recordId,
    name: `Record ${recordId}`,
    description: `sensor feed ${recordId}`,
    organisationName: owner.organisationId,
    visibility,
    sharedWithUserIds: shared.users ?? [],
    sharedWithOrganisationIds: shared.organisations ?? [],
    origin: 'metadata',
    type: 'metadata',
    size: 0,
    createdAt: changedAt,
    changedAt,
    headers: ['station', 'value'],
  });
}

/**
 * The visibility rules (ARCHITECTURE section 8) through the HTTP API of the search service, on
 * real PostgreSQL: every viewer gets exactly the records they may see, in results and in count,
 * with and without text, on every page size, and nothing about the others.
 */
describeInfra('search API: GET /api/records/ and /api/recordsannon/ visibility matrix (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let search: SearchTestApp;

  beforeAll(async () => {
    db = await createTestDatabase('dc_search_api');
    search = await SearchTestApp.start(db.url);
    await search.indexRecords([
      { ...record('a-ev', ada, 'EV'), encryptedHeaders: ['station'] },
      record('a-pr', ada, 'PR'),
      record('a-cu-user', ada, 'CU', { users: [bob.id] }),
      record('a-cu-org', ada, 'CU', { organisations: [carol.organisationId] }),
      // The catalogue sends lists for CU records only; a PR record with lists must still grant nothing.
      record('a-pr-stale', ada, 'PR', { users: [dave.id], organisations: [dave.organisationId] }),
      record('m-pr', amy, 'PR'),
      record('b-pr', bob, 'PR'),
      record('b-ev', bob, 'EV'),
      record('b-cu-ada', bob, 'CU', { users: [ada.id] }),
    ]);
  });
  afterAll(async () => {
    await search?.close();
    await db?.drop();
  });

  const orgA = ['a-ev', 'a-pr', 'a-cu-user', 'a-cu-org', 'a-pr-stale', 'm-pr'];
  const matrix: Array<[string, ViewerName, 'all' | 'own', string[]]> = [
    ['anonymous: EV only', 'anonymous', 'all', ['a-ev', 'b-ev']],
    ['anonymous asking for own: still EV only', 'anonymous', 'own', ['a-ev', 'b-ev']],
    ['owner: their organisation, EV, and CU listing them', 'ada', 'all', [...orgA, 'b-ev', 'b-cu-ada']],
    ['owner, own view: their records only', 'ada', 'own', ['a-ev', 'a-pr', 'a-cu-user', 'a-cu-org', 'a-pr-stale']],
    ['member of the same organisation: its PR and CU records', 'amy', 'all', [...orgA, 'b-ev']],
    ['member, own view: not the colleague’s', 'amy', 'own', ['m-pr']],
    ['other organisation, listed user of a CU record', 'bob', 'all', ['a-ev', 'a-cu-user', 'b-pr', 'b-ev', 'b-cu-ada']],
    ['other organisation, own view', 'bob', 'own', ['b-pr', 'b-ev', 'b-cu-ada']],
    ['member of a listed organisation of a CU record', 'carol', 'all', ['a-ev', 'a-cu-org', 'b-ev']],
    ['member of a listed organisation, own view: nothing', 'carol', 'own', []],
    ['stranger: EV only, whatever a PR record lists', 'dave', 'all', ['a-ev', 'b-ev']],
    ['stranger, own view: nothing', 'dave', 'own', []],
  ];

  async function list(viewerName: ViewerName, params: string) {
    const viewer = viewers[viewerName];
    const response = viewer
      ? await search
          .http()
          .get(`/api/records/?${params}`)
          .set(await search.auth(viewer))
      : await search.http().get(`/api/recordsannon/?${params}`);
    expect(response.status).toBe(200);
    return response.body as { count: number; next: string | null; previous: string | null; results: Array<{ id: string }> };
  }

  describe.each([
    ['without text', ''],
    ['with text', '&query=sensor'],
  ])('%s', (_label, text) => {
    it.each(matrix)('%s', async (_title, viewerName, view, expected) => {
      const all = await list(viewerName, `view=${view}&page_size=100${text}`);
      expect(all.results.map((card) => card.id).sort()).toEqual([...expected].sort());
      expect(all.count).toBe(expected.length);
      // One card a page: the count still covers only what the viewer may see, and the links stop at the end.
      const first = await list(viewerName, `view=${view}&page_size=1${text}`);
      expect(first.count).toBe(expected.length);
      expect(first.next !== null).toBe(expected.length > 1);
      if (expected.length > 1) {
        const last = await list(viewerName, `view=${view}&page_size=1&page=${expected.length}${text}`);
        expect(last.next).toBeNull();
        expect(expected).toContain(last.results[0].id);
      }
    });
  });

  it.each([
    ['without text', ''],
    ['with text', '&query=sensor'],
  ])('pages by the search-after cursors of the next links, as by page numbers (%s)', async (_label, text) => {
    const everything = (await list('ada', `page_size=100${text}`)).results.map((card) => card.id);
    const followed: string[] = [];
    let next: string | null = `page_size=2${text}`;
    for (let page = 1; next; page++) {
      const params: string = next.includes('?') ? next.slice(next.indexOf('?') + 1) : next;
      if (page > 1) {
        expect(params).toMatch(new RegExp(`(^|&)page=${page}(&|$)`));
        expect(params).toMatch(/(^|&)cursor=[\w-]+(&|$)/);
        // The page number alone gives the same page.
        const byNumber = await list('ada', params.replace(/&?cursor=[\w-]+/, ''));
        const byCursor = await list('ada', params);
        expect(byCursor.results).toEqual(byNumber.results);
      }
      const body = await list('ada', params);
      followed.push(...body.results.map((card) => card.id));
      next = body.next;
    }
    expect(followed).toEqual(everything);
  });

  it('refuses a cursor it did not write with 400 naming the parameter', async () => {
    for (const cursor of ['nonsense', '%00', Buffer.from('[1,"yesterday","x"]').toString('base64url')]) {
      const response = await search.http().get(`/api/recordsannon/?page=2&cursor=${cursor}`);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['cursor']);
    }
  });

  it('asks for a token on /api/records/ and answers a bad token with 401', async () => {
    expect((await search.http().get('/api/records/')).status).toBe(401);
    expect((await search.http().get('/api/records/').set({ Authorization: 'JWT not-a-token' })).status).toBe(401);
  });

  it('says nothing about a hidden record to a search for its exact name, or through a page past the end', async () => {
    for (const viewerName of ['anonymous', 'dave', 'carol'] as const) {
      // Similar names the viewer may see can follow (typo tolerance), never the hidden record.
      const found = await list(viewerName, 'query=Record%20a-pr&page_size=100');
      expect(found.results.map((card) => card.id)).not.toContain('a-pr');
      expect(found.count).toBe(found.results.length);
      expect(await list(viewerName, 'query=a-pr')).toMatchObject({ count: 0, results: [] });
    }
    expect((await list('amy', 'query=Record%20a-pr')).results[0].id).toBe('a-pr');
    const beyond = await search.http().get('/api/recordsannon/?page=2&page_size=20');
    expect(beyond.status).toBe(404);
    expect(beyond.body).toEqual({ detail: 'Invalid page.' });
  });

  it('finds similar datasets only from a reference the viewer may see, and only among what they may see', async () => {
    expect(await list('dave', 'refid=a-pr')).toMatchObject({ count: 0, results: [] });
    expect(await list('anonymous', 'refid=a-cu-user')).toMatchObject({ count: 0, results: [] });
    const forBob = await list('bob', 'refid=a-cu-user&page_size=100');
    expect(forBob.results.map((card) => card.id).sort()).toEqual(['a-ev', 'b-cu-ada', 'b-ev', 'b-pr']);
    expect(forBob.count).toBe(4);
  });

  it('answers the card fields and what the viewer may do with each record', async () => {
    const own = (await list('ada', 'view=own&query=a-ev')).results[0];
    expect(own).toMatchObject({
      id: 'a-ev',
      name: 'Record a-ev',
      user: 'ada',
      visibility: 'EV',
      headers: ['station', 'value'],
      enc_headers: ['station'],
      is_owner: true,
      edit: true,
      can_delete: true,
    });
    const other = (await list('dave', 'query=a-ev')).results[0];
    expect(other).toMatchObject({ id: 'a-ev', is_owner: false, edit: false, can_delete: false });
    // Whether two records can be linked is decided from the list: the hashed headers are on every card.
    expect((await list('ada', 'view=own&query=a-pr')).results.find((card) => card.id === 'a-pr')).toMatchObject({ enc_headers: [] });
  });

  it("shows each card its viewer's request status from the requests service's events: newest not closed, expired approvals as expired", async () => {
    const request = (
      requestId: string,
      recordId: string,
      requestor: Viewer,
      status: RequestSnapshot['status'],
      version: number,
      extra: Partial<RequestSnapshot> = {},
    ) =>
      createEvent(RequestUpdated, requestId, {
        requestId,
        recordId,
        requestorId: requestor.id,
        requestorOrganisationId: requestor.organisationId,
        ownerId: ada.id,
        organisationId: ada.organisationId,
        status,
        expiresAt: null,
        createdAt: '2026-02-01T00:00:00.000Z',
        changedAt: '2026-02-01T00:00:00.000Z',
        version,
        ...extra,
      });
    await search.apply([
      request('q1', 'a-ev', bob, 'sent', 2),
      request('q2', 'a-cu-user', bob, 'approved', 5, { expiresAt: '2001-01-01T00:00:00.000Z' }),
      request('q3', 'b-ev', carol, 'closed', 3),
      request('q4', 'a-ev', carol, 'approved', 4),
    ]);
    const statuses = async (viewer: Viewer) =>
      Object.fromEntries(
        (
          await search
            .http()
            .get('/api/records/')
            .set(await search.auth(viewer))
        ).body.results.map((c: { id: string; request_status: string | null }) => [c.id, c.request_status]),
      );
    expect(await statuses(bob)).toMatchObject({ 'a-ev': 'sent', 'a-cu-user': 'expired', 'b-ev': null });
    expect(await statuses(carol)).toMatchObject({ 'a-ev': 'approved', 'b-ev': null });
    expect(await statuses(ada)).toMatchObject({ 'a-ev': null });

    // A status this process applies shows at once, though the viewer's requests are remembered.
    const memory = search.app.get(RequestStatuses) as PostgresRequestStatuses;
    const start = Date.now();
    memory.now = () => start;
    try {
      expect(await statuses(bob)).toMatchObject({ 'a-ev': 'sent' });
      await search.apply([request('q1', 'a-ev', bob, 'approved', 3)]);
      expect(await statuses(bob)).toMatchObject({ 'a-ev': 'approved', 'a-cu-user': 'expired' });
      // One another search process applied (a replica in distributed mode; straight into the shared
      // table here) shows once the memory's lifetime has passed, not before.
      const other = new Client({ connectionString: db.url });
      await other.connect();
      try {
        await other.query(
          `INSERT INTO search.request_statuses (request_id, record_id, requestor_id, status, expires_at, created_at, version) VALUES ('q5', 'a-cu-user', $1, 'sent', NULL, now(), 1)`,
          [bob.id],
        );
      } finally {
        await other.end();
      }
      expect(await statuses(bob)).toMatchObject({ 'a-ev': 'approved', 'a-cu-user': 'expired' });
      memory.now = () => start + REQUEST_STATUSES_TTL_MS + 1;
      expect(await statuses(bob)).toMatchObject({ 'a-ev': 'approved', 'a-cu-user': 'sent' });
    } finally {
      memory.now = Date.now;
    }
  });

  it("reads each page's statuses from PostgreSQL for a viewer with too many open requests to remember", async () => {
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      // Dave's open requests: more than are remembered, the one on a card he sees after the others
      // in the order they are read (by record id), so a list cut at the limit would lack it.
      await other.query(
        `INSERT INTO search.request_statuses (request_id, record_id, requestor_id, status, expires_at, created_at, version)
         SELECT 'many-' || n, 'a-elsewhere-' || n, $1, 'sent', NULL::timestamptz, now(), 1 FROM generate_series(1, $2::int) AS n
         UNION ALL SELECT 'dave-b-ev', 'b-ev', $1, 'approved', NULL, now(), 1`,
        [dave.id, MAX_REMEMBERED_REQUESTS + 5],
      );
    } finally {
      await other.end();
    }
    (search.app.get(RequestStatuses) as PostgresRequestStatuses).forget();
    const cards = (
      await search
        .http()
        .get('/api/records/')
        .set(await search.auth(dave))
    ).body.results as Array<{ id: string; request_status: string | null }>;
    expect(Object.fromEntries(cards.map((card) => [card.id, card.request_status]))).toEqual({ 'a-ev': null, 'b-ev': 'approved' });
  });

  it('answers a huge page as any page past the end (404 Invalid page.) and caps a huge page_size, never a 500', async () => {
    for (const page of ['99999999999999999999999', '9'.repeat(400), '1000001']) {
      for (const path of [`/api/recordsannon/?page=${page}`, `/api/records/?page=${page}&page_size=100`]) {
        const response = await search
          .http()
          .get(path)
          .set(path.startsWith('/api/records/') ? await search.auth(ada) : {});
        expect([path, response.status, response.body]).toEqual([path, 404, { detail: 'Invalid page.' }]);
      }
    }
    const capped = await search.http().get('/api/recordsannon/?page_size=99999999999999999999999');
    expect([capped.status, capped.body.results.length]).toEqual([200, 2]);
  });

  // Last: it adds records in projects, which the counts above do not expect.
  it('lists a project only to its organisation: anonymous callers and other organisations get the empty list, never a listing', async () => {
    const inProject = (recordId: string, owner: Viewer, visibility: RecordSnapshot['visibility'], groupIds: string[], shared: { users?: string[] } = {}) => ({
      ...record(recordId, owner, visibility, shared),
      groupIds,
      projects: groupIds.map((id) => ({ id, organisationId: id === 'project-a' ? ada.organisationId : bob.organisationId })),
    });
    await search.indexRecords([
      inProject('p-ev', ada, 'EV', ['project-a']),
      inProject('p-pr', amy, 'PR', ['project-a']),
      inProject('p-cu-bob', ada, 'CU', ['project-a'], { users: [bob.id] }),
      // Bob's organisation has a project of its own holding one of its records...
      inProject('q-ev', bob, 'EV', ['project-b']),
      // ... and Ada's organisation filed one of Bob's visible records into its project.
      inProject('q-ev-filed', bob, 'EV', ['project-a']),
    ]);
    const EMPTY = { count: 0, next: null, previous: null, results: [] };
    const ids = (body: { results: Array<{ id: string }> }) => body.results.map((card) => card.id).sort();
    for (const params of ['group=project-a', 'group=project-a&query=sensor', 'group=project-a&refid=a-ev', 'group=project-a&view=own', 'group=project-b']) {
      expect([params, await list('anonymous', params)]).toEqual([params, EMPTY]);
      for (const viewerName of ['bob', 'dave'] as const) {
        if (params !== 'group=project-b') expect([viewerName, params, await list(viewerName, params)]).toEqual([viewerName, params, EMPTY]);
      }
    }
    // A page past the end of a filter that matches nothing, as for any other filter.
    expect((await search.http().get('/api/recordsannon/?group=project-a&page=2')).status).toBe(404);
    // The organisation's members still filter by their project (what each may see of it).
    expect(ids(await list('ada', 'group=project-a'))).toEqual(['p-cu-bob', 'p-ev', 'p-pr', 'q-ev-filed']);
    expect(ids(await list('amy', 'group=project-a&query=sensor'))).toEqual(['p-cu-bob', 'p-ev', 'p-pr', 'q-ev-filed']);
    expect(ids(await list('ada', 'group=project-a&view=own'))).toEqual(['p-cu-bob', 'p-ev']);
    expect(ids(await list('bob', 'group=project-b'))).toEqual(['q-ev']);
    expect(await list('ada', 'group=project-b')).toEqual(EMPTY);
  });

  it('refuses text PostgreSQL cannot search for (NUL, a lone surrogate) with 400 naming the parameter, never 500', async () => {
    for (const path of ['/api/recordsannon/?query=%00', '/api/recordsannon/?refid=a%00']) {
      const response = await search.http().get(path);
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 400,
        body: { [path.includes('refid') ? 'refid' : 'query']: ['Null characters are not allowed.'] },
      });
    }
  });
});
