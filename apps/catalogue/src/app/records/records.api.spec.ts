import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SignedLinkSigner } from '@dc/storage';
import { describeInfra } from '@dc/testing';
import { Caller, DATASETS, TEST_JWT_SECRET } from '../../testing/catalogue-test-app';
import { admin, basic, friend, member, orgA, orgB, outsider, owner, useRecordsApi } from '../../testing/records-api.fixture';

const dataset = (name: string) => path.join(DATASETS, name);

const MAX_UPLOAD_BYTES = 100_000;
const UNEMPLOYMENT = dataset('csv/unemployment.tsv'); // 34,739 bytes

describeInfra('catalogue records API: who sees, edits, deletes and downloads (real PostgreSQL, fs storage)', true, () => {
  const api = useRecordsApi({ maxUploadBytes: MAX_UPLOAD_BYTES });
  const { http, as, upload, outbox } = api;

  describe('who sees, edits, deletes and downloads a record', () => {
    let record: { id: string; visibilitymodel_set: Array<{ id: string }>; FILES: Array<{ id: string }> };
    const get = (caller: Caller | null, id = record.id) => (caller ? http().get(`/api/records/${id}`).set(as(caller)) : http().get(`/api/records/${id}`));

    beforeAll(async () => {
      const response = await upload(owner, [UNEMPLOYMENT], { name: 'Unemployment by county', allowDuplicate: 'true' });
      expect(response.status).toBe(201);
      record = response.body;
    });

    it('PR: the owner and their organisation see it; others get the same 404 as for an unknown id', async () => {
      for (const caller of [owner, member, admin]) expect((await get(caller)).status).toBe(200);
      expect((await get(member)).body).toMatchObject({ is_owner: false, edit: false, visibilitymodel_set: [], download_url: null });
      expect((await get(admin)).body).toMatchObject({ is_owner: false, edit: true, download_url: `/api/records/${record.id}/download/` });
      const unknown = await get(owner, randomUUID());
      expect(unknown.status).toBe(404);
      for (const caller of [outsider, friend, basic, null]) {
        const response = await get(caller);
        expect(response.status).toBe(404);
        expect(response.body).toEqual(unknown.body);
      }
      expect((await get(owner, 'not-a-uuid')).status).toBe(404);
    });

    it('CU: adds the listed users and organisations, with their names; EV: everyone, anonymous included', async () => {
      const visibilityId = record.visibilitymodel_set[0].id;
      const shared = await http()
        .put(`/api/visibilities/${visibilityId}/`)
        .set(as(owner))
        .send({ visibility_selection: 'CU', users_with_visibility: [{ id: friend.id, name: 'ignored' }], organisations_with_visibility: [] });
      expect(shared.status).toBe(200);
      expect(shared.body).toEqual({
        id: visibilityId,
        visibility_selection: 'CU',
        users_with_visibility: [{ id: friend.id, name: 'friend' }],
        organisations_with_visibility: [],
        visibility_options: [
          ['Private', 'PR'],
          ['Everyone', 'EV'],
          ['Custom', 'CU'],
        ],
        scope: 'RE',
        associated_record: record.id,
      });
      expect((await get(friend)).status).toBe(200);
      expect((await get(friend)).body.visibilitymodel_set).toEqual([]);
      for (const caller of [outsider, basic, null]) expect((await get(caller)).status).toBe(404);

      const byOrganisation = await http()
        .post('/api/visibilities/')
        .set(as(admin))
        .send({ visibility_selection: 'CU', organisations_with_visibility: [orgB], associated_record: record.id });
      expect(byOrganisation.status).toBe(201);
      expect(byOrganisation.body.organisations_with_visibility).toEqual([{ id: orgB, name: 'Blue' }]);
      expect((await get(outsider)).status).toBe(200);
      expect((await get(friend)).status).toBe(404);

      const unknownUser = await http()
        .put(`/api/visibilities/${visibilityId}/`)
        .set(as(owner))
        .send({ visibility_selection: 'CU', users_with_visibility: ['nobody'] });
      expect(unknownUser.status).toBe(400);
      expect(unknownUser.body).toEqual({ users_with_visibility: ['Unknown user(s): nobody.'] });
      const hidden = await http().post('/api/visibilities/').set(as(friend)).send({ visibility_selection: 'EV', associated_record: record.id });
      expect(hidden.status).toBe(400);
      expect(hidden.body).toEqual({ associated_record: [`Invalid pk "${record.id}" - object does not exist.`] });
      expect((await http().post('/api/visibilities/').set(as(member)).send({ visibility_selection: 'EV', associated_record: record.id })).status).toBe(403);

      expect((await http().get(`/api/visibilities/?associated_record=${record.id}`).set(as(owner))).body).toMatchObject({
        count: 1,
        next: null,
        previous: null,
        results: [{ id: visibilityId, visibility_selection: 'CU' }],
      });
      expect((await http().get(`/api/visibilities/?associated_record=${record.id}`).set(as(member))).body).toMatchObject({ count: 0, results: [] });
      // A page number past any integer PostgreSQL takes is an empty page, not a 500 (found by the route fuzz).
      const farAway = await http()
        .get(`/api/visibilities/?page=${'9'.repeat(180)}&page_size=1e309`)
        .set(as(owner));
      expect(farAway.status).toBe(200);
      expect(farAway.body).toMatchObject({ results: [] });

      const everyone = await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ visibility: 'EV' });
      expect(everyone.status).toBe(200);
      expect(everyone.body.visibilitymodel_set[0]).toMatchObject({ visibility_selection: 'EV', organisations_with_visibility: [] });
      for (const caller of [outsider, friend, basic, null]) {
        const response = await get(caller);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ is_owner: false, edit: false, visibilitymodel_set: [] });
      }
      const events = await outbox(record.id);
      expect(events.at(-1)).toMatchObject({ type: 'record.updated', payload: { visibility: 'EV', sharedWithUserIds: [], sharedWithOrganisationIds: [] } });
      expect(events.find((e) => (e.payload as { visibility: string }).visibility === 'CU')?.payload).toMatchObject({ sharedWithUserIds: [friend.id] });
    });

    it('PUT: the owner and Data Admins edit; members get 403, strangers 404 (or 403 once they may see it)', async () => {
      await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ visibility: 'PR' });
      expect((await http().put(`/api/records/${record.id}/`).set(as(member)).send({ name: 'Mine now' })).status).toBe(403);
      expect((await http().put(`/api/records/${record.id}/`).set(as(outsider)).send({ name: 'Mine now' })).status).toBe(404);
      const invalid = await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ name: '', access: 'maybe' });
      expect(invalid.status).toBe(400);
      expect(Object.keys(invalid.body).sort()).toEqual(['access', 'name']);

      const before = (await get(owner)).body;
      const edited = await http()
        .put(`/api/records/${record.id}`)
        .set(as(admin))
        .send({
          record: { name: 'County unemployment', description: 'BLS 2009', RECORD: { Year: 2009 } },
          access: 'OP',
          accessFee: '3',
          currency: 'EUR',
          groups: [],
        });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({
        name: 'County unemployment',
        description: 'BLS 2009',
        RECORD: { Year: '2009' },
        access: 'OP',
        accessFee: 3,
        currency: 'EUR',
        version: before.version + 1,
        edit: true,
        is_owner: false,
      });
      expect(Date.parse(edited.body.date_changed)).toBeGreaterThan(Date.parse(before.date_changed));
      const cleared = await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ accessFee: null, access: 'RE' });
      expect(cleared.body).toMatchObject({ accessFee: null, fee: { fixed_fee: null, currency: 'EUR' }, access: 'RE', version: before.version + 2 });
      const unchanged = await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ access: 'RE' });
      expect(unchanged.body.version).toBe(before.version + 2);
      const updated = (await outbox(record.id)).filter((e) => e.type === 'record.updated').at(-1)!;
      expect(updated.payload).toMatchObject({ name: 'County unemployment', access: 'RE', accessFee: null, version: before.version + 2 });
    });

    it('PUT /api/files/{id}/ renames a file for those who may edit', async () => {
      const fileId = record.FILES[0].id;
      expect((await http().put(`/api/files/${fileId}/`).set(as(member)).send({ name: 'x.tsv' })).status).toBe(403);
      expect((await http().put(`/api/files/${fileId}/`).set(as(outsider)).send({ name: 'x.tsv' })).status).toBe(404);
      expect((await http().put(`/api/files/${fileId}/`).set(as(owner)).send({ name: '' })).body).toEqual({ name: ['This field may not be blank.'] });
      const renamed = await http().put(`/api/files/${fileId}/`).set(as(owner)).send({ name: 'unemployment-2009.tsv' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ id: fileId, name: 'unemployment-2009.tsv', size: 34_739 });
      expect((await get(owner)).body.FILES[0].name).toBe('unemployment-2009.tsv');
    });

    it('download: a 5-minute signed link for the owner and Data Admins (RE), anyone who sees it when OP; 403 or 404 otherwise', async () => {
      const link = (caller: Caller | null) =>
        caller ? http().get(`/api/records/${record.id}/download/`).set(as(caller)) : http().get(`/api/records/${record.id}/download/`);
      const granted = await link(owner);
      expect(granted.status).toBe(200);
      expect(granted.body).toMatchObject({
        url: expect.stringContaining('/api/files/download?token='),
        expires_in: 300,
        file: { id: record.FILES[0].id, name: 'unemployment-2009.tsv' },
      });
      expect((await link(admin)).status).toBe(200);
      expect((await link(member)).status).toBe(403);
      expect((await link(member)).body).toEqual({ detail: 'You may not download this data. Request access to it first.' });
      expect((await link(outsider)).status).toBe(404);
      expect((await link(null)).status).toBe(404);

      const url = new URL(granted.body.url);
      const file = await http()
        .get(`${url.pathname}${url.search}`)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(file.status).toBe(200);
      expect(file.headers['content-disposition']).toBe(`attachment; filename="unemployment-2009.tsv"; filename*=UTF-8''unemployment-2009.tsv`);
      expect((file.body as Buffer).equals(readFileSync(UNEMPLOYMENT))).toBe(true);

      const token = url.searchParams.get('token')!;
      const key = createHmac('sha256', TEST_JWT_SECRET).update('signed-download-links').digest();
      const expired = new SignedLinkSigner(key, { now: () => Date.now() - 10 * 60_000 }).sign(`catalogue/files/${record.FILES[0].id}`, {
        expiresInSeconds: 300,
      });
      const forged = new SignedLinkSigner(Buffer.alloc(32, 1)).sign(`catalogue/files/${record.FILES[0].id}`, { expiresInSeconds: 300 });
      for (const bad of [expired, forged, `${token}x`, '']) {
        const refused = await http().get(`/api/files/download?token=${encodeURIComponent(bad)}`);
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ detail: 'This download link is invalid or has expired.' });
      }

      // Open access: whoever may see the record may download it, anonymous visitors of EV records too.
      await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ access: 'OP' });
      expect((await link(member)).status).toBe(200);
      expect((await link(outsider)).status).toBe(404);
      await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ visibility: 'EV' });
      expect((await link(null)).status).toBe(200);
      expect((await get(null)).body.download_url).toBe(`/api/records/${record.id}/download/`);

      const metadataOnly = await upload(owner, [], { name: 'No data here', access: 'OP' });
      const none = await http().get(`/api/records/${metadataOnly.body.id}/download/`).set(as(owner));
      expect(none.status).toBe(404);
      expect(none.body).toEqual({ detail: 'This record has no stored file to download.' });
    });

    it('DELETE: members 403, strangers 404; the owner removes the record, its files and objects, and record.deleted is published', async () => {
      await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ visibility: 'PR' });
      const key = `catalogue/files/${record.FILES[0].id}`;
      expect(await api.storage.exists(key)).toBe(true);
      expect((await http().delete(`/api/records/${record.id}/`).set(as(member))).status).toBe(403);
      expect((await http().delete(`/api/records/${record.id}/`).set(as(outsider))).status).toBe(404);
      const deleted = await http().delete(`/api/records/${record.id}/`).set(as(owner));
      expect(deleted.status).toBe(204);
      expect(await api.storage.exists(key)).toBe(false);
      expect((await get(owner)).status).toBe(404);
      expect(await api.catalogue.sql('SELECT id FROM catalogue.files WHERE record_id = $1', [record.id])).toEqual([]);
      expect((await outbox(record.id)).at(-1)).toMatchObject({
        type: 'record.deleted',
        payload: { recordId: record.id, ownerId: owner.id, organisationId: orgA },
      });
      expect((await http().delete(`/api/records/${record.id}/`).set(as(owner))).status).toBe(404);
    });

    it('DELETE by a Data Admin of the organisation', async () => {
      const created = await upload(member, [], { name: 'Member record' });
      expect((await http().delete(`/api/records/${created.body.id}`).set(as(admin))).status).toBe(204);
    });
  });

  it('GET /api/accessoptions/ lists [label, code] pairs, for anonymous callers too', async () => {
    const response = await http().get('/api/accessoptions');
    expect(response.status).toBe(200);
    expect(response.body.visibility_options).toEqual([
      ['Private', 'PR'],
      ['Everyone', 'EV'],
      ['Custom', 'CU'],
    ]);
    expect(response.body.access_options).toEqual([
      ['Request', 'RE'],
      ['Open', 'OP'],
    ]);
    expect(response.body.currency_options[0]).toEqual(['Canadian Dollar', 'CAD']);
  });
});
