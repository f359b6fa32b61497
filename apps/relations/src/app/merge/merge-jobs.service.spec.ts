import { JobRequested, type JobRequestedPayload } from '@dc/contracts';
import { FieldValidationError } from '@dc/platform';
import { NO_ACCESS } from '../compare/relations.service';
import type { SketchedRecord } from '../records/related-record';
import { LINK_STARTED, MERGE_STARTED, MergeJobsService, NO_HASHED_COLUMNS } from './merge-jobs.service';
import { NOT_TABULAR } from './merge-scan.service';
import { column, mergeFakes, type MergeFakes, sketchedRecord, user } from './merge.fixture';

const owner = user('owner');
const colleague = user('colleague', owner.organisationId);
const stranger = user('stranger');

const rainfall = sketchedRecord({ name: 'Rainfall', owner, tables: [[column(0, 'station_id'), column(1, 'mm')]] });
const stations = sketchedRecord({ name: 'Stations', owner, tables: [[column(0, 'id'), column(1, 'name', { type: 'text' })]] });
const gauges = sketchedRecord({ name: 'Gauges', owner, tables: [[column(0, 'gauge'), column(1, 'station')]] });
/** Another organisation's record that everyone sees and may download only through an approved request. */
const census = sketchedRecord({ name: 'Census', owner: stranger, visibility: 'EV', access: 'RE', tables: [[column(0, 'id')]] });
/** Another organisation's private record: the owner's side never sees it. */
const secret = sketchedRecord({ name: 'Secret', owner: stranger, tables: [[column(0, 'id')]] });
const survey = sketchedRecord({ name: 'Survey', owner, fileName: 'survey.pdf', contentType: 'application/pdf', tables: [[column(0, 'id')]] });
const gone = sketchedRecord({ name: 'Gone', owner, storageKey: null, tables: [[column(0, 'id')]] });
const hashed = (name: string, who = owner) =>
  sketchedRecord({ name, owner: who, tables: [[column(0, 'Year', { privacy: 'hashed' }), column(1, 'Mean', { privacy: 'masked', type: 'float' })]] });

const pair = (left: SketchedRecord, right: SketchedRecord, header_left: string, header_right: string) => ({
  record_left: left.record.id,
  record_right: right.record.id,
  header_left,
  header_right,
});

describe('MergeJobsService (fake repositories)', () => {
  let grants: MergeFakes['grants'];
  let jobEvents: MergeFakes['jobEvents'];
  let service: MergeJobsService;
  const requested = () => jobEvents.events.map((event) => ({ type: event.type, key: event.key, payload: event.payload as JobRequestedPayload }));

  const start = (...extra: SketchedRecord[]) => {
    const { repositories, ...fakes } = mergeFakes(rainfall, stations, gauges, census, secret, survey, gone, ...extra);
    ({ grants, jobEvents } = fakes);
    service = new MergeJobsService(repositories.records, repositories.access, repositories.jobEvents);
  };
  beforeEach(() => start());

  describe('merge-features', () => {
    it("asks for one MERGE job per pair of records, on every distinct field pair chosen, in the caller's name", async () => {
      const chosen = [pair(rainfall, stations, 'station_id', 'id'), pair(rainfall, stations, 'station_id', 'id'), pair(rainfall, stations, 'mm', 'name')];
      const answer = await service.mergeFeatures(owner, chosen, 'horizontal');

      expect(answer).toEqual({
        nodata: false,
        nottabular: false,
        nomatches: false,
        newmerges: [
          {
            job_id: expect.any(String),
            type: 'MERGE',
            record_left_id: rainfall.record.id,
            record_left_name: 'Rainfall',
            record_right_id: stations.record.id,
            record_right_name: 'Stations',
          },
        ],
        messages: [MERGE_STARTED],
      });
      // The job leaves as job.requested through the outbox, keyed by the job id the answer names.
      expect(requested()).toEqual([{ type: JobRequested.type, key: answer.newmerges[0].job_id, payload: expect.any(Object) }]);
      const [{ payload }] = requested();
      expect(payload).toMatchObject({
        jobId: answer.newmerges[0].job_id,
        type: 'MERGE',
        owner: { userId: owner.id, username: 'owner', organisationId: owner.organisationId, clientType: 'STANDARD', groups: [3] },
        left: { recordId: rainfall.record.id, name: 'Rainfall', fileId: rainfall.files[0].fileId, storageKey: rainfall.files[0].storageKey, terms: 'own' },
        right: { recordId: stations.record.id, name: 'Stations', fileId: stations.files[0].fileId, terms: 'own', requestId: null, grantExpiresAt: null },
        merge: {
          mergeType: 'horizontal',
          pairs: [
            { left: 'station_id', right: 'id' },
            { left: 'mm', right: 'name' },
          ],
        },
        info: 'Merge of Rainfall and Stations: horizontal merge on station_id = id, mm = name.',
      });
    });

    it('asks for the jobs of several record pairs in one transaction; the same record on both sides is no pair', async () => {
      const answer = await service.mergeFeatures(owner, [pair(rainfall, stations, 'station_id', 'id'), pair(gauges, stations, 'station', 'id')], 'vertical');
      expect(answer.newmerges.map((job) => [job.record_left_name, job.record_right_name])).toEqual([
        ['Rainfall', 'Stations'],
        ['Gauges', 'Stations'],
      ]);
      expect(jobEvents.batches).toHaveLength(1);
      expect(jobEvents.batches[0].map((event) => event.key)).toEqual(answer.newmerges.map((job) => job.job_id));
      expect(requested()[1].payload.info).toBe('Merge of Gauges and Stations: vertical merge on station = id.');

      await service.mergeFeatures(owner, [pair(stations, stations, 'id', 'id')], 'vertical');
      // The same record on both sides is no pair: no job.
      expect(jobEvents.batches).toHaveLength(1);
    });

    it('lets a colleague of the same organisation see but not merge records on request, and says so', async () => {
      const answer = await service.mergeFeatures(colleague, [pair(rainfall, stations, 'station_id', 'id')], 'horizontal');
      expect(answer).toEqual({ nodata: true, nottabular: false, nomatches: false, newmerges: [], messages: [NO_ACCESS] });
      expect(jobEvents.events).toEqual([]);
    });

    it('answers a record the caller may not see exactly as one they may not download, and asks for no job', async () => {
      const hidden = await service.mergeFeatures(owner, [pair(rainfall, secret, 'station_id', 'id')], 'horizontal');
      const unknown = await service.mergeFeatures(owner, [{ ...pair(rainfall, secret, 'station_id', 'id'), record_right: 'no-such-record' }], 'horizontal');
      const onRequest = await service.mergeFeatures(owner, [pair(rainfall, census, 'station_id', 'id')], 'horizontal');
      for (const answer of [hidden, unknown, onRequest])
        expect(answer).toEqual({ nodata: true, nottabular: false, nomatches: false, newmerges: [], messages: [NO_ACCESS] });
      expect(jobEvents.events).toEqual([]);
    });

    it('reads a record through an approved request under grant terms, naming the request and when it ends', async () => {
      const grant = grants.approve(census.record.id, owner.id, { requestId: 'request-7', expiresAt: new Date('2027-01-31T00:00:00.000Z') });
      const answer = await service.mergeFeatures(owner, [pair(rainfall, census, 'station_id', 'id')], 'horizontal');
      expect(answer.messages).toEqual([MERGE_STARTED]);
      expect(requested()[0].payload.right).toMatchObject({
        recordId: census.record.id,
        terms: 'grant',
        requestId: grant.requestId,
        grantExpiresAt: '2027-01-31T00:00:00.000Z',
      });
      expect(requested()[0].payload.left).toMatchObject({ terms: 'own', requestId: null });

      // Revoked, the grant lets nothing more be merged.
      grants.revoke(census.record.id, owner.id);
      expect((await service.mergeFeatures(owner, [pair(rainfall, census, 'station_id', 'id')], 'horizontal')).nodata).toBe(true);
    });

    it("merges a derivative of someone else's data only while its lineage holds", async () => {
      const grant = { requestId: 'request-1', expiresAt: null };
      const derived = sketchedRecord({
        name: 'Derived',
        owner,
        ownerOnly: true,
        derivedFrom: [{ recordId: census.record.id, terms: 'grant', requestId: grant.requestId, revoked: false }],
        tables: [[column(0, 'id')]],
      });
      start(derived);
      grants.approve(census.record.id, owner.id, grant);
      expect((await service.mergeFeatures(owner, [pair(rainfall, derived, 'station_id', 'id')], 'horizontal')).messages).toEqual([MERGE_STARTED]);

      // A new approval is not the one the derivative was made under: its data is no longer the maker's to read.
      grants.approve(census.record.id, owner.id, { requestId: 'a-later-request', expiresAt: null });
      expect((await service.mergeFeatures(owner, [pair(rainfall, derived, 'station_id', 'id')], 'horizontal')).messages).toEqual([NO_ACCESS]);
    });

    it('leaves out data that is not stored delimited text, or fields not in one table of it (nottabular)', async () => {
      const split = sketchedRecord({ name: 'Split', owner, tables: [[column(0, 'station_id')], [column(0, 'mm')]] });
      start(split);
      for (const chosen of [
        [pair(rainfall, survey, 'station_id', 'id')],
        [pair(rainfall, gone, 'station_id', 'id')],
        [pair(split, stations, 'station_id', 'id'), pair(split, stations, 'mm', 'name')],
        [pair(rainfall, stations, 'station_id', 'no-such-header')],
      ]) {
        expect(await service.mergeFeatures(owner, chosen, 'horizontal')).toEqual({
          nodata: false,
          nottabular: true,
          nomatches: false,
          newmerges: [],
          messages: [NOT_TABULAR],
        });
      }
      expect(jobEvents.events).toEqual([]);
    });

    it('starts what it can and says what it left out, in the spec order of the messages', async () => {
      const chosen = [pair(rainfall, survey, 'station_id', 'id'), pair(rainfall, secret, 'station_id', 'id'), pair(rainfall, stations, 'station_id', 'id')];
      const answer = await service.mergeFeatures(owner, chosen, 'horizontal');
      expect(answer).toMatchObject({ nodata: true, nottabular: true, nomatches: false, messages: [NOT_TABULAR, NO_ACCESS, MERGE_STARTED] });
      expect(answer.newmerges.map((job) => job.record_right_id)).toEqual([stations.record.id]);
    });

    it('answers nothing as started when the job could not be written down', async () => {
      jobEvents.failure = new Error('the database went away');
      await expect(service.mergeFeatures(owner, [pair(rainfall, stations, 'station_id', 'id')], 'horizontal')).rejects.toThrow('the database went away');
      expect(jobEvents.events).toEqual([]);
    });
  });

  describe('merge-enc-cols and link-records', () => {
    const global = hashed('Global');
    const maunaLoa = hashed('Mauna Loa');
    const strangers = hashed('Strangers', stranger);
    beforeEach(() => start(global, maunaLoa, strangers));

    it('merges two records on the hashed headers both hold, horizontally unless told', async () => {
      const answer = await service.mergeHashedColumns(owner, global.record.id, maunaLoa.record.id);
      expect(answer.messages).toEqual([MERGE_STARTED]);
      expect(answer.newmerges).toEqual([expect.objectContaining({ type: 'MERGE', record_left_id: global.record.id, record_right_id: maunaLoa.record.id })]);
      expect(requested()[0].payload).toMatchObject({ merge: { mergeType: 'horizontal', pairs: [{ left: 'Year', right: 'Year' }] } });
      expect(requested()[0].payload.info).toBe('Merge of Global and Mauna Loa: horizontal merge on Year.');

      await service.mergeHashedColumns(owner, global.record.id, maunaLoa.record.id, 'vertical');
      expect(requested()[1].payload.merge?.mergeType).toBe('vertical');
    });

    it('links the rows of two records on their hashed columns: a LINK job, without merge settings', async () => {
      const answer = await service.link(owner, global.record.id, maunaLoa.record.id);
      expect(answer).toMatchObject({ nodata: false, nottabular: false, messages: [LINK_STARTED] });
      expect(answer.newmerges).toEqual([expect.objectContaining({ type: 'LINK', record_left_name: 'Global', record_right_name: 'Mauna Loa' })]);
      const [{ payload }] = requested();
      expect(payload).toMatchObject({ type: 'LINK', left: { recordId: global.record.id }, right: { recordId: maunaLoa.record.id } });
      expect(payload.merge).toBeUndefined();
      expect(payload.info).toBe('Link of Global and Mauna Loa: row linkage on the hashed columns.');
    });

    it('links on the column pairs the user chose when the hashed columns are named differently', async () => {
      const coded = sketchedRecord({ name: 'Coded', owner, tables: [[column(0, 'year', { privacy: 'hashed' }), column(1, 'mean', { type: 'float' })]] });
      start(global, maunaLoa, strangers, coded);
      const answer = await service.link(owner, global.record.id, coded.record.id, [{ header_left: 'Year', header_right: 'year' }]);
      expect(answer).toMatchObject({ messages: [LINK_STARTED] });
      const [{ payload }] = requested();
      expect(payload).toMatchObject({ type: 'LINK', link: { pairs: [{ left: 'Year', right: 'year' }] } });
      expect(payload.info).toBe('Link of Global and Coded: row linkage on Year = year.');
    });

    it('refuses chosen pairs naming a column a record does not have, or pairing a hashed column with a plain one', async () => {
      const coded = sketchedRecord({ name: 'Coded', owner, tables: [[column(0, 'year', { privacy: 'hashed' }), column(1, 'mean', { type: 'float' })]] });
      start(global, maunaLoa, strangers, coded);
      const error = await service
        .link(owner, global.record.id, coded.record.id, [
          { header_left: 'Year', header_right: 'mean' },
          { header_left: 'Month', header_right: 'year' },
        ])
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect((error as FieldValidationError).getResponse()).toEqual({
        pairs: ['Year and mean cannot be linked: one is hashed and the other is not.', 'Global has no column Month.'],
      });
      expect(jobEvents.events).toEqual([]);
    });

    it("answers 400 with the spec's text when records the caller sees share no hashed column", async () => {
      for (const call of [
        () => service.link(owner, global.record.id, rainfall.record.id),
        () => service.mergeHashedColumns(owner, rainfall.record.id, stations.record.id),
      ]) {
        const error = await call().then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(FieldValidationError);
        expect((error as FieldValidationError).getStatus()).toBe(400);
        expect((error as FieldValidationError).getResponse()).toEqual({ non_field_errors: [NO_HASHED_COLUMNS] });
      }
      expect(jobEvents.events).toEqual([]);
    });

    it('refuses records the caller may not read as no access, without a word about their columns', async () => {
      // The stranger's record is private: whether it has hashed columns in common is not the owner's to learn.
      for (const answer of [
        await service.link(owner, global.record.id, strangers.record.id),
        await service.mergeHashedColumns(owner, global.record.id, strangers.record.id),
        await service.link(stranger, global.record.id, maunaLoa.record.id),
      ])
        expect(answer).toEqual({ nodata: true, nottabular: false, nomatches: false, newmerges: [], messages: [NO_ACCESS] });
      expect(jobEvents.events).toEqual([]);
    });
  });
});
