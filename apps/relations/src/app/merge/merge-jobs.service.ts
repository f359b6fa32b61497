import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  createEvent,
  JobRequested,
  type JobSource,
  type JobType,
  mergePairsText,
  type MergeType,
  sourceTermsFor,
  type TableSketchPayload,
} from '@dc/contracts';
import { type AuthUser, currentCorrelationId, FieldValidationError } from '@dc/platform';
import { RecordAccess } from '../access/record-access.service';
import { NO_ACCESS } from '../compare/relations.service';
import type { Answer } from '../compare/responses';
import type { FileSketch, SketchedRecord } from '../records/related-record';
import { RecordsRepository } from '../records/records.repository';
import { JobEventsRepository } from './job-events.repository';
import { NO_MATCHING_VALUES, NOT_TABULAR } from './merge-scan.service';
import type { jobsStartedResponseSchema } from './merge.dto';

export { NO_MATCHING_VALUES };
export const MERGE_STARTED = 'New merge job was successfully initiated.';
export const LINK_STARTED = 'New link job was successfully initiated.';
export const NO_HASHED_COLUMNS = 'These records have no hashed columns in common.';

export interface ChosenPair {
  record_left: string;
  record_right: string;
  header_left: string;
  header_right: string;
}

interface JobPlan {
  type: JobType;
  left: JobSource;
  right: JobSource;
  merge?: { mergeType: MergeType; pairs: Array<{ left: string; right: string }> };
  link?: { pairs: Array<{ left: string; right: string }> };
}

interface NewJob {
  job_id: string;
  type: JobType;
  record_left_id: string;
  record_left_name: string;
  record_right_id: string;
  record_right_name: string;
}

/** Files whose rows a merge reads: delimited text (CSV and the like), stored in the product. */
export const isDelimitedText = (file: FileSketch) => !!file.storageKey && (/\.(csv|tsv)$/i.test(file.fileName) || /csv|tab-separated/i.test(file.contentType));

/** The stored delimited-text file of a record, and its table, holding all these headers: the one a merge reads (and its preview describes). */
export function mergedTableOf(record: SketchedRecord, headers: string[]): { file: FileSketch; table: TableSketchPayload } | null {
  for (const file of record.files.filter(isDelimitedText)) {
    const table = file.tables.find((t) => headers.every((h) => t.columns.some((c) => c.header === h)));
    if (table) return { file, table };
  }
  return null;
}

/** The merge's source in a record: the file holding all these headers (in one table), if any. */
function tabularSource(record: SketchedRecord, headers: string[]): JobSource | null {
  const found = mergedTableOf(record, headers);
  if (!found) return null;
  const { file } = found;
  return {
    recordId: record.record.id,
    name: record.record.name,
    fileId: file.fileId,
    fileName: file.fileName,
    storageKey: file.storageKey!,
    terms: null,
    requestId: null,
    grantExpiresAt: null,
  };
}

/**
 * Starts MERGE and LINK jobs (spec: merge-features, merge-enc-cols, the work area's Link Datasets).
 * Everything about who may read what is decided here, when the job is asked for: a record the
 * caller may not see or download takes no part ("You do not have access to those data."), nor does
 * data that is not tabular. The job itself goes to the job workers as job.requested, through the
 * outbox, in the caller's name.
 */
@Injectable()
export class MergeJobsService {
  constructor(
    private readonly records: RecordsRepository,
    private readonly access: RecordAccess,
    private readonly jobEvents: JobEventsRepository,
  ) {}

  /** One MERGE job per pair of records, joining (or stacking) on all the pairs chosen for it. */
  async mergeFeatures(user: AuthUser, chosen: ChosenPair[], mergeType: MergeType) {
    const byRecords = new Map<string, ChosenPair[]>();
    for (const pair of chosen) {
      const key = `${pair.record_left}|${pair.record_right}`;
      const pairs = byRecords.get(key) ?? [];
      if (!pairs.some((p) => p.header_left === pair.header_left && p.header_right === pair.header_right)) pairs.push(pair);
      byRecords.set(key, pairs);
    }
    const outcome = { nodata: false, nottabular: false, nomatches: false };
    const jobs: JobPlan[] = [];
    for (const pairs of byRecords.values()) {
      const fields = pairs.map((p) => ({ left: p.header_left, right: p.header_right }));
      const planned = await this.plan(user, pairs[0].record_left, pairs[0].record_right, fields);
      if ('refused' in planned) outcome[planned.refused] = true;
      else jobs.push({ type: 'MERGE', ...planned, merge: { mergeType, pairs: fields } });
    }
    return this.answer(outcome, await this.request(user, jobs));
  }

  /** merge-enc-cols: a horizontal (or chosen) merge of two records on the hashed columns they share by header. */
  async mergeHashedColumns(user: AuthUser, leftId: string, rightId: string, mergeType: MergeType = 'horizontal') {
    const fields = await this.sharedHashedHeaders(user, leftId, rightId);
    const outcome = { nodata: false, nottabular: false, nomatches: false };
    const planned = await this.plan(user, leftId, rightId, fields);
    if ('refused' in planned) {
      outcome[planned.refused] = true;
      return this.answer(outcome, []);
    }
    return this.answer(outcome, await this.request(user, [{ type: 'MERGE', ...planned, merge: { mergeType, pairs: fields } }]));
  }

  /**
   * Link Datasets: a LINK job matching the two records' rows on their hashed columns, or on the
   * column pairs the user chose (hashed columns named differently: country_code and Country Code).
   */
  async link(user: AuthUser, leftId: string, rightId: string, chosen?: Array<{ header_left: string; header_right: string }>) {
    const fields = chosen ? await this.chosenColumns(user, leftId, rightId, chosen) : await this.sharedHashedHeaders(user, leftId, rightId);
    const planned = await this.plan(user, leftId, rightId, fields);
    const outcome = { nodata: false, nottabular: false, nomatches: false };
    if ('refused' in planned) {
      outcome[planned.refused] = true;
      return this.answer(outcome, []);
    }
    return this.answer(outcome, await this.request(user, [{ type: 'LINK', ...planned, ...(chosen && { link: { pairs: fields } }) }]), LINK_STARTED);
  }

  /**
   * The column pairs a user chose for linking, checked against the records' columns (names are
   * metadata: said only of records the caller sees): each must exist, and a hashed column pairs
   * only with a hashed one (their keyed hashes match nothing else).
   */
  private async chosenColumns(user: AuthUser, leftId: string, rightId: string, chosen: Array<{ header_left: string; header_right: string }>) {
    const records = await this.records.sketched([leftId, rightId]);
    const [left, right] = [leftId, rightId].map((id) => records.find((r) => r.record.id === id && this.access.canView(r.record, user)));
    const fields = chosen
      .map((p) => ({ left: p.header_left, right: p.header_right }))
      .filter((p, i, all) => all.findIndex((q) => q.left === p.left && q.right === p.right) === i);
    if (!left || !right) return fields;
    const columnOf = (record: SketchedRecord, header: string) =>
      record.files.flatMap((f) => f.tables.flatMap((t) => t.columns)).find((c) => c.header === header);
    const errors: string[] = [];
    for (const pair of fields) {
      const [a, b] = [columnOf(left, pair.left), columnOf(right, pair.right)];
      if (!a) errors.push(`${left.record.name} has no column ${pair.left}.`);
      if (!b) errors.push(`${right.record.name} has no column ${pair.right}.`);
      if (a && b && (a.privacy === 'hashed') !== (b.privacy === 'hashed'))
        errors.push(`${pair.left} and ${pair.right} cannot be linked: one is hashed and the other is not.`);
    }
    if (errors.length > 0) throw new FieldValidationError({ pairs: errors });
    return fields;
  }

  /** The headers hashed in both records (spec: enc_headers), paired by name; 400 when there are none. */
  private async sharedHashedHeaders(user: AuthUser, leftId: string, rightId: string) {
    const [left, right] = await this.records.findRecords([leftId, rightId]).then((found) => [leftId, rightId].map((id) => found.find((r) => r.id === id)));
    const visible = [left, right].every((r) => r && this.access.canView(r, user));
    const shared = visible ? left!.encryptedHeaders.filter((h) => right!.encryptedHeaders.includes(h)) : [];
    if (visible && shared.length === 0) throw new FieldValidationError({ non_field_errors: [NO_HASHED_COLUMNS] });
    return shared.map((h) => ({ left: h, right: h }));
  }

  /** Both sides' sources, or why this pair takes no part (records unseen or not downloadable read as no access). */
  private async plan(
    user: AuthUser,
    leftId: string,
    rightId: string,
    fields: Array<{ left: string; right: string }>,
  ): Promise<{ left: JobSource; right: JobSource } | { refused: 'nodata' | 'nottabular' }> {
    const records = await this.records.sketched([leftId, rightId]);
    const left = records.find((r) => r.record.id === leftId);
    const right = records.find((r) => r.record.id === rightId);
    if (!left || !right || leftId === rightId) return { refused: 'nodata' };
    for (const side of [left, right]) if (!(await this.access.canDownload(side.record, user))) return { refused: 'nodata' };
    const leftSource = tabularSource(
      left,
      fields.map((f) => f.left),
    );
    const rightSource = tabularSource(
      right,
      fields.map((f) => f.right),
    );
    if (!leftSource || !rightSource) return { refused: 'nottabular' };
    return { left: await this.withTerms(leftSource, left.record, user), right: await this.withTerms(rightSource, right.record, user) };
  }

  /**
   * The terms the caller reads the source under (lineage: the merged record keeps them), with the
   * approved request that lets them read it when nothing else does.
   */
  private async withTerms(source: JobSource, record: SketchedRecord['record'], user: AuthUser): Promise<JobSource> {
    const terms = sourceTermsFor(record, user);
    const grant = terms === 'grant' ? await this.access.activeGrant(record, user) : null;
    return { ...source, terms, requestId: grant?.requestId ?? null, grantExpiresAt: grant?.expiresAt?.toISOString() ?? null };
  }

  private async request(user: AuthUser, jobs: JobPlan[]): Promise<NewJob[]> {
    if (jobs.length === 0) return [];
    const correlationId = currentCorrelationId();
    const owner = { userId: user.id, username: user.username, organisationId: user.organisationId, clientType: user.clientType, groups: user.groups };
    const created = jobs.map((job) => ({ ...job, jobId: randomUUID() }));
    await this.jobEvents.publish(
      ...created.map((job) => {
        const how = job.merge
          ? `${job.merge.mergeType} merge on ${mergePairsText(job.merge.pairs)}`
          : job.link
            ? `row linkage on ${mergePairsText(job.link.pairs)}`
            : 'row linkage on the hashed columns';
        return createEvent(
          JobRequested,
          job.jobId,
          { ...job, owner, info: `${job.type === 'MERGE' ? 'Merge' : 'Link'} of ${job.left.name} and ${job.right.name}: ${how}.` },
          { correlationId },
        );
      }),
    );
    return created.map((job) => ({
      job_id: job.jobId,
      type: job.type,
      record_left_id: job.left.recordId,
      record_left_name: job.left.name,
      record_right_id: job.right.recordId,
      record_right_name: job.right.name,
    }));
  }

  private answer(
    outcome: { nodata: boolean; nottabular: boolean; nomatches: boolean },
    newmerges: NewJob[],
    started = MERGE_STARTED,
  ): Answer<typeof jobsStartedResponseSchema> {
    const messages = [...(outcome.nottabular ? [NOT_TABULAR] : []), ...(outcome.nodata ? [NO_ACCESS] : []), ...(newmerges.length ? [started] : [])];
    return { ...outcome, newmerges, messages };
  }
}
