import { randomUUID } from 'node:crypto';
import { bidiControlMessage } from '@dc/contracts';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { Caller, caller, CatalogueTestApp } from '../../testing/catalogue-test-app';

const orgA = randomUUID();
const orgB = randomUUID();
const admin = caller('pa-admin', orgA, [1, 2, 3]);
const viewer = caller('pa-viewer', orgA, [3]);
const basicAdmin = caller('pa-basic', orgA, [2, 3], 'BASIC');
const stranger = caller('pa-stranger', orgB, [1, 2, 3]);

const FIELDS = [
  { topic: 'Ethics', requirement: 'An approved ethics protocol', agree: 'yes' },
  { topic: 'Resale', requirement: 'You will sell the data', agree: 'no' },
];

describeInfra('catalogue policies API: /api/policies/ (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  const headers = new Map<Caller, { Authorization: string }>();
  const as = (who: Caller) => headers.get(who)!;
  const http = () => catalogue.http();

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_policies');
    catalogue = await CatalogueTestApp.start(db.url);
    for (const who of [admin, viewer, basicAdmin, stranger]) headers.set(who, await catalogue.auth(who));
    await catalogue.feedDirectory([admin, viewer, basicAdmin, stranger], { [orgA]: 'Acme', [orgB]: 'Blue' });
  });
  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  it('a Data Admin creates a policy (spec payload) and policy.updated carries it; members read it, with and without the trailing slash', async () => {
    const created = await http().post('/api/policies/').set(as(admin)).send({ policyName: 'Research only', policyFields: FIELDS });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Research only',
      owner: 'pa-admin',
      owner_id: admin.id,
      created: expect.any(String),
      changed: expect.any(String),
      fields: FIELDS,
      can_edit: true,
    });
    const id = created.body.id;
    for (const path of [`/api/policies/${id}`, `/api/policies/${id}/`]) {
      const read = await http().get(path).set(as(viewer));
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id, name: 'Research only', can_edit: false });
    }
    for (const path of ['/api/policies', '/api/policies/']) {
      const list = await http().get(path).set(as(viewer));
      expect(list.body).toMatchObject({ count: 1, next: null, previous: null, results: [{ id, name: 'Research only' }] });
    }
    const [event] = await catalogue.events(id);
    expect(event).toMatchObject({ type: 'policy.updated', payload: { policyId: id, organisationId: orgA, name: 'Research only', fields: FIELDS, version: 1 } });
  });

  it('accepts a {topic: requirement} object and the name/fields spellings; answers bad input per field and stores nothing', async () => {
    const map = await http()
      .post('/api/policies/')
      .set(as(admin))
      .send({ name: 'Map form', fields: { Purpose: 'Non-commercial use' } });
    expect(map.status).toBe(201);
    expect(map.body.fields).toEqual([{ topic: 'Purpose', requirement: 'Non-commercial use', agree: 'yes' }]);
    const [{ before }] = await catalogue.sql<{ before: number }>('SELECT count(*)::int AS before FROM catalogue.policies');
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [{}, { policyName: ['This field is required.'], policyFields: ['This field is required.'] }],
      [
        { policyName: '  ', policyFields: [] },
        { policyName: ['This field is required.'], policyFields: ['Add at least one requirement.'] },
      ],
      [
        { policyName: 'X', policyFields: [{ topic: 'T', requirement: 'R', agree: 'maybe' }] },
        { policyFields: ['The requestor option must be "yes" or "no".'] },
      ],
      [{ policyName: 'X', policyFields: [{ topic: '', requirement: 'R' }] }, { policyFields: ['A topic may not be blank.'] }],
      [{ policyName: 'X', policyFields: 'nope' }, { policyFields: ['Requirements must be a list of {"topic", "requirement", "agree"} rows.'] }],
    ];
    for (const [body, errors] of cases) {
      const response = await http()
        .post('/api/policies/')
        .set(as(admin))
        .send(body as object);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errors);
    }
    const [{ after }] = await catalogue.sql<{ after: number }>('SELECT count(*)::int AS after FROM catalogue.policies');
    expect(after).toBe(before);
  });

  it("refuses bidi controls (U+202E and the like) in a policy's name, on creation and on change", async () => {
    const created = await http().post('/api/policies/').set(as(admin)).send({ policyName: 'Research\u202eylno', policyFields: FIELDS });
    expect([created.status, created.body]).toEqual([400, { policyName: [bidiControlMessage('\u202e')] }]);
    const { body: policy } = await http().post('/api/policies/').set(as(admin)).send({ policyName: 'Teaching only', policyFields: FIELDS }).expect(201);
    const changed = await http().put(`/api/policies/${policy.id}/`).set(as(admin)).send({ name: 'Teaching\u200f only', fields: FIELDS });
    expect([changed.status, changed.body]).toEqual([400, { policyName: [bidiControlMessage('\u200f')] }]);
    await http().delete(`/api/policies/${policy.id}/`).set(as(admin)).expect(204);
  });

  it('only Data Admins change and delete; BASIC clients may not; other organisations get 404 for every call and see an empty list', async () => {
    const { body: policy } = await http().post('/api/policies/').set(as(admin)).send({ policyName: 'Guarded', policyFields: FIELDS });
    const path = `/api/policies/${policy.id}/`;
    const edit = { policyName: 'Guarded v2', policyFields: FIELDS.slice(0, 1) };
    expect((await http().post('/api/policies/').set(as(viewer)).send(edit)).status).toBe(403);
    expect((await http().put(path).set(as(viewer)).send(edit)).status).toBe(403);
    expect((await http().delete(path).set(as(viewer))).status).toBe(403);
    const basic = await http().put(path).set(as(basicAdmin)).send(edit);
    expect(basic.status).toBe(403);
    expect(basic.body).toEqual({ detail: 'Access policies are not available on your plan. Upgrade to assign one.' });
    for (const call of [http().get(path), http().put(path).send(edit), http().delete(path)]) {
      const response = await call.set(as(stranger));
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'Not found.' });
    }
    expect((await http().get('/api/policies/').set(as(stranger))).body).toMatchObject({ count: 0, results: [] });
    for (const id of [randomUUID(), 'not-a-uuid']) expect((await http().get(`/api/policies/${id}/`).set(as(admin))).status).toBe(404);
    expect((await http().get(path)).status).toBe(401);

    const changed = await http().put(path).set(as(admin)).send(edit);
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Guarded v2', fields: FIELDS.slice(0, 1) });
    expect((await catalogue.events(policy.id)).map((e) => [e.type, (e.payload as { version: number }).version])).toEqual([
      ['policy.updated', 1],
      ['policy.updated', 2],
    ]);
    expect((await http().delete(path).set(as(admin))).status).toBe(204);
    expect((await http().get(path).set(as(admin))).status).toBe(404);
    expect((await catalogue.events(policy.id)).at(-1)).toMatchObject({ type: 'policy.deleted', payload: { policyId: policy.id, organisationId: orgA } });
  });

  it('a record takes only a policy of its own organisation, shows its name, and keeps the policy from being deleted while attached', async () => {
    const { body: policy } = await http().post('/api/policies/').set(as(admin)).send({ policyName: 'Attached', policyFields: FIELDS });
    const { body: foreign } = await catalogue.http().post('/api/policies/').set(as(stranger)).send({ policyName: 'Theirs', policyFields: FIELDS });
    const refused = await http().post('/api/records/').set(as(admin)).send({ name: 'Borrowed policy', policy: foreign.id });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ policy: [`Invalid pk "${foreign.id}" - object does not exist.`] });
    const unknown = randomUUID();
    expect((await http().post('/api/records/').set(as(admin)).send({ name: 'Unknown policy', policy: unknown })).body).toEqual({
      policy: [`Invalid pk "${unknown}" - object does not exist.`],
    });
    const [{ records }] = await catalogue.sql<{ records: number }>(
      "SELECT count(*)::int AS records FROM catalogue.records WHERE name IN ('Borrowed policy', 'Unknown policy')",
    );
    expect(records).toBe(0);

    const created = await http().post('/api/records/').set(as(admin)).send({ name: 'With policy', policy: policy.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ policy: policy.id, policy_name: 'Attached' });
    const record = created.body.id;
    expect((await http().get(`/api/records/${record}`).set(as(viewer))).body.policy_name).toBe('Attached');
    expect((await http().put(`/api/records/${record}/`).set(as(admin)).send({ policy: foreign.id })).status).toBe(400);

    const inUse = await http().delete(`/api/policies/${policy.id}/`).set(as(admin));
    expect(inUse.status).toBe(409);
    expect(inUse.body).toEqual({ non_field_errors: ['This policy is attached to 1 record. Choose another policy for it first.'] });
    await http().put(`/api/records/${record}/`).set(as(admin)).send({ policy: null }).expect(200);
    expect((await http().delete(`/api/policies/${policy.id}/`).set(as(admin))).status).toBe(204);
  });
});
