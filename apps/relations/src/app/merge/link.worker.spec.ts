import { createEvent, type EventEnvelope, JobCompleted, JobProgressed, JobRequested, type JobRequestedPayload } from '@dc/contracts';
import type { EventBus, EventHandler } from '@dc/messaging';
import { createLogger, GENERIC_ERROR } from '@dc/platform';
import { RelationsService } from '../compare/relations.service';
import type { RowReader } from '../rows/row-reader';
import type { RecordColumn } from '../scoring/columns';
import type { LinkColumnRows } from '../scoring/row-linkage';
import type { Lexicon } from '../wordnet/lexicon';
import type { SketchedRecord } from '../records/related-record';
import { LINK_JOB_PAIRS, LINK_WORKERS_GROUP, LinkWorker, noLinksFound, recordRemoved } from './link.worker';
import { column, mergeFakes, type MergeFakes, sketchedRecord, user } from './merge.fixture';

const owner = user('owner');
const stranger = user('stranger');

const years = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => 1000 + from + i);
/** Hashed Year columns: rows of 1960-1979 on the left, 1950-1989 on the right (value hashes stand in for keyed hashes). */
const leftYears = years(960, 979);
const rightYears = years(950, 989);
const hashedYears = (name: string, values: number[], who = owner) =>
  sketchedRecord({ name, owner: who, rows: values.length, tables: [[column(0, 'Year', { privacy: 'hashed', values })]] });
const global = hashedYears('Global', leftYears);
/** Someone else's private record: the job was allowed when it was asked for, so the worker reads it. */
const maunaLoa = hashedYears('Mauna Loa', rightYears, stranger);
const plain = sketchedRecord({ name: 'Plain', owner, tables: [[column(0, 'Station', { type: 'text', values: [1, 2, 3] })]] });

/** The row-hash indexes (RowReader): one value hash per row of each column asked for, or null when the file is gone. */
class FakeRowReader implements Pick<RowReader, 'read'> {
  readonly rows = new Map<string, number[]>();
  failure: Error | null = null;
  reads = 0;

  async read(columns: RecordColumn[]): Promise<LinkColumnRows[] | null> {
    this.reads++;
    if (this.failure) throw this.failure;
    const found = columns.map((c) => this.rows.get(c.fileId));
    if (found.some((rows) => !rows)) return null;
    return columns.map((c, i) => ({ header: c.sketch.header, hashes: Float64Array.from(found[i]!) }));
  }
}

/** The bus: the worker's subscription, to deliver job.requested to. */
class FakeBus implements Pick<EventBus, 'subscribe'> {
  readonly subscriptions: Array<{ group: string; types: string[]; handler: EventHandler }> = [];
  async subscribe(group: string, types: string[], handler: EventHandler): Promise<void> {
    this.subscriptions.push({ group, types, handler });
  }
  deliver(event: EventEnvelope): Promise<void> {
    return this.subscriptions[0].handler(event);
  }
}

const sourceOf = (record: SketchedRecord) => ({
  recordId: record.record.id,
  name: record.record.name,
  fileId: record.files[0].fileId,
  fileName: record.files[0].fileName,
  storageKey: record.files[0].storageKey!,
  terms: 'own' as const,
  requestId: null,
  grantExpiresAt: null,
});
const job = (type: 'LINK' | 'MERGE', left: SketchedRecord, right: SketchedRecord): JobRequestedPayload => ({
  jobId: globalThis.crypto.randomUUID(),
  type,
  owner: { userId: owner.id, username: owner.username, organisationId: owner.organisationId, clientType: owner.clientType, groups: owner.groups },
  left: sourceOf(left),
  right: sourceOf(right),
  ...(type === 'MERGE' && { merge: { mergeType: 'horizontal' as const, pairs: [{ left: 'Year', right: 'Year' }] } }),
  info: `${type} of ${left.record.name} and ${right.record.name}`,
});

/** job.completed as its contract fills it in (the fields the worker leaves out take their defaults). */
const completed = (payload: Parameters<typeof JobCompleted.payload.parse>[0]) => JobCompleted.payload.parse(payload);

describe('LinkWorker (fake repositories)', () => {
  let records: MergeFakes['records'];
  let rows: FakeRowReader;
  let jobEvents: MergeFakes['jobEvents'];
  let bus: FakeBus;
  let worker: LinkWorker;
  /** What the worker reported of each job, in order: the states the job moved through. */
  const reports = () =>
    jobEvents.batches.map((batch) => {
      expect(batch).toHaveLength(1);
      const [event] = batch;
      return { type: event.type, key: event.key, payload: event.payload as Record<string, unknown> };
    });

  beforeEach(() => {
    const { repositories, ...fakes } = mergeFakes(global, maunaLoa, plain);
    ({ records, jobEvents } = fakes);
    rows = new FakeRowReader();
    for (const record of [global, maunaLoa]) rows.rows.set(record.files[0].fileId, record === global ? leftYears : rightYears);
    bus = new FakeBus();
    const lexicon = { similarity: (a: string, b: string) => (a.toLowerCase() === b.toLowerCase() ? 1 : 0) } as unknown as Lexicon;
    const relations = new RelationsService(repositories.records, repositories.access, lexicon, rows as unknown as RowReader);
    const logger = createLogger({ service: 'link-worker-test', level: 'silent' });
    worker = new LinkWorker(bus as unknown as EventBus, repositories.records, relations, repositories.jobEvents, logger);
  });

  it('takes LINK jobs from job.requested in its consumer group, and leaves MERGE jobs to the merge workers', async () => {
    await worker.onApplicationBootstrap();
    expect(bus.subscriptions.map(({ group, types }) => ({ group, types }))).toEqual([{ group: LINK_WORKERS_GROUP, types: [JobRequested.type] }]);

    const merge = job('MERGE', global, maunaLoa);
    await bus.deliver(createEvent(JobRequested, merge.jobId, merge));
    expect(jobEvents.events).toEqual([]);
    expect(rows.reads).toBe(0);

    const link = job('LINK', global, maunaLoa);
    await bus.deliver(createEvent(JobRequested, link.jobId, link));
    expect(reports().map((r) => [r.type, r.key])).toEqual([
      [JobProgressed.type, link.jobId],
      [JobCompleted.type, link.jobId],
    ]);
  });

  it('moves a job from progressed (1 of 2) to done, with the row pairs, most probable first, and both row counts', async () => {
    const link = job('LINK', global, maunaLoa);
    await worker.run(link);

    const [progressed, completed] = reports();
    expect(progressed).toEqual({ type: JobProgressed.type, key: link.jobId, payload: { jobId: link.jobId, current: 1, total: 2 } });
    expect(completed.type).toBe(JobCompleted.type);
    const done = JobCompleted.payload.parse(completed.payload);
    // Every left year is in the right table: rows 0-19 on the left, 10-29 on the right.
    expect(done).toMatchObject({ jobId: link.jobId, status: 'done', info: 'Linked 20 row pairs of Global and Mauna Loa.', totRows: { left: 20, right: 40 } });
    expect(done.matches).toHaveLength(20);
    expect(done.matches.map((m) => [m.rowA, m.rowB]).sort((a, b) => a[0] - b[0])).toEqual(Array.from({ length: 20 }, (_, i) => [i, 10 + i]));
    expect(done.matches.every((m) => m.fieldsA[0] === 'Year' && m.fieldsB[0] === 'Year' && m.rows_match_prob > 0.5)).toBe(true);
    const probabilities = done.matches.map((m) => m.rows_match_prob);
    expect(probabilities).toEqual([...probabilities].sort((a, b) => b - a));
  });

  it('links on the column pairs the user chose, whatever their names (job.requested link.pairs)', async () => {
    // Year as well: left to itself, the linkage would pair Year with Year.
    const coded = sketchedRecord({
      name: 'Coded',
      owner,
      rows: rightYears.length,
      tables: [[column(0, 'yr', { privacy: 'hashed', values: rightYears }), column(1, 'Year', { privacy: 'hashed', values: rightYears })]],
    });
    const { repositories, ...fakes } = mergeFakes(global, coded);
    ({ records, jobEvents } = fakes);
    rows.rows.set(coded.files[0].fileId, rightYears);
    const lexicon = { similarity: () => 0 } as unknown as Lexicon;
    const relations = new RelationsService(repositories.records, repositories.access, lexicon, rows as unknown as RowReader);
    worker = new LinkWorker(
      bus as unknown as EventBus,
      repositories.records,
      relations,
      repositories.jobEvents,
      createLogger({ service: 't', level: 'silent' }),
    );
    await worker.run({ ...job('LINK', global, coded), link: { pairs: [{ left: 'Year', right: 'yr' }] } });
    const done = JobCompleted.payload.parse(reports()[1].payload);
    expect(done).toMatchObject({ status: 'done', info: 'Linked 20 row pairs of Global and Coded.' });
    expect(done.matches.every((m) => m.fieldsA.join() === 'Year' && m.fieldsB.join() === 'yr')).toBe(true);
  });

  it(`keeps at most ${LINK_JOB_PAIRS} row pairs`, async () => {
    const many = years(0, LINK_JOB_PAIRS + 199);
    const [left, right] = [hashedYears('Left', many), hashedYears('Right', many)];
    const { repositories, ...fakes } = mergeFakes(left, right);
    ({ records, jobEvents } = fakes);
    rows.rows.set(left.files[0].fileId, many);
    rows.rows.set(right.files[0].fileId, many);
    worker = new LinkWorker(
      bus as unknown as EventBus,
      repositories.records,
      new RelationsService(repositories.records, repositories.access, { similarity: () => 1 } as unknown as Lexicon, rows as unknown as RowReader),
      repositories.jobEvents,
      createLogger({ service: 'link-worker-test', level: 'silent' }),
    );
    await worker.run(job('LINK', left, right));
    const done = JobCompleted.payload.parse(reports()[1].payload);
    expect(done.matches).toHaveLength(LINK_JOB_PAIRS);
    expect(done.info).toBe(`Linked ${LINK_JOB_PAIRS} row pairs of Left and Right.`);
  });

  it('is done with "No links found" when no rows link: no columns in common, or files no longer stored', async () => {
    const noColumns = job('LINK', global, plain);
    await worker.run(noColumns);
    rows.rows.delete(maunaLoa.files[0].fileId);
    const filesGone = job('LINK', global, maunaLoa);
    await worker.run(filesGone);

    const completions = reports().filter((r) => r.type === JobCompleted.type);
    expect(completions.map((r) => r.payload)).toEqual([
      completed({ jobId: noColumns.jobId, status: 'done', info: noLinksFound('Global', 'Plain'), matches: [], totRows: { left: 20, right: 10 } }),
      completed({ jobId: filesGone.jobId, status: 'done', info: noLinksFound('Global', 'Mauna Loa'), matches: [], totRows: { left: 20, right: 40 } }),
    ]);
    expect(noLinksFound('Global', 'Plain')).toBe('No links found between Global and Plain');
  });

  it('fails a job whose record was deleted since it was asked for, naming the record, without progress', async () => {
    const link = job('LINK', global, maunaLoa);
    records.delete(maunaLoa.record.id);
    await worker.run(link);
    expect(reports()).toEqual([
      { type: JobCompleted.type, key: link.jobId, payload: completed({ jobId: link.jobId, status: 'failed', info: recordRemoved('Mauna Loa') }) },
    ]);
    expect(recordRemoved('Mauna Loa')).toBe('The record Mauna Loa was removed from the product.');
    expect(rows.reads).toBe(0);
  });

  it('fails with the generic text when linking breaks, so nothing of the cause reaches the user', async () => {
    rows.failure = new Error('disk on fire at /secret/path');
    const link = job('LINK', global, maunaLoa);
    await worker.run(link);
    expect(reports().map((r) => r.payload)).toEqual([
      { jobId: link.jobId, current: 1, total: 2 },
      completed({ jobId: link.jobId, status: 'failed', info: GENERIC_ERROR }),
    ]);
  });

  it('runs a redelivered job again (the registry keeps the first completion)', async () => {
    const link = job('LINK', global, maunaLoa);
    await worker.run(link);
    await worker.run(link);
    expect(reports().map((r) => [r.type, r.key, r.payload.status])).toEqual([
      [JobProgressed.type, link.jobId, undefined],
      [JobCompleted.type, link.jobId, 'done'],
      [JobProgressed.type, link.jobId, undefined],
      [JobCompleted.type, link.jobId, 'done'],
    ]);
  });
});
