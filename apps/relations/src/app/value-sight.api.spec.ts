import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEvent, RequestUpdated } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createTestDatabase, describeInfra, eventually, type TestDatabase } from '@dc/testing';
import { caller, type Caller, type IndexedRecord, RelationsTestApp } from '../testing/relations-test-app';
import { VALUES_WITHHELD } from './compare/relations.service';

// The membership oracle of issue 21: someone who may see a record but not download it uploads a
// probe holding one guessed value and asks every relation call about the pair. Whatever they ask,
// a probe whose value is in the record and one whose value is not must get the same answers
// (docs/metadata-before-access.md, "Relations"); a user with a live grant, who may read the
// record's cells anyway, gets answers that tell the two apart (which shows the table can fail).

const GUESSED = { ssn: '123450007', name: 'Zebulon Quixote1' };
const ABSENT = { ssn: '987650001', name: 'Yolanda Absent99' };

/** 200 people (fewer than a sketch's 256 values, so overlaps are counted exactly), the guessed one among them. */
function targetCsv(): string {
  const rows = Array.from({ length: 199 }, (_, i) => `${100000000 + i * 7919},Person ${String.fromCharCode(65 + (i % 26))}${i}`);
  rows.splice(120, 0, `${GUESSED.ssn},${GUESSED.name}`);
  return `ssn,full_name\n${rows.join('\n')}\n`;
}

describeInfra('relations never answer a question about cells the caller may not download (PostgreSQL, fs storage)', true, () => {
  jest.setTimeout(180_000);
  let db: TestDatabase;
  let relations: RelationsTestApp;
  let dir: string;
  const victim = caller('victim', randomUUID(), [2, 3]);
  const attacker = caller('attacker', randomUUID(), [2, 3]);
  const grantee = caller('grantee', randomUUID(), [2, 3]);
  const auth = new Map<Caller, { Authorization: string }>();
  let target: IndexedRecord;
  /** Each prober's two probes: the guessed value, and one the target does not hold. */
  const probes = new Map<Caller, { present: IndexedRecord; absent: IndexedRecord }>();

  const csv = (name: string, body: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, body);
    return file;
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_relations_sight');
    relations = await RelationsTestApp.start(db.url);
    dir = mkdtempSync(path.join(tmpdir(), 'dc-oracle-'));
    for (const who of [victim, attacker, grantee]) auth.set(who, await relations.auth(who));
    // Everyone sees it; its data is on request.
    target = await relations.index(victim, csv('people.csv', targetCsv()), { name: 'people.csv', visibility: 'EV', access: 'RE' });
    for (const who of [attacker, grantee]) {
      // Same name, shape and counts: the probes differ only in whether their value is the target's.
      const probe = (value: typeof GUESSED, n: number) =>
        relations.index(who, csv(`${who.username}-${n}.csv`, `ssn,full_name\n${value.ssn},${value.name}\n`), {
          name: 'probe.csv',
          visibility: 'EV',
          access: 'RE',
        });
      probes.set(who, { present: await probe(GUESSED, 1), absent: await probe(ABSENT, 2) });
    }
    await grant('approved', 3);
    // top_related is kept in the background: wait until every list is computed.
    await relations.until('SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM relations.related_pending)', []);
  });

  const requestId = randomUUID();
  /** The grantee's request for the target, as the requests service publishes it. */
  async function grant(status: 'approved' | 'revoked', version: number) {
    const now = new Date().toISOString();
    await relations.app.get(EventBus).publish([
      createEvent(RequestUpdated, requestId, {
        requestId,
        recordId: target.id,
        requestorId: grantee.id,
        requestorOrganisationId: grantee.organisationId,
        ownerId: victim.id,
        organisationId: victim.organisationId,
        status,
        expiresAt: null,
        createdAt: now,
        changedAt: now,
        version,
      }),
    ]);
    await eventually(async () =>
      expect(await relations.sql('SELECT 1 FROM relations.request_grants WHERE request_id = $1 AND version = $2', [requestId, version])).toHaveLength(1),
    );
  }

  afterAll(async () => {
    await relations?.close();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Every call about the probe and the target, as `who` (null: anonymous), the probe's own id and name written PROBE. */
  async function answers(who: Caller | null, probe: IndexedRecord): Promise<Record<string, unknown>> {
    const call = (method: 'get' | 'post', url: string, body?: object) => {
      const req = method === 'get' ? relations.http().get(url) : relations.http().post(url).send(body);
      return who ? req.set(auth.get(who)!) : req;
    };
    const pair = (relation: string, a: IndexedRecord, b: IndexedRecord) => `/api/relations/${relation}/?record1=${a.id}&record2=${b.id}`;
    const calls: Record<string, () => ReturnType<typeof call>> = {
      'semantics probe-target': () => call('get', pair('semantics', probe, target)),
      'structures probe-target': () => call('get', pair('structures', probe, target)),
      'statistics probe-target': () => call('get', pair('statistics', probe, target)),
      'statistics target-probe': () => call('get', pair('statistics', target, probe)),
      'joining probe-target': () => call('get', pair('joining', probe, target)),
      'joining target-probe': () => call('get', pair('joining', target, probe)),
      'linkability probe-target': () => call('get', pair('linkability', probe, target)),
      'linkability target-probe': () => call('get', pair('linkability', target, probe)),
      'link-rows probe-target': () => call('get', pair('link-rows', probe, target)),
      'infer-header target ssn': () => call('get', `/api/relations/infer-header/?record=${target.id}&header=ssn`),
      'infer-header target full_name': () => call('get', `/api/relations/infer-header/?record=${target.id}&header=full_name`),
      'joinable-with probe': () => call('get', `/api/relations/joinable-with/?record=${probe.id}`),
      'joinable-with target': () => call('get', `/api/relations/joinable-with/?record=${target.id}`),
      'top-related probe': () => call('get', `/api/relations/top-related/?record=${probe.id}`),
      'top-related target': () => call('get', `/api/relations/top-related/?record=${target.id}`),
      'merge scan': () => call('post', '/api/relations/get-merge-relations/', { records: [probe.id, target.id] }),
      'merge-preview': () =>
        call('post', '/api/relations/merge-preview/', {
          merge_relations: [{ record_left: probe.id, record_right: target.id, header_left: 'ssn', header_right: 'ssn' }],
          merge_type: 'horizontal',
        }),
      'merge-features': () =>
        call('post', '/api/relations/merge-features/', {
          merge_relations: [{ record_left: probe.id, record_right: target.id, header_left: 'ssn', header_right: 'ssn' }],
          merge_type: 'horizontal',
        }),
    };
    const result: Record<string, unknown> = {};
    const others = [...probes.values()].flatMap((p) => [p.present.id, p.absent.id]).filter((id) => id !== probe.id);
    for (const [name, send] of Object.entries(calls)) {
      const response = await send();
      // A job started is named by a fresh id: only whether one was started matters here.
      const text = JSON.stringify({ status: response.status, body: response.body }).replace(/"job_id":"[^"]+"/g, '"job_id":"JOB"');
      // The other probes are the prober's own records (or someone else's): they are not the question.
      const withoutOthers = JSON.parse(text.replaceAll(probe.id, 'PROBE').replaceAll(probe.fileId, 'PROBE-FILE'), (key, value) => {
        if (Array.isArray(value)) return value.filter((entry) => !(entry && typeof entry === 'object' && others.includes((entry as { id?: string }).id ?? '')));
        // The probes were uploaded one after the other.
        if (value && typeof value === 'object' && value.id === 'PROBE' && 'date_changed' in value) return { ...value, date_changed: 'WHEN' };
        return value;
      });
      result[name] = withoutOthers;
    }
    return result;
  }

  it('gives a prober without a grant the same answer to every call whether the guessed value is in the record or not', async () => {
    const { present, absent } = probes.get(attacker)!;
    const [withValue, withoutValue] = [await answers(attacker, present), await answers(attacker, absent)];
    for (const name of Object.keys(withValue)) expect([name, withValue[name]]).toEqual([name, withoutValue[name]]);
    // The calls did answer (a table of 404s would prove nothing).
    expect(withValue['joining probe-target']).toMatchObject({
      status: 200,
      body: {
        message: VALUES_WITHHELD,
        matching_headers: expect.arrayContaining([
          expect.objectContaining({ header_left: 'ssn', header_right: 'ssn', header_similarity: 1, values_compared: false }),
        ]),
      },
    });
    expect(withValue['statistics probe-target']).toMatchObject({ status: 200, body: { stats_mtx: [], message: VALUES_WITHHELD } });
    expect(withValue['link-rows probe-target']).toMatchObject({ status: 403 });
    // The preview names the columns (metadata) and withholds the join's rows.
    expect(withValue['merge-preview']).toMatchObject({ status: 200, body: { previews: [{ estimated_rows: null, can_start: false }] } });
  });

  it('gives an anonymous visitor the same answers too (both records are visible to everyone)', async () => {
    const { present, absent } = probes.get(attacker)!;
    const [withValue, withoutValue] = [await answers(null, present), await answers(null, absent)];
    for (const name of Object.keys(withValue)) expect([name, withValue[name]]).toEqual([name, withoutValue[name]]);
    expect(withValue['joining probe-target']).toMatchObject({ status: 200 });
  });

  it('still shows a user with a live grant the value figures, which tell the two probes apart', async () => {
    const { present, absent } = probes.get(grantee)!;
    const [withValue, withoutValue] = [await answers(grantee, present), await answers(grantee, absent)];
    const ssn = (answer: unknown) =>
      (answer as { body: { matching_headers: Array<{ header_left: string; containment_left: number }> } }).body.matching_headers.find(
        (m) => m.header_left === 'ssn',
      )!;
    expect(ssn(withValue['joining probe-target'])).toMatchObject({ containment_left: 1, values_compared: true });
    expect(withValue['joining probe-target']).toMatchObject({ body: { message: null } });
    expect(ssn(withoutValue['joining probe-target']).containment_left).toBe(0);
    expect(withValue['link-rows probe-target']).toMatchObject({ status: 200 });
    expect(withValue['merge scan']).not.toEqual(withoutValue['merge scan']);
    expect(withValue['merge-preview']).not.toEqual(withoutValue['merge-preview']);
  });

  it("reads a derivative's values for its maker only while the grant it was made under holds (lineage)", async () => {
    // The grantee's merge result holding the target's people, as the catalogue describes it.
    const derivative = await relations.index(grantee, csv('merged.csv', targetCsv()), { name: 'Merge of people.csv' });
    await relations.update(derivative, { ownerOnly: true, derivedFrom: [{ recordId: target.id, terms: 'grant', requestId, revoked: false }] });
    const own = probes.get(grantee)!.present;
    const joining = async () => (await relations.http().get(`/api/relations/joining/?record1=${own.id}&record2=${derivative.id}`).set(auth.get(grantee)!)).body;
    const linkRows = async () =>
      (await relations.http().get(`/api/relations/link-rows/?record1=${derivative.id}&record2=${own.id}`).set(auth.get(grantee)!)).status;
    expect(await joining()).toMatchObject({
      message: null,
      matching_headers: expect.arrayContaining([expect.objectContaining({ header_left: 'ssn', containment_left: 1 })]),
    });
    expect(await linkRows()).toBe(200);
    // Nobody else sees it: not even the victim whose data it holds (they see it through the catalogue's lineage).
    expect((await relations.http().get(`/api/relations/joining/?record1=${target.id}&record2=${derivative.id}`).set(auth.get(victim)!)).status).toBe(404);
    await grant('revoked', 4);
    expect(await joining()).toMatchObject({
      message: VALUES_WITHHELD,
      matching_headers: expect.arrayContaining([expect.objectContaining({ header_left: 'ssn', containment_left: 0, values_compared: false })]),
    });
    expect(await linkRows()).toBe(403);
    // A link revoked by the source's owner ends it the same way, grant or not.
    await grant('approved', 5);
    expect(await linkRows()).toBe(200);
    await relations.update(derivative, { derivedFrom: [{ recordId: target.id, terms: 'grant', requestId, revoked: true }] });
    await eventually(async () => expect(await linkRows()).toBe(403));
  });
});
