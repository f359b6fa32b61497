import { canViewRecord, type RecordAccessFacts } from '@dc/contracts';
import type { Viewer } from '../record-model/record-access';

/** Related records a record shows (spec section 3, top_related), best first. */
export const TOP_RELATED_SHOWN = 5;

export interface TopRelatedView {
  id: string;
  name: string;
  sem_score: number;
  struct_score: number;
  stats_score: number;
  link_score: number;
}

/** A related record as the projection keeps it, with what the visibility rule needs. */
export type RelatedCandidate = RecordAccessFacts & TopRelatedView;

/**
 * The record's top_related for this viewer: only records they may see (the catalogue's visibility
 * rule, as for the records themselves), in the kept order, at most TOP_RELATED_SHOWN.
 */
export function topRelatedFor(candidates: RelatedCandidate[], viewer: Viewer): TopRelatedView[] {
  return candidates
    .filter((c) => canViewRecord(c, viewer))
    .slice(0, TOP_RELATED_SHOWN)
    .map((c) => ({ id: c.id, name: c.name, sem_score: c.sem_score, struct_score: c.struct_score, stats_score: c.stats_score, link_score: c.link_score }));
}
