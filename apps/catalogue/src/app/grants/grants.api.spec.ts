import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { RequestSnapshot } from '@dc/contracts';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { Caller, caller, CatalogueTestApp, DATASETS } from '../../testing/catalogue-test-app';
import { RecordRequests } from '../record-model/record-requests';
import { GrantsRepository } from './grants.repository';

const CO2 = path.join(DATASETS, 'csv/co2-annmean-gl.csv');
const orgA = randomUUID();
const orgB = randomUUID();
const owner = caller('gr-owner', orgA, [1, 2, 3]);
const dataAdmin = caller('gr-admin', orgA, [2]);
const requestor = caller('gr-requestor', orgB, [3]);
const colleague = caller('gr-colleague', orgB, [3]);

describeInfra('catalogue grants: request events decide request_status and download (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  let recordId: string;
  const headers = new Map<Caller, { Authorization: string }>();
  const as = (who: Caller) => headers.get(who)!;
  const http = () => catalogue.http();
  const details = async (who: Caller, id = recordId) => (await http().get(`/api/records/${id}/`).set(as(who))).body;
  const link = (who: Caller, id = recordId) => http().get(`/api/records/${id}/download/`).set(as(who));
  const snapshot = (requestId: string, status: RequestSnapshot['status'], version: number, extra: Partial<RequestSnapshot> = {}): RequestSnapshot => ({
    requestId,
    recordId,
    requestorId: requestor.id,
    requestorOrganisationId: orgB,
    ownerId: owner.id,
    organisationId: orgA,
    status,
    expiresAt: null,
    createdAt: '2030-01-01T00:00:00.000Z',
    changedAt: new Date().toISOString(),
    version,
    ...extra,
  });
  /** Follows a link as a browser does: the token is the only credential. */
  const follow = (url: string) => {
    const { pathname, search } = new URL(url);
    return http().get(`${pathname}${search}`);
  };
  const grantEvents = async (requestId: string) => (await catalogue.events(requestId)).filter((e) => e.type === 'file.download-granted');

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_grants');
    catalogue = await CatalogueTestApp.start(db.url);
    for (const who of [owner, dataAdmin, requestor, colleague]) headers.set(who, await catalogue.auth(who));
    await catalogue.feedDirectory([owner, dataAdmin, requestor, colleague], { [orgA]: 'Acme', [orgB]: 'Blue' });
    const { body } = await http().post('/api/records/').set(as(owner)).attach('file', CO2);
    recordId = body.id;
    await http().put(`/api/records/${recordId}/`).set(as(owner)).send({ visibility: 'EV', access: 'RE' }).expect(200);
  });
  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  it('follows one request from new to approved: status on the record, download only once approved, each download under the grant published', async () => {
    const requestId = randomUUID();
    expect(await details(requestor)).toMatchObject({ request_status: null, download_url: null });
    await catalogue.applyRequests(snapshot(requestId, 'new', 1));
    expect((await details(requestor)).request_status).toBe('new');
    await catalogue.applyRequests(snapshot(requestId, 'sent', 2));
    expect(await details(requestor)).toMatchObject({ request_status: 'sent', download_url: null });
    expect((await link(requestor)).status).toBe(403);

    await catalogue.applyRequests(snapshot(requestId, 'approved', 4, { expiresAt: new Date(Date.now() + 86_400_000).toISOString() }));
    expect(await details(requestor)).toMatchObject({ request_status: 'approved', download_url: `/api/records/${recordId}/download/` });
    const granted = await link(requestor);
    expect(granted.status).toBe(200);
    // A link made is not yet a download; the download is, when the link is followed.
    expect(await grantEvents(requestId)).toHaveLength(0);
    expect((await follow(granted.body.url)).status).toBe(200);
    const [event] = await grantEvents(requestId);
    expect(event.payload).toMatchObject({ recordId, userId: requestor.id, requestId, fileName: 'co2-annmean-gl.csv' });

    // Nobody else gains anything: the requestor's colleague, and the owner side downloads outside any grant.
    expect(await details(colleague)).toMatchObject({ request_status: null, download_url: null });
    expect((await link(colleague)).status).toBe(403);
    const admins = await link(dataAdmin);
    expect((await follow(admins.body.url)).status).toBe(200);
    expect(await grantEvents(requestId)).toHaveLength(1);

    // The port's question at download time says the same.
    const port = catalogue.app.get(RecordRequests);
    expect(await port.hasValidGrant(recordId, requestor.id)).toBe(true);
    expect(await port.hasValidGrant(recordId, colleague.id)).toBe(false);
    expect(await port.hasValidGrant(recordId, requestor.id, new Date(Date.now() + 2 * 86_400_000))).toBe(false);

    // A late, older event changes nothing.
    const grants = catalogue.app.get(GrantsRepository);
    await grants.apply(snapshot(requestId, 'review', 3));
    expect((await details(requestor)).request_status).toBe('approved');
  });

  it('an expired, revoked or closed approval stops the download; a new request after closing starts again', async () => {
    const [{ request_id: requestId }] = await catalogue.sql<{ request_id: string }>('SELECT request_id FROM catalogue.request_grants WHERE requestor_id = $1', [
      requestor.id,
    ]);
    await catalogue.applyRequests(snapshot(requestId, 'approved', 5, { expiresAt: new Date(Date.now() - 1000).toISOString() }));
    expect(await details(requestor)).toMatchObject({ request_status: 'expired', download_url: null });
    expect((await link(requestor)).status).toBe(403);
    await catalogue.applyRequests(snapshot(requestId, 'approved', 6));
    expect((await link(requestor)).status).toBe(200);
    await catalogue.applyRequests(snapshot(requestId, 'revoked', 7));
    expect(await details(requestor)).toMatchObject({ request_status: 'revoked', download_url: null });
    expect((await link(requestor)).status).toBe(403);
    await catalogue.applyRequests(snapshot(requestId, 'closed', 8));
    expect((await details(requestor)).request_status).toBeNull();
    const again = randomUUID();
    await catalogue.applyRequests(snapshot(again, 'new', 1, { createdAt: new Date().toISOString() }));
    expect((await details(requestor)).request_status).toBe('new');
  });

  it('an approval never reveals a record the requestor may not see', async () => {
    const { body } = await http().post('/api/records/').set(as(owner)).attach('file', CO2).field('allowDuplicate', 'true');
    await catalogue.applyRequests({ ...snapshot(randomUUID(), 'approved', 1), recordId: body.id });
    expect((await http().get(`/api/records/${body.id}`).set(as(requestor))).status).toBe(404);
    expect((await link(requestor, body.id)).status).toBe(404);
  });
});
