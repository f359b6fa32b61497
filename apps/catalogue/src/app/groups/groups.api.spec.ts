import { randomUUID } from 'node:crypto';
import { bidiControlMessage } from '@dc/contracts';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { Caller, caller, CatalogueTestApp } from '../../testing/catalogue-test-app';

const orgA = randomUUID();
const orgB = randomUUID();
const creator = caller('ga-creator', orgA, [3]);
const colleague = caller('ga-colleague', orgA, [3]);
const dataAdmin = caller('ga-admin', orgA, [2]);
const stranger = caller('ga-stranger', orgB, [1, 2, 3]);

describeInfra('catalogue projects API: /api/groups/ (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  const headers = new Map<Caller, { Authorization: string }>();
  const as = (who: Caller) => headers.get(who)!;
  const http = () => catalogue.http();
  const newRecord = async (who: Caller, name: string, visibility: 'PR' | 'EV' = 'PR') => {
    const { body } = await http().post('/api/records/').set(as(who)).send({ name });
    if (visibility !== 'PR') await http().put(`/api/records/${body.id}/`).set(as(who)).send({ visibility }).expect(200);
    return body.id as string;
  };
  const groupIdsOf = async (recordId: string) =>
    (await catalogue.sql<{ group_ids: string[] }>('SELECT group_ids FROM catalogue.records WHERE id = $1', [recordId]))[0].group_ids;

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_groups');
    catalogue = await CatalogueTestApp.start(db.url);
    for (const who of [creator, colleague, dataAdmin, stranger]) headers.set(who, await catalogue.auth(who));
    await catalogue.feedDirectory([creator, colleague, dataAdmin, stranger], { [orgA]: 'Acme', [orgB]: 'Blue' });
  });
  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  it('lists nothing at first; any member creates a project with the spec payload; the organisation sees it, others do not', async () => {
    expect((await http().get('/api/groups/').set(as(creator))).body).toEqual({ status: 'success', groups: [], checked: [] });
    const created = await http()
      .post('/api/groups/')
      .set(as(creator))
      .send({
        groupName: 'Rivers',
        groupDescription: 'Hydrology work',
        groupFields: [
          { label: 'Lead', text: 'Ada' },
          { label: 'Budget', text: '12k' },
        ],
      });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Rivers',
      description: 'Hydrology work',
      created: expect.any(String),
      changed: expect.any(String),
      fields: { Lead: 'Ada', Budget: '12k' },
      owner: 'ga-creator',
      owner_id: creator.id,
      can_edit: true,
      record_count: 0,
    });
    for (const path of ['/api/groups', '/api/groups/']) {
      const list = await http().get(path).set(as(colleague));
      expect(list.body).toMatchObject({ status: 'success', groups: [{ id: created.body.id, name: 'Rivers', can_edit: false }], checked: [] });
    }
    expect((await http().get(`/api/groups/${created.body.id}`).set(as(dataAdmin))).body).toMatchObject({ name: 'Rivers', can_edit: true });
    expect((await http().get('/api/groups/').set(as(stranger))).body.groups).toEqual([]);
    for (const call of [
      http().get(`/api/groups/${created.body.id}/`),
      http().put(`/api/groups/${created.body.id}/`).send({ groupName: 'Mine' }),
      http().delete(`/api/groups/${created.body.id}/`),
    ]) {
      const response = await call.set(as(stranger));
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'Not found.' });
    }
    expect((await http().get('/api/groups/')).status).toBe(401);
  });

  it('answers bad input per field and stores nothing', async () => {
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [{}, { groupName: ['This field is required.'] }],
      [{ groupName: 'X', groupFields: [{ label: '', text: 'y' }] }, { groupFields: ['A label may not be blank.'] }],
      [
        {
          groupName: 'X',
          groupFields: [
            { label: 'A', text: '1' },
            { label: 'a', text: '2' },
          ],
        },
        { groupFields: ['Each label may appear once.'] },
      ],
    ];
    const [{ before }] = await catalogue.sql<{ before: number }>('SELECT count(*)::int AS before FROM catalogue.groups');
    for (const [body, errors] of cases) {
      const response = await http()
        .post('/api/groups/')
        .set(as(creator))
        .send(body as object);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errors);
    }
    const [{ after }] = await catalogue.sql<{ after: number }>('SELECT count(*)::int AS after FROM catalogue.groups');
    expect(after).toBe(before);
  });

  it("refuses bidi controls (U+202E and the like) in a project's name and in a record's, naming the character", async () => {
    const refused = (control: string) => [bidiControlMessage(control)];
    const [{ before }] = await catalogue.sql<{ before: number }>('SELECT count(*)::int AS before FROM catalogue.groups');
    for (const control of ['\u202e', '\u2066', '\u200f', '\u061c']) {
      const project = await http()
        .post('/api/groups/')
        .set(as(creator))
        .send({ groupName: `Budget${control}slx.exe` });
      expect([project.status, project.body]).toEqual([400, { groupName: refused(control) }]);
    }
    const [{ after }] = await catalogue.sql<{ after: number }>('SELECT count(*)::int AS after FROM catalogue.groups');
    expect(after).toBe(before);
    const { body: group } = await http().post('/api/groups/').set(as(creator)).send({ groupName: 'Budget' });
    const renamed = await http().put(`/api/groups/${group.id}/`).set(as(creator)).send({ name: 'Budget\u202eslx' });
    expect([renamed.status, renamed.body]).toEqual([400, { groupName: refused('\u202e') }]);

    const record = await newRecord(creator, 'Plain name');
    const created = await http().post('/api/records/').set(as(creator)).send({ name: 'Report\u202efdp.exe' });
    expect([created.status, created.body]).toEqual([400, { name: refused('\u202e') }]);
    const edited = await http().put(`/api/records/${record}/`).set(as(creator)).send({ name: 'Report\u2067fdp' });
    expect([edited.status, edited.body]).toEqual([400, { name: refused('\u2067') }]);
    expect((await http().get(`/api/records/${record}/`).set(as(creator))).body.name).toBe('Plain name');
  });

  it('members file records they may see (record.updated carries groupIds, version unchanged); records they may not see are refused whole', async () => {
    const { body: group } = await http().post('/api/groups/').set(as(creator)).send({ groupName: 'Shared finds' });
    const own = await newRecord(creator, 'Own PR record');
    const theirsOpen = await newRecord(stranger, 'Their EV record', 'EV');
    const theirsPrivate = await newRecord(stranger, 'Their PR record');
    const refused = await http()
      .put(`/api/groups/${group.id}/`)
      .set(as(colleague))
      .send({ addRecordIds: [own, theirsPrivate] });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ addRecordIds: [`Invalid pk "${theirsPrivate}" - object does not exist.`] });
    expect(await groupIdsOf(own)).toEqual([]);

    const added = await http()
      .put(`/api/groups/${group.id}`)
      .set(as(colleague))
      .send({ addRecordIds: [own, theirsOpen] });
    expect(added.status).toBe(200);
    expect(added.body.record_count).toBe(2);
    expect(await groupIdsOf(theirsOpen)).toEqual([group.id]);
    const [event] = (await catalogue.events(own)).filter((e) => e.type === 'record.updated');
    expect(event.payload).toMatchObject({ groupIds: [group.id], version: 1 });
    // A foreign record filed into the project names the project's organisation, not its own: only that organisation may list the project (search).
    const filed = (await catalogue.events(theirsOpen)).filter((e) => e.type === 'record.updated').at(-1)!;
    expect(filed.payload).toMatchObject({
      groupIds: [group.id],
      projects: [{ id: group.id, organisationId: creator.organisationId }],
      organisationId: stranger.organisationId,
    });
    expect((await http().get('/api/groups/').query({ record: own }).set(as(creator))).body.checked).toEqual([group.id]);

    // The record shows its projects by name to the organisation, and none of them to the owner of a filed foreign record.
    expect((await http().get(`/api/records/${own}`).set(as(creator))).body.groups).toEqual([{ id: group.id, name: 'Shared finds' }]);
    expect((await http().get(`/api/records/${theirsOpen}`).set(as(stranger))).body.groups).toEqual([]);
    // Membership never widens sight: the stranger's private record stays hidden from the project's organisation.
    expect((await http().get('/api/groups/').query({ record: theirsPrivate }).set(as(creator))).status).toBe(404);

    await http()
      .put(`/api/groups/${group.id}/`)
      .set(as(colleague))
      .send({ removeRecordIds: [theirsOpen] })
      .expect(200);
    expect(await groupIdsOf(theirsOpen)).toEqual([]);
  });

  it('the creator and Data Admins rename and delete; other members 403; deleting empties every record of it', async () => {
    const { body: group } = await http().post('/api/groups/').set(as(creator)).send({ groupName: 'Temporary' });
    const record = await newRecord(creator, 'Filed record');
    await http()
      .put(`/api/groups/${group.id}/`)
      .set(as(creator))
      .send({ addRecordIds: [record] })
      .expect(200);
    const rename = { groupName: 'Renamed', groupDescription: 'New text', groupFields: { Phase: '2' } };
    const denied = await http().put(`/api/groups/${group.id}/`).set(as(colleague)).send(rename);
    expect(denied.status).toBe(403);
    expect((await http().delete(`/api/groups/${group.id}/`).set(as(colleague))).status).toBe(403);
    const renamed = await http().put(`/api/groups/${group.id}/`).set(as(dataAdmin)).send(rename);
    expect(renamed.body).toMatchObject({ name: 'Renamed', description: 'New text', fields: { Phase: '2' } });
    expect((await http().delete(`/api/groups/${group.id}/`).set(as(creator))).status).toBe(204);
    expect(await groupIdsOf(record)).toEqual([]);
    expect((await http().get(`/api/groups/${group.id}/`).set(as(creator))).status).toBe(404);
  });

  it("Record edit sets the record's projects among its organisation's, keeping other organisations' memberships; unknown ids are refused", async () => {
    const { body: ours } = await http().post('/api/groups/').set(as(dataAdmin)).send({ groupName: 'Ours' });
    const { body: theirs } = await http().post('/api/groups/').set(as(stranger)).send({ groupName: 'Theirs' });
    const record = await newRecord(creator, 'Edited record', 'EV');
    await http()
      .put(`/api/groups/${theirs.id}/`)
      .set(as(stranger))
      .send({ addRecordIds: [record] })
      .expect(200);
    const set = await http()
      .put(`/api/records/${record}/`)
      .set(as(creator))
      .send({ groups: [ours.id] });
    expect(set.status).toBe(200);
    expect(set.body.groups).toEqual([{ id: ours.id, name: 'Ours' }]);
    expect((await groupIdsOf(record)).sort()).toEqual([ours.id, theirs.id].sort());
    const refused = await http()
      .put(`/api/records/${record}/`)
      .set(as(creator))
      .send({ groups: [theirs.id] });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ groups: [`Invalid pk "${theirs.id}" - object does not exist.`] });
    await http().put(`/api/records/${record}/`).set(as(creator)).send({ groups: [] }).expect(200);
    expect(await groupIdsOf(record)).toEqual([theirs.id]);
  });
});
