import { randomUUID } from 'node:crypto';
import { createEvent, UserUpdated } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createTestDatabase, describeInfra, eventually, s3StorageEnv, startS3rver, TestDatabase, TestS3Server } from '@dc/testing';
import type { RequestSnapshot } from '@dc/contracts';
import { Caller, caller, CatalogueTestApp } from '../../testing/catalogue-test-app';

const orgA = randomUUID();
const orgB = randomUUID();
const owner = caller('owner', orgA, [1, 2, 3]);
const member = caller('member', orgA, [3]);
const outsider = caller('outsider', orgB, [3]);
const PUBLIC_URL = 'http://catalogue.example.test';
const CONTENT = Buffer.from('station,rain\nA,1\nB,2\n');

/**
 * A signed download link is a promise of the access its holder had when it was made, not beyond:
 * every download checks again, at that moment, that the record still exists, the file is still
 * its own, and visibility, access terms and the request grant (the RecordRequests port) still let
 * this holder download. With either storage driver the bytes come through the API, so a link can
 * be refused (an S3 presigned URL could not be).
 */
describe.each(['fs', 's3'] as const)('signed download links follow access as it is now (%s storage, real PostgreSQL)', (driver) => {
  describeInfra(`${driver}`, true, () => {
    let db: TestDatabase;
    let s3: TestS3Server | undefined;
    let catalogue: CatalogueTestApp;
    const headers = new Map<Caller, { Authorization: string }>();

    beforeAll(async () => {
      db = await createTestDatabase(`dc_catalogue_links_${driver}`);
      if (driver === 's3') s3 = await startS3rver();
      catalogue = await CatalogueTestApp.start(db.url, { env: { PUBLIC_URL, ...(s3 ? s3StorageEnv(s3) : {}) } });
      await catalogue.feedDirectory([owner, member, outsider], { [orgA]: 'Acme', [orgB]: 'Blue' });
      for (const who of [owner, member, outsider]) headers.set(who, await catalogue.auth(who));
    });
    afterAll(async () => {
      await catalogue?.close();
      await s3?.stop();
      await db?.drop();
    });

    const http = () => catalogue.http();
    const as = (who: Caller) => headers.get(who)!;
    /** A fresh record with one stored file, with these terms. */
    const recordWith = async (terms: { access: 'OP' | 'RE'; visibility: 'PR' | 'EV' }) => {
      const created = await http()
        .post('/api/records/')
        .set(as(owner))
        .field('access', terms.access)
        .field('allowDuplicate', 'true')
        .attach('file', CONTENT, 'rain.csv');
      expect(created.status).toBe(201);
      if (terms.visibility !== 'PR')
        expect((await http().put(`/api/records/${created.body.id}/`).set(as(owner)).send({ visibility: terms.visibility })).status).toBe(200);
      return created.body as { id: string; FILES: Array<{ id: string }> };
    };
    /** The link the record's download_url answers to this caller (anonymous with null). */
    const linkFor = async (recordId: string, who: Caller | null) => {
      const call = http().get(`/api/records/${recordId}/download/`);
      const response = who ? await call.set(as(who)) : await call;
      expect(response.status).toBe(200);
      return response.body.url as string;
    };
    /** Follows a link as a browser does: no Authorization header, the token is the only credential. */
    const follow = (url: string) => {
      expect(url.startsWith(`${PUBLIC_URL}/api/files/download?token=`)).toBe(true);
      const { pathname, search } = new URL(url);
      return http()
        .get(`${pathname}${search}`)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
    };
    const expectServed = async (url: string) => {
      const response = await follow(url);
      expect(response.status).toBe(200);
      expect(response.headers['content-disposition']).toContain('rain.csv');
      expect((response.body as Buffer).equals(CONTENT)).toBe(true);
    };
    const expectRefused = async (url: string, status: number) => {
      const response = await follow(url);
      expect({ status: response.status, json: JSON.parse((response.body as Buffer).toString('utf8')) }).toEqual({
        status,
        json: { detail: expect.any(String) },
      });
    };
    /** Identity tells the catalogue what changed about a (STANDARD, Member) caller's account. */
    const identityUpdates = (who: Caller, change: { organisationId: string; active: boolean; deleted?: boolean }) =>
      catalogue.app
        .get(EventBus)
        .publish([createEvent(UserUpdated, who.id, { userId: who.id, username: who.username, clientType: 'STANDARD', groups: [3], ...change })]);

    it('serves the file through the API while access holds', async () => {
      const record = await recordWith({ access: 'OP', visibility: 'EV' });
      await expectServed(await linkFor(record.id, null));
      await expectServed(await linkFor(record.id, owner));
    });

    it("visibility narrowed: an anonymous visitor's link of an EV record stops working when it becomes PR", async () => {
      const record = await recordWith({ access: 'OP', visibility: 'EV' });
      const url = await linkFor(record.id, null);
      const outsiders = await linkFor(record.id, outsider);
      expect((await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ visibility: 'PR' })).status).toBe(200);
      await expectRefused(url, 404);
      await expectRefused(outsiders, 404);
    });

    it("access narrowed: a member's link of an open record stops working when it needs a request", async () => {
      const record = await recordWith({ access: 'OP', visibility: 'PR' });
      const url = await linkFor(record.id, member);
      await expectServed(url);
      expect((await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ access: 'RE' })).status).toBe(200);
      await expectRefused(url, 403);
      // The owner's own link keeps working: nothing was withdrawn from them.
      await expectServed(await linkFor(record.id, owner));
    });

    it("record deleted: its links stop working, the owner's too", async () => {
      const record = await recordWith({ access: 'OP', visibility: 'EV' });
      const urls = [await linkFor(record.id, owner), await linkFor(record.id, null)];
      expect((await http().delete(`/api/records/${record.id}/`).set(as(owner))).status).toBe(204);
      for (const url of urls) await expectRefused(url, 404);
    });

    it("grant revoked or expired: an approved requestor's link stops working when the grant goes (the projection of request.* events)", async () => {
      const record = await recordWith({ access: 'RE', visibility: 'EV' });
      const request = (requestId: string, status: RequestSnapshot['status'], version: number, expiresAt: string | null = null): RequestSnapshot => ({
        requestId,
        recordId: record.id,
        requestorId: outsider.id,
        requestorOrganisationId: orgB,
        ownerId: owner.id,
        organisationId: orgA,
        status,
        expiresAt,
        createdAt: new Date().toISOString(),
        changedAt: new Date().toISOString(),
        version,
      });
      const first = randomUUID();
      await catalogue.applyRequests(request(first, 'approved', 4));
      const url = await linkFor(record.id, outsider);
      await expectServed(url);
      // Each download the grant alone allows reaches the requests service's audit trail.
      const granted = (await catalogue.events(first)).filter((e) => e.type === 'file.download-granted');
      expect(granted.map((e) => e.payload)).toEqual([
        expect.objectContaining({ recordId: record.id, userId: outsider.id, requestId: first, fileName: 'rain.csv' }),
      ]);
      await catalogue.applyRequests(request(first, 'revoked', 5));
      await expectRefused(url, 403);
      // A new approval makes the same link good again (the link itself was never the permission), until it expires.
      await catalogue.applyRequests(request(first, 'closed', 6));
      const second = randomUUID();
      await catalogue.applyRequests(request(second, 'approved', 4, new Date(Date.now() + 60_000).toISOString()));
      await expectServed(url);
      await catalogue.applyRequests(request(second, 'approved', 5, new Date(Date.now() - 1_000).toISOString()));
      await expectRefused(url, 403);
    });

    it("account moved to another organisation, or deleted: the holder's link stops working", async () => {
      const record = await recordWith({ access: 'OP', visibility: 'PR' });
      const url = await linkFor(record.id, member);
      await expectServed(url);
      // Identity tells the catalogue that the member now belongs to another organisation.
      await identityUpdates(member, { organisationId: orgB, active: true });
      await eventually(async () =>
        expect(
          (await catalogue.sql<{ organisation_id: string }>('SELECT organisation_id FROM catalogue.users WHERE id = $1', [member.id]))[0].organisation_id,
        ).toBe(orgB),
      );
      await expectRefused(url, 404);

      const open = await recordWith({ access: 'OP', visibility: 'EV' });
      const outsiders = await linkFor(open.id, outsider);
      await expectServed(outsiders);
      await identityUpdates(outsider, { organisationId: orgB, active: false, deleted: true });
      await eventually(async () =>
        expect((await catalogue.sql<{ deleted: boolean }>('SELECT deleted FROM catalogue.users WHERE id = $1', [outsider.id]))[0].deleted).toBe(true),
      );
      await expectRefused(outsiders, 403);
      // Anonymous visitors may still download the open record: only the deleted account's link went.
      await expectServed(await linkFor(open.id, null));
    });

    it("a link names one file of one record: another record's file cannot be fetched with it", async () => {
      const first = await recordWith({ access: 'OP', visibility: 'EV' });
      const url = await linkFor(first.id, owner);
      const token = new URL(url).searchParams.get('token')!;
      const [version, payload, mac] = token.split('.');
      const changed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      const other = await recordWith({ access: 'OP', visibility: 'EV' });
      changed.f = other.FILES[0].id;
      const forged = `${version}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${mac}`;
      await expectRefused(`${PUBLIC_URL}/api/files/download?token=${encodeURIComponent(forged)}`, 403);
    });
  });
});
