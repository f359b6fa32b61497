import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@dc/platform';
import { RecordAccess } from '../access/record-access.service';
import { NO_ACCESS, RelationsService } from '../compare/relations.service';
import type { Answer } from '../compare/responses';
import type { SketchedRecord } from '../records/related-record';
import { RecordsRepository } from '../records/records.repository';
import { columnsOf } from '../scoring/columns';
import { mergeCandidates } from '../scoring/merge-scan';
import { sightedBy } from '../scoring/value-sight';
import type { mergeScanResponseSchema } from './merge.dto';

export const NOT_TABULAR = 'Some data cannot be merged. Please try tabular data like CSVs, XLS, Data Tables instead.';
export const NO_MATCHING_VALUES = 'Some merges had no matching values for the selected fields.';
/** Record pairs whose rows are linked for the Linking Columns table (the best ones by merge score). */
const LINKED_PAIRS = 3;

/**
 * POST get-merge-relations: scores candidate field pairs across the records of the work area (only
 * those the caller may see take part; others are treated as unknown) and fills the Linking Columns
 * table. Rows are read only from records the caller may download; the messages say what was left out.
 */
@Injectable()
export class MergeScanService {
  constructor(
    private readonly records: RecordsRepository,
    private readonly access: RecordAccess,
    private readonly relations: RelationsService,
  ) {}

  async scan(viewer: AuthUser, ids: string[]): Promise<Answer<typeof mergeScanResponseSchema>> {
    const unique = [...new Set(ids)];
    const found = (await this.records.sketched(unique)).filter((r) => this.access.canView(r.record, viewer));
    const downloadable = await this.access.downloadable(
      found.map((r) => r.record),
      viewer,
    );
    // Records the caller may not download take part by their headers and types only (scoring/value-sight.ts).
    const visible = found.map((r) => sightedBy(r, downloadable.has(r.record.id)));
    const tabular = visible.filter((r) => columnsOf(r).length > 0);
    const messages: string[] = [];
    if (tabular.length < visible.length) messages.push(NOT_TABULAR);
    if (visible.some((r) => !downloadable.has(r.record.id))) messages.push(NO_ACCESS);

    const merge_relations = mergeCandidates(tabular, this.relations.similarity);
    const pairs = new Map<string, [SketchedRecord, SketchedRecord]>();
    for (const candidate of merge_relations) {
      const key = `${candidate.record_left}|${candidate.record_right}`;
      if (pairs.has(key) || pairs.size >= LINKED_PAIRS) continue;
      const left = tabular.find((r) => r.record.id === candidate.record_left)!;
      const right = tabular.find((r) => r.record.id === candidate.record_right)!;
      pairs.set(key, [left, right]);
    }
    const linking_columns = [];
    for (const [left, right] of pairs.values()) {
      const link = await this.relations.link({ left, right, downloads: [downloadable.has(left.record.id), downloadable.has(right.record.id)] }, 10);
      linking_columns.push({
        record_left: left.record.id,
        record_left_name: left.record.name,
        record_right: right.record.id,
        record_right_name: right.record.name,
        ...link,
      });
    }
    // Said only from values the caller may read: of others, no match is as unknown as a match.
    const readLinks = linking_columns.filter((l) => downloadable.has(l.record_left) && downloadable.has(l.record_right));
    if (readLinks.length > 0 && readLinks.every((l) => l.matches.every((m) => m.total_matches === 0))) messages.push(NO_MATCHING_VALUES);
    return { records: visible.map((r) => ({ id: r.record.id, name: r.record.name })), merge_relations, linking_columns, messages };
  }
}
