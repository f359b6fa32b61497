import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { CatalogueModule } from '@dc/service-catalogue';
import { JobsModule } from '@dc/service-jobs';
import { RelationsModule } from '@dc/service-relations';
import { RequestsModule } from '@dc/service-requests';
import { SearchModule } from '@dc/service-search';
import {
  createTestDatabase,
  csvRows,
  DATASETS,
  describeInfra,
  directoryEvents,
  DocumentedAnswers,
  eventually,
  ServiceTestApp,
  testCaller as actor,
  type TestCaller as Actor,
  type TestDatabase,
  withBytesBody,
} from '@dc/testing';

const orgA = randomUUID();
const orgB = randomUUID();
/** A owns the source; B makes derivatives of it; the others must never see them. */
const alice = actor('ln-alice', orgA, [1, 2, 3]);
const aliceAdmin = actor('ln-alice-admin', orgA, [2]);
const bruno = actor('ln-bruno', orgB, [1, 2, 3]);
const brunoAdmin = actor('ln-bruno-admin', orgB, [2]);
const brunoColleague = actor('ln-bruno-colleague', orgB, [3]);
const basic = actor('ln-basic', orgB, [3], 'BASIC');
const people = [alice, aliceAdmin, bruno, brunoAdmin, brunoColleague, basic];
type Who = Actor | 'anonymous';

const GL = path.join(DATASETS, 'csv/co2-annmean-gl.csv');
const MLO = path.join(DATASETS, 'csv/co2-annmean-mlo.csv');
const SOURCE = 'Global CO2';
const grantEnded = `This record was made from "${SOURCE}", whose access grant has ended; its data can no longer be downloaded.`;
const revokedUse = `This record was made from "${SOURCE}", whose owner revoked its use in this record; its data can no longer be downloaded.`;
const refusedWidening = `This record was made from "${SOURCE}" (shared with you through your approved request): data shared with you alone stays yours alone, so its visibility and access cannot be widened.`;

/**
 * Lineage (issue 21, findings 2 and 3) through the services embedded mode composes: A's record is
 * shared with B through an approved request, B merges it (relations decides the terms, a jobs worker
 * merges, the catalogue makes the record and its links), and then: the derivative is B's alone
 * (BASIC accounts included) and cannot be widened; revoking or expiring the grant, or A revoking the
 * derivative, stops its download (signed links made before included) and says why; a derivative of
 * a derivative keeps the original terms; a merge of B's own data stays an ordinary record.
 */
describeInfra("lineage: derived data keeps its sources' terms (catalogue, requests, search, relations, jobs; real PostgreSQL)", true, () => {
  jest.setTimeout(180_000);
  let db: TestDatabase;
  let service: ServiceTestApp;
  const documented = new DocumentedAnswers();
  const call = (who: Who, method: 'get' | 'put' | 'post', url: string, body?: object) => {
    const req = service.request(method, url, who === 'anonymous' ? null : who);
    return body ? req.send(body) : req;
  };
  /** Calls whose answers are also checked against docs/openapi.json (asserted last). */
  const checked = (who: Who, method: 'get' | 'post', url: string, body?: object) => documented.checking(method, url, call(who, method, url, body));
  const details = async (who: Who, id: string) => (await checked(who, 'get', `/api/records/${id}/`)).body;
  const link = (who: Who, id: string) => call(who, 'get', `/api/records/${id}/download/`);
  /** Follows a signed link as a browser does: the token is its only credential. */
  const follow = (url: string) => {
    const { pathname, search } = new URL(url, 'http://x');
    return withBytesBody(call('anonymous', 'get', `${pathname}${search}`));
  };
  const upload = async (who: Actor, file: string, name: string) => {
    const created = await call(who, 'post', '/api/records/').attach('file', file).field('name', name).field('allowDuplicate', 'true');
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  /** The requestor asks, the owner opens and approves: the request's id. */
  const approve = async (requestor: Actor, recordId: string, expiresAt?: string) => {
    const requestId = await eventually(async () => {
      const opened = await call(requestor, 'post', '/api/requests/', { record: recordId, status: 'new' });
      expect([opened.status, opened.body.status]).toEqual([201, 'new']);
      return opened.body.id as string;
    });
    await call(requestor, 'put', `/api/requests/${requestId}/`, { status: 'sent', purpose: 'Climate study' }).expect(200);
    await call(alice, 'put', `/api/requests/${requestId}/`, { status: 'review' }).expect(200);
    await call(alice, 'put', `/api/requests/${requestId}/`, { status: 'approved', ...(expiresAt && { expires_at: expiresAt }) }).expect(200);
    // The catalogue decides downloads from its projection of the request's events.
    await eventually(async () => expect((await call(requestor, 'get', `/api/records/${recordId}/`)).body.request_status).toBe('approved'));
    return requestId;
  };
  /** Merges two records on Year as `who` (once relations holds the grant and both sketches), waits for the job: the result record. */
  const merge = async (who: Actor, left: string, right: string) => {
    const started = await eventually(async () => {
      const answer = await call(who, 'post', '/api/relations/merge-features/', {
        merge_relations: [{ record_left: left, record_right: right, header_left: 'Year', header_right: 'Year' }],
        merge_type: 'horizontal',
      });
      expect(answer.body.newmerges).toHaveLength(1);
      return answer.body.newmerges[0].job_id as string;
    }, 60_000);
    const job = await eventually(async () => {
      const content = (await call(who, 'post', '/api/tasks/job-content/', { job: started })).body;
      expect(content).toMatchObject({ is_active: false, failed: false });
      return content;
    }, 60_000);
    // The job is done when the worker has stored the rows; the catalogue makes the record from
    // merge.completed a moment later: wait until its maker sees it.
    const id = job.content.result_record_id as string;
    await eventually(async () => expect((await call(who, 'get', `/api/records/${id}/`)).status).toBe(200), 60_000);
    return id;
  };
  const downloaded = async (who: Actor, id: string) => {
    const signed = await link(who, id);
    expect(signed.status).toBe(200);
    const file = await follow(signed.body.url);
    expect(file.status).toBe(200);
    return { url: signed.body.url as string, rows: csvRows((file.body as Buffer).toString('utf8')) };
  };
  /** The ids a list answers (search), first page of 100. */
  const listed = async (who: Who, query = '') => {
    const url = who === 'anonymous' ? `/api/recordsannon/?page_size=100${query}` : `/api/records/?page_size=100${query}`;
    return ((await call(who, 'get', url)).body.results as Array<{ id: string }>).map((r) => r.id);
  };
  const expectHidden = async (id: string, from: Who[]) => {
    for (const who of from) {
      expect([who === 'anonymous' ? who : who.username, (await call(who, 'get', `/api/records/${id}/`)).status, (await link(who, id)).status]).toEqual([
        who === 'anonymous' ? who : who.username,
        404,
        404,
      ]);
    }
  };

  let source: string;
  let mauna: string;
  let grantOne: string;
  let derived: string;
  let derivedOfDerived: string;
  let signedBefore: string[];

  beforeAll(async () => {
    db = await createTestDatabase('dc_lineage');
    service = await ServiceTestApp.start({
      service: 'lineage-test',
      name: 'lineage',
      modules: [CatalogueModule, RequestsModule, SearchModule, RelationsModule, JobsModule],
      databaseUrl: db.url,
    });
    await service.publish(...directoryEvents(people, { [orgA]: 'Acme Climate', [orgB]: 'Blue Marine' }, { updated: true }));
    source = await upload(alice, GL, SOURCE);
    await call(alice, 'put', `/api/records/${source}/`, { visibility: 'EV', access: 'RE' }).expect(200);
    mauna = await upload(bruno, MLO, 'Mauna Loa CO2');
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  });

  it("(e) a merge of the maker's own records stays an ordinary record they can publish", async () => {
    const ownGlobal = await upload(bruno, GL, 'Bruno global CO2');
    const own = await merge(bruno, ownGlobal, mauna);
    const record = await details(bruno, own);
    expect(record).toMatchObject({ is_owner: true, visibility: 'PR', download_url: `/api/records/${own}/download/`, derivatives: [] });
    expect(record.lineage).toMatchObject({ restricted: false, download_blocked: null });
    expect(record.lineage.sources.map((s: { id: string; terms: string }) => [s.id, s.terms])).toEqual([
      [ownGlobal, 'own'],
      [mauna, 'own'],
    ]);
    expect(record.visibility_options.map(([, code]: string[]) => code)).toEqual(['PR', 'EV', 'CU']);
    await call(bruno, 'put', `/api/records/${own}/`, { visibility: 'EV', access: 'OP' }).expect(200);
    await eventually(async () => expect(await listed('anonymous')).toContain(own));
    expect((await follow((await link('anonymous', own)).body.url)).status).toBe(200);
    // Its sources' owner side sees it among their derivatives.
    expect((await details(bruno, mauna)).derivatives).toEqual([
      expect.objectContaining({ id: own, user: bruno.username, terms: 'own', revoked: false, date_revoked: null }),
    ]);
  });

  it("(b, d) a merge under a grant is its maker's alone and cannot be widened; a derivative of it keeps the grant's terms", async () => {
    grantOne = await approve(bruno, source);
    derived = await merge(bruno, source, mauna);
    // relations decided the terms when the merge was asked for; the merge worker passed them on to the catalogue.
    const payloadOf = async (query: string, id: string) =>
      (await service.sql<{ payload: { left: unknown; right: unknown; sources: unknown } }>(query, [id]))[0]?.payload;
    const asked = await payloadOf(
      "SELECT payload FROM relations.outbox_events WHERE type = 'job.requested' AND payload->'left'->>'recordId' = $1 ORDER BY seq DESC LIMIT 1",
      source,
    );
    expect([asked.left, asked.right]).toEqual([
      expect.objectContaining({ terms: 'grant', requestId: grantOne }),
      expect.objectContaining({ terms: 'own', requestId: null }),
    ]);
    const completed = await payloadOf("SELECT payload FROM jobs.outbox_events WHERE type = 'merge.completed' AND payload->>'recordId' = $1", derived);
    expect(completed.sources).toEqual([
      { recordId: source, name: SOURCE, terms: 'grant', requestId: grantOne, grantExpiresAt: null },
      { recordId: mauna, name: 'Mauna Loa CO2', terms: 'own', requestId: null, grantExpiresAt: null },
    ]);
    const record = await details(bruno, derived);
    expect(record).toMatchObject({
      is_owner: true,
      visibility: 'PR',
      visibility_options: [['Only me', 'PR']],
      download_url: `/api/records/${derived}/download/`,
      derivatives: [],
    });
    expect(record.lineage).toEqual({
      restricted: true,
      download_blocked: null,
      sources: [
        { id: source, name: SOURCE, terms: 'grant', via: null, revoked: false, holds: true, reason: null },
        { id: mauna, name: 'Mauna Loa CO2', terms: 'own', via: null, revoked: false, holds: true, reason: null },
      ],
    });
    // While the grant holds, B downloads it: A's columns are in it.
    expect((await downloaded(bruno, derived)).rows[0]).toEqual(['Year', 'Mean', 'Uncertainty', 'Mean (Mauna Loa CO2)', 'Uncertainty (Mauna Loa CO2)']);

    // Nothing widens it: PUT and the visibility calls answer 400 naming the source and why.
    const put = (body: object) => call(bruno, 'put', `/api/records/${derived}/`, body);
    expect([(await put({ visibility: 'EV' })).status, (await put({ visibility: 'EV' })).body]).toEqual([400, { visibility: [refusedWidening] }]);
    expect((await put({ visibility: 'CU' })).body).toEqual({ visibility: [refusedWidening] });
    expect((await put({ access: 'OP' })).body).toEqual({ access: [refusedWidening] });
    expect((await put({ visibility: 'EV', access: 'OP' })).body).toEqual({ visibility: [refusedWidening], access: [refusedWidening] });
    const visibilityId = record.visibilitymodel_set[0].id as string;
    const widen = await call(bruno, 'post', '/api/visibilities/', { associated_record: derived, visibility_selection: 'EV' });
    expect([widen.status, widen.body]).toEqual([400, { visibility_selection: [refusedWidening] }]);
    expect(
      (await call(bruno, 'put', `/api/visibilities/${visibilityId}/`, { visibility_selection: 'CU', users_with_visibility: [brunoColleague.id] })).status,
    ).toBe(400);
    // Renaming it, or keeping it private, is fine.
    expect((await put({ name: 'My CO2 merge', visibility: 'PR', access: 'RE' })).status).toBe(200);
    expect((await call(bruno, 'put', `/api/visibilities/${visibilityId}/`, { visibility_selection: 'PR' })).status).toBe(200);

    // Nobody else sees it: not B's Data Admin or colleague, not A's side, not anonymous visitors; nor may they request it.
    await expectHidden(derived, ['anonymous', brunoAdmin, brunoColleague, alice, aliceAdmin]);
    expect((await call(brunoColleague, 'post', '/api/requests/', { record: derived, status: 'new' })).status).toBe(400);
    expect((await call(brunoAdmin, 'get', `/api/visibilities/?associated_record=${derived}`)).body.count).toBe(0);
    await eventually(async () => expect(await listed(bruno, '&view=own')).toContain(derived));
    for (const who of ['anonymous', brunoAdmin, brunoColleague, alice] as Who[]) expect(await listed(who, '&query=CO2')).not.toContain(derived);

    // B merges the derivative again: the new record links to A's record through it, under the same grant.
    derivedOfDerived = await merge(bruno, derived, mauna);
    const deeper = await details(bruno, derivedOfDerived);
    expect(deeper.lineage.restricted).toBe(true);
    expect(deeper.lineage.sources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: source, terms: 'grant', via: derived, holds: true }),
        expect.objectContaining({ id: derived, terms: 'own', via: null }),
      ]),
    );
    expect((await call(bruno, 'put', `/api/records/${derivedOfDerived}/`, { visibility: 'EV' })).status).toBe(400);
    await expectHidden(derivedOfDerived, ['anonymous', brunoAdmin, alice]);

    // A's side sees both among the derivatives of A's record; B (who may see A's record) and anonymous visitors see none.
    for (const who of [alice, aliceAdmin]) {
      expect((await details(who, source)).derivatives).toEqual([
        {
          id: derivedOfDerived,
          name: expect.any(String),
          user: bruno.username,
          date_created: expect.any(String),
          terms: 'grant',
          revoked: false,
          date_revoked: null,
        },
        { id: derived, name: 'My CO2 merge', user: bruno.username, date_created: expect.any(String), terms: 'grant', revoked: false, date_revoked: null },
      ]);
    }
    expect((await details(bruno, source)).derivatives).toEqual([]);
    expect((await details('anonymous', source)).derivatives).toEqual([]);
  });

  it('(a) A revokes the approval: both derivatives stop downloading, signed links made before too, and say why', async () => {
    signedBefore = [(await link(bruno, derived)).body.url, (await link(bruno, derivedOfDerived)).body.url];
    await call(alice, 'put', `/api/requests/${grantOne}/`, { status: 'revoked', reason: 'The licence ended.' }).expect(200);
    await eventually(async () => expect((await details(bruno, source)).request_status).toBe('revoked'));
    for (const id of [derived, derivedOfDerived]) {
      const refused = await link(bruno, id);
      expect([refused.status, refused.body]).toEqual([403, { detail: grantEnded }]);
      const record = await details(bruno, id);
      expect(record).toMatchObject({ download_url: null, lineage: { restricted: true, download_blocked: grantEnded } });
      expect(record.lineage.sources.find((s: { id: string }) => s.id === source)).toMatchObject({ holds: false, revoked: false, reason: grantEnded });
    }
    for (const url of signedBefore) {
      const followed = await follow(url);
      expect([followed.status, JSON.parse((followed.body as Buffer).toString('utf8'))]).toEqual([403, { detail: grantEnded }]);
    }
    // Still B's alone, still not to be widened.
    expect((await call(bruno, 'put', `/api/records/${derived}/`, { access: 'OP' })).status).toBe(400);
  });

  it("(c, expiry) A revokes one derivative from the Access tab's list; an expired grant stops the others made under it", async () => {
    await call(bruno, 'put', `/api/requests/${grantOne}/`, { status: 'closed' }).expect(200);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const grantTwo = await approve(bruno, source, tomorrow);
    const [kept, revoked] = [await merge(bruno, source, mauna), await merge(bruno, source, mauna)];
    await downloaded(bruno, kept);
    const revokedLink = (await downloaded(bruno, revoked)).url;
    // A new grant does not bring back what was made under the one revoked.
    expect((await link(bruno, derived)).body).toEqual({ detail: grantEnded });

    const revoke = (who: Who, derivedId: string, sourceId = source) => call(who, 'post', `/api/records/${sourceId}/derivatives/${derivedId}/revoke/`);
    const outcomes: Array<[string, number]> = [];
    for (const who of ['anonymous', bruno, brunoAdmin, brunoColleague] as Who[])
      outcomes.push([who === 'anonymous' ? who : who.username, (await revoke(who, revoked)).status]);
    expect(outcomes).toEqual([
      ['anonymous', 401],
      [bruno.username, 403],
      [brunoAdmin.username, 403],
      [brunoColleague.username, 403],
    ]);
    expect((await revoke(alice, randomUUID())).status).toBe(404);
    expect((await revoke(alice, revoked, mauna)).status).toBe(404);
    expect((await revoke(alice, 'not-an-id')).status).toBe(404);
    const done = await checked(alice, 'post', `/api/records/${source}/derivatives/${revoked}/revoke/`);
    expect([done.status, done.body]).toEqual([
      200,
      {
        detail: 'The derivative was revoked: its maker can no longer download its data.',
        derivative: expect.objectContaining({ id: revoked, revoked: true, date_revoked: expect.any(String) }),
      },
    ]);
    expect((await revoke(alice, revoked)).status).toBe(200);

    expect((await link(bruno, revoked)).body).toEqual({ detail: revokedUse });
    expect((await follow(revokedLink)).status).toBe(403);
    expect((await details(bruno, revoked)).lineage.sources.find((s: { id: string }) => s.id === source)).toMatchObject({
      revoked: true,
      holds: false,
      reason: revokedUse,
    });
    expect((await details(alice, source)).derivatives.find((d: { id: string }) => d.id === revoked)).toMatchObject({ revoked: true });
    // The other one still downloads, and relations hears of the revocation through the record's event.
    await downloaded(bruno, kept);
    const events = await service.outbox('catalogue', revoked);
    expect(events.filter((e) => e.type === 'record.updated').at(-1)).toMatchObject({
      payload: { ownerOnly: true, derivedFrom: [{ recordId: source, terms: 'grant', requestId: grantTwo, revoked: true }] },
    });

    // Time passes: the approval's end moves into the past.
    const keptLink = (await link(bruno, kept)).body.url;
    await service.sql("UPDATE catalogue.request_grants SET expires_at = now() - interval '1 minute' WHERE request_id = $1", [grantTwo]);
    expect((await details(bruno, source)).request_status).toBe('expired');
    expect((await link(bruno, kept)).body).toEqual({ detail: grantEnded });
    expect((await follow(keptLink)).status).toBe(403);
  });

  it("(b, BASIC) a BASIC account's merge under a grant is not forced to Everyone: private to its maker, never in /api/recordsannon/", async () => {
    const basicMauna = await upload(basic, MLO, 'Basic Mauna Loa');
    await approve(basic, source);
    const made = await merge(basic, source, basicMauna);
    const record = await details(basic, made);
    expect(record).toMatchObject({
      is_owner: true,
      visibility: 'PR',
      visibility_options: [['Only me', 'PR']],
      lineage: { restricted: true, download_blocked: null },
    });
    const widened = await call(basic, 'put', `/api/records/${made}/`, { visibility: 'EV' });
    expect([widened.status, widened.body]).toEqual([400, { visibility: [refusedWidening] }]);
    const visibilityId = record.visibilitymodel_set[0].id as string;
    expect((await call(basic, 'put', `/api/visibilities/${visibilityId}/`, { visibility_selection: 'EV' })).body).toEqual({
      visibility_selection: [refusedWidening],
    });
    await eventually(async () => expect(await listed(basic, '&view=own')).toContain(made));
    expect(await listed('anonymous')).not.toContain(made);
    expect(await listed('anonymous', '&query=Mauna')).not.toContain(made);
    await expectHidden(made, ['anonymous', bruno, brunoAdmin, alice]);
    // Its own uploads stay as the plan has them.
    expect((await details(basic, basicMauna)).visibility).toBe('EV');
  });

  it('answered every checked call as docs/openapi.json documents it', () => {
    expect(documented.mismatches).toEqual([]);
  });
});
