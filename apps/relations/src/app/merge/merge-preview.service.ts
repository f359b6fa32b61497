import { Inject, Injectable, Optional } from '@nestjs/common';
import { type ColumnSketchPayload, type MergeType, mergeResultName, type TableSketchPayload } from '@dc/contracts';
import { APP_CONFIG, type AppConfig, type AuthUser } from '@dc/platform';
import { RecordAccess } from '../access/record-access.service';
import { NO_ACCESS } from '../compare/relations.service';
import type { Answer } from '../compare/responses';
import type { SketchedRecord } from '../records/related-record';
import { RecordsRepository } from '../records/records.repository';
import { distinctOf, overlapOf } from '../scoring/sketch-math';
import type { ChosenPair } from './merge-jobs.service';
import { mergedTableOf } from './merge-jobs.service';
import { NOT_TABULAR } from './merge-scan.service';
import type { mergePreviewResponseSchema } from './merge.dto';

type Preview = Answer<typeof mergePreviewResponseSchema>['previews'][number];

/** Some records could not be previewed: unknown, or not visible to the caller. */
export const PREVIEW_UNKNOWN = 'Some chosen records were not found.';
export const ESTIMATE_WITHHELD = 'The number of rows is not shown: you may not download both records, so the merge cannot start.';
/** Columns a sketch lists at most per file (file.sketched): a wider table has more. */
const SKETCHED_COLUMNS = 100;

/** The table of a record's stored delimited-text files holding all these headers (the one a merge reads). */
const mergedTable = (record: SketchedRecord, headers: string[]): TableSketchPayload | null => mergedTableOf(record, headers)?.table ?? null;

/** A right-side header in a horizontal merge: its own, unless the left side has it (as the merge engine names it). */
function rightHeaderName(header: string, rightName: string, taken: Set<string>): string {
  if (!taken.has(header)) return header;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${header} (${rightName})` : `${header} (${rightName} ${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The columns of a horizontal merge: every left column, then the right's unpaired ones (renamed where they clash). */
function joinedColumns(left: TableSketchPayload, right: TableSketchPayload, rightName: string, pairs: Array<{ left: string; right: string }>) {
  const leftHeaders = left.columns.map((c) => c.header);
  const paired = new Set(pairs.map((p) => p.right));
  const taken = new Set(leftHeaders);
  const kept = right.columns
    .filter((c) => !paired.has(c.header))
    .map((c) => {
      const as = rightHeaderName(c.header, rightName, taken);
      taken.add(as);
      return as;
    });
  return [...leftHeaders, ...kept];
}

/**
 * Rows of an inner join estimated from value sketches: each pair of columns keeps a left row and a
 * right row together with chance shared / (distinct left × distinct right) (values evenly spread),
 * the pairs independently; never more than the most selective pair alone allows. Null when a paired
 * column has no value sketch (masked columns).
 */
export function joinEstimate(left: { rows: number; columns: ColumnSketchPayload[] }, right: { rows: number; columns: ColumnSketchPayload[] }): number | null {
  let rows = left.rows * right.rows;
  let smallest = Infinity;
  for (let i = 0; i < left.columns.length; i++) {
    const [a, b] = [left.columns[i], right.columns[i]];
    if ([a, b].some((c) => c.privacy === 'masked' || (c.minhash.length === 0 && c.count > 0))) return null;
    const shared = overlapOf(a, b).shared;
    const [da, db] = [distinctOf(a), distinctOf(b)];
    if (shared === 0 || da === 0 || db === 0) return 0;
    rows *= shared / (da * db);
    // One pair alone: each shared value's left rows meet its right rows.
    smallest = Math.min(smallest, shared * (a.count / da) * (b.count / db));
  }
  return Math.round(Math.min(rows, smallest));
}

/** A paired column holds no values to estimate from. */
export const ESTIMATE_UNKNOWN = 'The number of rows cannot be estimated: a paired column is masked.';
/** The merge would pass the rows a merge may make (MERGE_MAX_ROWS): the job would stop with nothing kept. */
export const overLimitText = (maxRows: number, estimated: boolean) =>
  `${estimated ? 'Estimated at' : 'That is'} more than ${maxRows.toLocaleString('en')} rows, the most a merge may make: the merge would be stopped. ` +
  'Merge on columns whose values are unique in at least one of the records, or merge smaller parts of them.';

/**
 * POST merge-preview: what a merge of the chosen field pairs would make, before it starts: the new
 * record's name, its columns, and its rows. Column names and row counts are metadata (shown to
 * whoever sees the records); a join's rows are estimated from the paired columns' values, so they
 * are given only to a caller who may download both records (docs/metadata-before-access.md) — the
 * same caller the merge itself is for.
 */
@Injectable()
export class MergePreviewService {
  private readonly maxRows: number;

  constructor(
    private readonly records: RecordsRepository,
    private readonly access: RecordAccess,
    @Optional() @Inject(APP_CONFIG) config?: Pick<AppConfig, 'MERGE_MAX_ROWS'>,
  ) {
    this.maxRows = config?.MERGE_MAX_ROWS ?? Infinity;
  }

  async preview(user: AuthUser, chosen: ChosenPair[], mergeType: MergeType): Promise<Answer<typeof mergePreviewResponseSchema>> {
    const byRecords = new Map<string, ChosenPair[]>();
    for (const pair of chosen) {
      const key = `${pair.record_left}|${pair.record_right}`;
      const pairs = byRecords.get(key) ?? [];
      if (!pairs.some((p) => p.header_left === pair.header_left && p.header_right === pair.header_right)) pairs.push(pair);
      byRecords.set(key, pairs);
    }
    const ids = [...new Set(chosen.flatMap((p) => [p.record_left, p.record_right]))];
    const found = (await this.records.sketched(ids)).filter((r) => this.access.canView(r.record, user));
    const downloadable = await this.access.downloadable(
      found.map((r) => r.record),
      user,
    );
    const previews: Preview[] = [];
    let unknown = false;
    for (const pairs of byRecords.values()) {
      const left = found.find((r) => r.record.id === pairs[0].record_left);
      const right = found.find((r) => r.record.id === pairs[0].record_right);
      if (!left || !right || left === right) {
        unknown = true;
        continue;
      }
      const fields = pairs.map((p) => ({ left: p.header_left, right: p.header_right }));
      const mayRead = downloadable.has(left.record.id) && downloadable.has(right.record.id);
      previews.push(this.withinLimit(this.previewOf(left, right, mergeType, fields, mayRead)));
    }
    return { previews, messages: unknown ? [PREVIEW_UNKNOWN] : [] };
  }

  /** A merge the preview expects past the rows a merge may make says so (it may still be started: estimates can be wrong). */
  private withinLimit(preview: Preview): Preview {
    if (preview.estimated_rows === null || preview.estimated_rows <= this.maxRows || preview.note) return preview;
    return { ...preview, note: overLimitText(this.maxRows, !preview.rows_exact) };
  }

  private previewOf(
    left: SketchedRecord,
    right: SketchedRecord,
    mergeType: MergeType,
    fields: Array<{ left: string; right: string }>,
    mayRead: boolean,
  ): Preview {
    const head = {
      record_left: left.record.id,
      record_left_name: left.record.name,
      record_right: right.record.id,
      record_right_name: right.record.name,
      merge_type: mergeType,
      name: mergeResultName(left.record.name, right.record.name, mergeType, fields),
    };
    const leftTable = mergedTable(
      left,
      fields.map((f) => f.left),
    );
    const rightTable = mergedTable(
      right,
      fields.map((f) => f.right),
    );
    if (!leftTable || !rightTable)
      return { ...head, columns: [], columns_complete: false, estimated_rows: null, rows_exact: false, can_start: false, note: NOT_TABULAR };
    const note = mayRead ? null : NO_ACCESS;
    if (mergeType === 'vertical') {
      const rows = leftTable.totalRows + rightTable.totalRows;
      return { ...head, columns: fields.map((f) => f.left), columns_complete: true, estimated_rows: rows, rows_exact: true, can_start: mayRead, note };
    }
    const columns = joinedColumns(leftTable, rightTable, right.record.name, fields);
    const columns_complete = leftTable.columns.length < SKETCHED_COLUMNS && rightTable.columns.length < SKETCHED_COLUMNS;
    if (!mayRead) return { ...head, columns, columns_complete, estimated_rows: null, rows_exact: false, can_start: false, note: ESTIMATE_WITHHELD };
    const column = (table: TableSketchPayload, header: string) => table.columns.find((c) => c.header === header)!;
    const estimate = joinEstimate(
      { rows: leftTable.totalRows, columns: fields.map((f) => column(leftTable, f.left)) },
      { rows: rightTable.totalRows, columns: fields.map((f) => column(rightTable, f.right)) },
    );
    return {
      ...head,
      columns,
      columns_complete,
      estimated_rows: estimate,
      rows_exact: false,
      can_start: true,
      note: estimate === null ? ESTIMATE_UNKNOWN : null,
    };
  }
}
