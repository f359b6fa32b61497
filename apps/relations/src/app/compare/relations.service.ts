import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { DetailError, notFound } from '@dc/platform';
import { RecordAccess, type Viewer } from '../access/record-access.service';
import type { SketchedRecord } from '../records/related-record';
import { RecordsRepository } from '../records/records.repository';
import { RowReader } from '../rows/row-reader';
import { columnsOf, totalRowsOf } from '../scoring/columns';
import { headerCandidates } from '../scoring/header-inference';
import { estimatedMatches, joinabilityRelation, linkColumnPairs, semanticRelation, statisticalRelation, structuralRelation } from '../scoring/relations';
import { linkRows } from '../scoring/row-linkage';
import { sightedBy } from '../scoring/value-sight';
import { Lexicon } from '../wordnet/lexicon';
import {
  type Answer,
  inferHeaderResponseSchema,
  type linkabilitySchema,
  joiningResponseSchema,
  linkabilityResponseSchema,
  linkRowsResponseSchema,
  semanticsResponseSchema,
  statisticsResponseSchema,
  structuresResponseSchema,
} from './responses';

export const NO_ACCESS = 'Some merges could not be completed. You do not have access to those data.';
const FILES_GONE = 'The files are no longer stored: matches are estimated from the column sketches.';
/** Joining and statistics of a pair whose values the caller may not all read (scoring/value-sight.ts). */
export const VALUES_WITHHELD = 'Values of a record you may not download are not compared: its columns take part by header and type only.';
/** Lists the comparison modal shows by default (spec section 9); the full lists stay capped. */
const MAX_LISTED = 200;

export interface Pair {
  left: SketchedRecord;
  right: SketchedRecord;
  /** May the caller download each record (row values may then take part)? */
  downloads: [boolean, boolean];
}

/** estimated: matches come from sketches (rows not read: no download right, or the file is gone). */
export type Linkability = z.infer<typeof linkabilitySchema>;

const withheldMessage = (left: SketchedRecord, right: SketchedRecord) => (left.valuesWithheld || right.valuesWithheld ? VALUES_WITHHELD : null);

const brief = (record: SketchedRecord) => ({
  id: record.record.id,
  name: record.record.name,
  type: record.record.type,
  size: record.record.size,
  date_changed: record.record.changedAt.toISOString(),
});

/**
 * The five relations between two records (semantic, structural, statistical, joinability,
 * linkability), computed on demand from the projection. A record the caller may not see answers
 * 404 like an unknown one, so nothing about it leaks; rows are read only from records the caller
 * may download.
 */
@Injectable()
export class RelationsService {
  constructor(
    private readonly records: RecordsRepository,
    private readonly access: RecordAccess,
    private readonly lexicon: Lexicon,
    private readonly rows: RowReader,
  ) {}

  readonly similarity = (a: string, b: string) => this.lexicon.similarity(a, b);

  /**
   * Both records, if the caller may see both; otherwise 404 (which one is not said). A record the
   * caller may not download comes without its values (scoring/value-sight.ts), so no figure about
   * the pair can answer a question about its cells.
   */
  async pair(viewer: Viewer, id1: string, id2: string): Promise<Pair> {
    const [left, right] = await this.records.sketched([id1, id2]);
    const found = id1 === id2 ? left && { left, right: left } : left && right && { left, right };
    if (!found || !this.access.canView(found.left.record, viewer) || !this.access.canView(found.right.record, viewer)) throw notFound();
    const downloadable = await this.access.downloadable([found.left.record, found.right.record], viewer);
    const downloads: [boolean, boolean] = [downloadable.has(found.left.record.id), downloadable.has(found.right.record.id)];
    return { left: sightedBy(found.left, downloads[0]), right: sightedBy(found.right, downloads[1]), downloads };
  }

  async semantics(viewer: Viewer, id1: string, id2: string, range: { min: number; max: number }): Promise<Answer<typeof semanticsResponseSchema>> {
    const { left, right } = await this.pair(viewer, id1, id2);
    const relation = semanticRelation(left, right, this.similarity, range);
    return {
      record1: brief(left),
      record2: brief(right),
      sem_score: relation.sem_score,
      sim_words: relation.sim_words.slice(0, MAX_LISTED),
      total_sim_words: relation.sim_words.length,
      min: range.min,
      max: range.max,
    };
  }

  async structures(viewer: Viewer, id1: string, id2: string): Promise<Answer<typeof structuresResponseSchema>> {
    const { left, right } = await this.pair(viewer, id1, id2);
    return { record1: brief(left), record2: brief(right), ...structuralRelation(left, right) };
  }

  async statistics(viewer: Viewer, id1: string, id2: string): Promise<Answer<typeof statisticsResponseSchema>> {
    const { left, right } = await this.pair(viewer, id1, id2);
    const relation = statisticalRelation(left, right);
    return {
      record1: brief(left),
      record2: brief(right),
      stats_score: relation.stats_score,
      stats_mtx: relation.stats_mtx.slice(0, MAX_LISTED),
      message: withheldMessage(left, right),
    };
  }

  async joining(viewer: Viewer, id1: string, id2: string): Promise<Answer<typeof joiningResponseSchema>> {
    const { left, right } = await this.pair(viewer, id1, id2);
    const relation = joinabilityRelation(left, right, this.similarity);
    return {
      record1: brief(left),
      record2: brief(right),
      ...relation,
      matching_headers: relation.matching_headers.slice(0, MAX_LISTED),
      message: withheldMessage(left, right),
    };
  }

  /** Linkability for the comparison modal: matches per column and the first row pairs. */
  async linkability(viewer: Viewer, id1: string, id2: string): Promise<Answer<typeof linkabilityResponseSchema>> {
    const pair = await this.pair(viewer, id1, id2);
    const link = await this.link(pair, 10);
    return { record1: brief(pair.left), record2: brief(pair.right), ...link };
  }

  /** GET link-rows: the linked row pairs themselves, for callers who may download both records. */
  async linkRows(viewer: Viewer, id1: string, id2: string, limit: number): Promise<Answer<typeof linkRowsResponseSchema>> {
    const pair = await this.pair(viewer, id1, id2);
    if (!viewer || !pair.downloads[0] || !pair.downloads[1]) throw new DetailError(NO_ACCESS, 403);
    const link = await this.link(pair, limit);
    return {
      record1: brief(pair.left),
      record2: brief(pair.right),
      link_score: link.link_score,
      estimated: link.estimated,
      message: link.message,
      totals: link.matches.map((m) => ({ column: m.column_left, total_rows: link.tot_rows.left, total_matches: m.total_matches })),
      tot_rows: link.tot_rows,
      matches: link.matches,
      results: link.rows,
    };
  }

  /** chosen: the column pairs to link on (the user's, by header), instead of those the linkage finds alike. */
  async link(pair: Pair, limit: number, chosen?: Array<{ left: string; right: string }>): Promise<Linkability> {
    const { left, right, downloads } = pair;
    const tot_rows = { left: totalRowsOf(left), right: totalRowsOf(right) };
    const all = chosen ? chosenColumnPairs(left, right, chosen) : linkColumnPairs(left, right, this.similarity);
    const downloadsBoth = downloads[0] && downloads[1];
    // Without download rights only hashed columns take part: whether others share values is not the caller's to learn.
    if (all.length === 0 && downloadsBoth)
      return { link_score: 0, tot_rows, matches: [], rows: [], estimated: false, message: 'No columns of these records share values.' };
    const estimate = (message: string): Linkability => {
      const matches = estimatedMatches(all);
      const best = Math.max(0, ...matches.map((m) => m.total_matches));
      return { link_score: tot_rows.left ? Number(Math.min(1, best / tot_rows.left).toFixed(4)) : 0, tot_rows, matches, rows: [], estimated: true, message };
    };
    if (!downloadsBoth) return estimate(NO_ACCESS);
    // Rows are linked within one table on each side: the best pair's.
    const [first] = all;
    const sameTables = all.filter(
      (p) =>
        p.left.fileId === first.left.fileId &&
        p.left.tableIndex === first.left.tableIndex &&
        p.right.fileId === first.right.fileId &&
        p.right.tableIndex === first.right.tableIndex,
    );
    if (!first.left.storageKey || !first.right.storageKey) return estimate(FILES_GONE);
    const [leftRows, rightRows] = await Promise.all([this.rows.read(sameTables.map((p) => p.left)), this.rows.read(sameTables.map((p) => p.right))]);
    if (!leftRows || !rightRows) return estimate(FILES_GONE);
    const result = linkRows({ left: leftRows, right: rightRows }, limit);
    return {
      link_score: result.link_score,
      tot_rows: result.total_rows,
      matches: result.matches.map((m) => ({ ...m, estimated: false })),
      rows: result.rows,
      estimated: false,
      message: result.candidates_capped ? 'Only the first 5,000,000 candidate row pairs were compared.' : null,
    };
  }

  /** GET infer-header: what a column holds, named from its words (WordNet) or its numbers, as far as the caller may read them. */
  async inferHeader(viewer: Viewer, recordId: string, header: string): Promise<Answer<typeof inferHeaderResponseSchema>> {
    const [found] = await this.records.sketched([recordId]);
    if (!found || !this.access.canView(found.record, viewer)) throw notFound();
    const record = sightedBy(found, await this.access.canDownload(found.record, viewer));
    const column =
      columnsOf(record).find((c) => c.sketch.header === header) ??
      columnsOf(record).find((c) => c.sketch.header.trim().toLowerCase() === header.trim().toLowerCase());
    if (!column) throw notFound('This record has no such header.');
    const candidates = headerCandidates(column.sketch, (words) => this.lexicon.commonHypernyms(words));
    return {
      record: record.record.id,
      header: column.sketch.header,
      type: column.sketch.type,
      privacy: column.sketch.privacy,
      inferred: candidates[0].label,
      candidates,
    };
  }
}

/** The columns of the chosen pairs, within one table on each side (the first holding all its headers); unknown headers are left out. */
function chosenColumnPairs(left: SketchedRecord, right: SketchedRecord, chosen: Array<{ left: string; right: string }>) {
  const table = (record: SketchedRecord, headers: string[]) => {
    const columns = columnsOf(record);
    const first = columns.find((c) =>
      headers.every((h) => columns.some((d) => d.fileId === c.fileId && d.tableIndex === c.tableIndex && d.sketch.header === h)),
    );
    return columns.filter((c) => first && c.fileId === first.fileId && c.tableIndex === first.tableIndex);
  };
  const [a, b] = [
    table(
      left,
      chosen.map((p) => p.left),
    ),
    table(
      right,
      chosen.map((p) => p.right),
    ),
  ];
  return chosen.flatMap((p) => {
    const [x, y] = [a.find((c) => c.sketch.header === p.left), b.find((c) => c.sketch.header === p.right)];
    return x && y ? [{ left: x, right: y, score: 1 }] : [];
  });
}
