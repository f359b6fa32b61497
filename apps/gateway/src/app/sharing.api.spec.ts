import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { CatalogueModule } from '@dc/service-catalogue';
import { RequestsModule } from '@dc/service-requests';
import { SearchModule } from '@dc/service-search';
import {
  createTestDatabase,
  DATASETS,
  describeInfra,
  directoryEvents,
  eventually,
  ServiceTestApp,
  testCaller as actor,
  type TestCaller as Actor,
  TestDatabase,
  withBytesBody,
} from '@dc/testing';

const CO2 = path.join(DATASETS, 'csv/co2-annmean-gl.csv');

const orgA = randomUUID();
const orgB = randomUUID();
const orgC = randomUUID();
const owner = actor('sh-owner', orgA, [3]);
const dataAdmin = actor('sh-admin', orgA, [2]);
const dataViewer = actor('sh-viewer', orgA, [3]);
const basicSub = actor('sh-basic', orgA, [3], 'BASIC');
const requestor = actor('sh-requestor', orgB, [3]);
const colleague = actor('sh-colleague', orgB, [3]);
const stranger = actor('sh-stranger', orgC, [1, 2, 3]);
const people = [owner, dataAdmin, dataViewer, basicSub, requestor, colleague, stranger];
type Who = Actor | 'anonymous';

/**
 * The authorisation table of the sharing endpoints, with the catalogue, requests and search services
 * in one process as embedded mode runs them (their own schemas, events through the in-process bus):
 * anonymous, the requestor, a colleague of theirs, the owner, a Data Admin, a Data Viewer and a BASIC
 * sub-account of the owner's organisation, and an unrelated organisation; for read, update, approve,
 * deny, close, message and download. Those with no part get 404 (401 without a token), and nothing changes.
 */
describeInfra('sharing authorisation table (catalogue + requests + search, real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let service: ServiceTestApp;
  const call = (who: Who, method: 'get' | 'put' | 'post', url: string, body?: object) => {
    const req = service.request(method, url, who === 'anonymous' ? null : who);
    return body ? req.send(body) : req;
  };
  const name = (who: Who) => (who === 'anonymous' ? 'anonymous' : who.username);
  /** Every actor but `allowed` first (each must get its expected refusal), then the allowed one. */
  async function table(expectations: Array<[Who, number]>, run: (who: Who) => Promise<request.Response>) {
    const outcomes: Array<[string, number]> = [];
    for (const [who] of expectations) outcomes.push([name(who), (await run(who)).status]);
    expect(outcomes).toEqual(expectations.map(([who, status]) => [name(who), status]));
  }
  const NOBODY: Array<[Who, number]> = [
    ['anonymous', 401],
    [colleague, 404],
    [dataViewer, 404],
    [basicSub, 404],
    [stranger, 404],
  ];
  const status = async (id: string) => (await call(requestor, 'get', `/api/requests/${id}`)).body.status;

  let recordId: string;
  let deniedRecordId: string;
  let requestId: string;
  let deniedRequestId: string;
  /** A download link the requestor got while approved. */
  let oldLink: URL;

  beforeAll(async () => {
    db = await createTestDatabase('dc_sharing');
    service = await ServiceTestApp.start({
      service: 'sharing-test',
      name: 'sharing',
      modules: [CatalogueModule, RequestsModule, SearchModule],
      databaseUrl: db.url,
    });
    await service.publish(...directoryEvents(people, { [orgA]: 'Acme', [orgB]: 'Blue', [orgC]: 'Cyan' }, { updated: true }));
    const publish = async (recordName: string) => {
      const { body } = await call(owner, 'post', '/api/records/').attach('file', CO2).field('name', recordName).field('allowDuplicate', 'true');
      await call(owner, 'put', `/api/records/${body.id}/`, { visibility: 'EV', access: 'RE' }).expect(200);
      return body.id as string;
    };
    recordId = await publish('Shared rainfall');
    deniedRecordId = await publish('Denied rainfall');
    // The requests service learns of the records from the catalogue's events.
    const open = async (id: string) =>
      eventually(async () => {
        const response = await call(requestor, 'post', '/api/requests/', { record: id, status: 'new' });
        expect([response.status, response.body]).toEqual([201, expect.objectContaining({ status: 'new' })]);
        return response.body.id as string;
      });
    requestId = await open(recordId);
    deniedRequestId = await open(deniedRecordId);
    for (const id of [requestId, deniedRequestId]) await call(requestor, 'put', `/api/requests/${id}/`, { status: 'sent', purpose: 'Flood study' }).expect(200);
  });
  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  });

  it('read: the requestor and the owner side only', async () => {
    await table([...NOBODY, [requestor, 200], [owner, 200], [dataAdmin, 200]], (who) => call(who, 'get', `/api/requests/${requestId}/`));
  });

  it('update (the owner side opens it: review): refused to the requestor (403) and to those with no part (404)', async () => {
    await table([...NOBODY, [requestor, 403], [owner, 200]], (who) => call(who, 'put', `/api/requests/${requestId}/`, { status: 'review' }));
    await call(owner, 'put', `/api/requests/${deniedRequestId}/`, { status: 'review' }).expect(200);
    // Once sent, the requestor's own content is read-only too.
    expect((await call(requestor, 'put', `/api/requests/${requestId}/`, { status: 'closed', purpose: 'Another purpose' })).status).toBe(400);
  });

  it('message: both parties write; the others cannot, and learn nothing', async () => {
    const refused: Array<[Who, number]> = NOBODY.map(([who, code]) => [who, code === 404 ? 400 : code]);
    await table([...refused, [requestor, 201], [owner, 201], [dataAdmin, 201]], (who) =>
      call(who, 'post', '/api/request-messages/', { request: requestId, message: `Hello from ${name(who)}` }),
    );
    expect((await call(requestor, 'get', `/api/request-messages/?request=${requestId}`)).body.count).toBe(3);
  });

  it('deny: the owner side only', async () => {
    await table([...NOBODY, [requestor, 403], [owner, 200]], (who) => call(who, 'put', `/api/requests/${deniedRequestId}/`, { status: 'disapproved' }));
    expect(await status(deniedRequestId)).toBe('disapproved');
  });

  it('approve: the owner side only (here a Data Admin); then download: the approved requestor gains it, nobody else', async () => {
    const link = (who: Who) => call(who, 'get', `/api/records/${recordId}/download/`);
    const before: Array<[Who, number]> = [
      ['anonymous', 403],
      [requestor, 403],
      [colleague, 403],
      [dataViewer, 403],
      [basicSub, 403],
      [stranger, 403],
      [owner, 200],
      [dataAdmin, 200],
    ];
    await table(before, link);
    await table([...NOBODY, [requestor, 403], [dataAdmin, 200]], (who) => call(who, 'put', `/api/requests/${requestId}/`, { status: 'approved' }));
    await eventually(async () => expect((await link(requestor)).status).toBe(200));
    await table(
      before.map(([who, code]) => [who, who === requestor ? 200 : code]),
      link,
    );
    // The requestor's details and card say the same.
    const details = (await call(requestor, 'get', `/api/records/${recordId}/`)).body;
    expect(details).toMatchObject({ request_status: 'approved', download_url: `/api/records/${recordId}/download/` });
    await eventually(async () => {
      const cards = (await call(requestor, 'get', '/api/records/')).body.results;
      expect(cards.find((c: { id: string }) => c.id === recordId)).toMatchObject({ request_status: 'approved' });
      expect(cards.find((c: { id: string }) => c.id === deniedRecordId)).toMatchObject({ request_status: 'disapproved' });
    });
    const url = new URL((await link(requestor)).body.url, 'http://x');
    oldLink = url;
    const file = await withBytesBody(call('anonymous', 'get', `${url.pathname}${url.search}`));
    expect((file.body as Buffer).equals(readFileSync(CO2))).toBe(true);
    // The download under the grant (the link followed above; links made are not downloads) reaches the audit trail.
    await eventually(async () => {
      const trail = (await call(owner, 'get', `/api/requests/audit/?record=${recordId}`)).body.results.map((e: { action: string }) => e.action);
      expect(trail).toEqual(['created', 'sent', 'review', 'approved', 'download']);
    });
  });

  it('close: the requestor only; the download stops', async () => {
    await table([...NOBODY, [owner, 403], [dataAdmin, 403], [requestor, 200]], (who) => call(who, 'put', `/api/requests/${requestId}/`, { status: 'closed' }));
    await eventually(async () => expect((await call(requestor, 'get', `/api/records/${recordId}/download/`)).status).toBe(403));
    // A link made while approved stops working too.
    expect((await call('anonymous', 'get', `${oldLink.pathname}${oldLink.search}`)).status).toBe(403);
    expect((await call(requestor, 'get', `/api/records/${recordId}/`)).body).toMatchObject({ request_status: null, download_url: null });
  });
});
