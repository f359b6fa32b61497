import { Injectable } from '@nestjs/common';
import { notFound } from '@dc/platform';
import { RecordAccess, type Viewer } from '../access/record-access.service';
import type { Answer } from '../compare/responses';
import type { SketchedRecord } from '../records/related-record';
import { INDEXED_TOKENS, RecordsRepository } from '../records/records.repository';
import { columnsOf } from '../scoring/columns';
import { joinabilityRelation } from '../scoring/relations';
import { sightedBy } from '../scoring/value-sight';
import { Lexicon } from '../wordnet/lexicon';
import type { joinableWithResponseSchema, topRelatedResponseSchema } from './related.dto';
import { TopRelatedRepository } from './top-related.repository';

/** Candidate records looked at (from the value-hash index). */
const CANDIDATES = 40;
const SHOWN = 10;
const TOP_RELATED = 5;

/**
 * "Joinable with" and top_related of a record: candidates come from the inverted index of the
 * columns' smallest value hashes (never a scan of every record); top_related is read from the lists
 * the background keeps. Only records the caller may see are listed.
 */
@Injectable()
export class RelatedService {
  constructor(
    private readonly records: RecordsRepository,
    private readonly access: RecordAccess,
    private readonly lists: TopRelatedRepository,
    private readonly lexicon: Lexicon,
  ) {}

  private readonly similarity = (a: string, b: string) => this.lexicon.similarity(a, b);

  private async subject(viewer: Viewer, recordId: string): Promise<SketchedRecord> {
    const [record] = await this.records.sketched([recordId]);
    if (!record || !this.access.canView(record.record, viewer)) throw notFound();
    return record;
  }

  /**
   * Records sharing indexed value hashes with the record's readable columns, counted only through
   * columns the caller may read too (hashed ones, and every column of a record they may download),
   * best first, each as the caller may compare it: what they may not read never takes a place.
   */
  private async readableCandidates(viewer: Viewer, record: SketchedRecord): Promise<SketchedRecord[]> {
    const tokens = [
      ...new Set(
        columnsOf(record)
          .filter((c) => c.values)
          .flatMap((c) => c.sketch.minhash.slice(0, INDEXED_TOKENS)),
      ),
    ];
    const sharers = new Map(
      (await this.records.tokenSharers(record.record.id, tokens, { userId: viewer?.id ?? null, organisationId: viewer?.organisationId ?? null })).map((s) => [
        s.recordId,
        s,
      ]),
    );
    const visible = (await this.records.findRecords([...sharers.keys()])).filter((r) => this.access.canView(r, viewer));
    const downloadable = await this.access.downloadable(visible, viewer);
    const shared = (id: string) => sharers.get(id)!.hashed + (downloadable.has(id) ? sharers.get(id)!.plain : 0);
    const best = visible
      .map((r) => ({ id: r.id, shared: shared(r.id) }))
      .filter((c) => c.shared > 0)
      .sort((a, b) => b.shared - a.shared || a.id.localeCompare(b.id))
      .slice(0, CANDIDATES);
    return (await this.records.sketched(best.map((c) => c.id))).map((r) => sightedBy(r, downloadable.has(r.record.id)));
  }

  /** GET joinable-with: records the caller may see that join with this one on some column they may read, best first. */
  async joinableWith(viewer: Viewer, recordId: string): Promise<Answer<typeof joinableWithResponseSchema>> {
    const subject = await this.subject(viewer, recordId);
    const record = sightedBy(subject, await this.access.canDownload(subject.record, viewer));
    const results = (await this.readableCandidates(viewer, record))
      .map((other) => ({ other, relation: joinabilityRelation(record, other, this.similarity) }))
      .filter(({ relation }) => relation.joinable)
      .sort((a, b) => b.relation.join_score - a.relation.join_score || a.other.record.name.localeCompare(b.other.record.name))
      .slice(0, SHOWN)
      .map(({ other, relation }) => ({
        id: other.record.id,
        name: other.record.name,
        join_score: relation.join_score,
        unionable: relation.unionable,
        matching_headers: relation.matching_headers.filter((m) => m.score >= 0.5).slice(0, 3),
      }));
    return { record: record.record.id, count: results.length, results };
  }

  /**
   * top_related of a record: its kept related records (scored in the background when sketches
   * change, never on this call) that the caller may see, best first, with the four scores.
   */
  async topRelated(viewer: Viewer, recordId: string): Promise<Answer<typeof topRelatedResponseSchema>> {
    const record = await this.subject(viewer, recordId);
    const kept = await this.lists.list(record.record.id);
    const visible = new Map((await this.records.findRecords(kept.map((s) => s.relatedId))).filter((r) => this.access.canView(r, viewer)).map((r) => [r.id, r]));
    const top_related = kept
      .filter((s) => visible.has(s.relatedId))
      .slice(0, TOP_RELATED)
      .map((s) => ({
        id: s.relatedId,
        name: visible.get(s.relatedId)!.name,
        sem_score: s.sem_score,
        struct_score: s.struct_score,
        stats_score: s.stats_score,
        link_score: s.link_score,
      }));
    return { record: record.record.id, top_related };
  }
}
