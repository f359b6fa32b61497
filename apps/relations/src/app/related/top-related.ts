// top_related of a record: its candidates scored on the four relations from the sketches, the best
// kept. Pure: the worker reads the projection and writes the lists.
import { TOP_RELATED_KEPT } from '@dc/contracts';
import type { SketchedRecord } from '../records/related-record';
import { joinabilityRelation, semanticRelation, statisticalRelation, structuralRelation } from '../scoring/relations';
import type { WordSimilarity } from '../scoring/sketch-math';
import { publicSight } from '../scoring/value-sight';

export interface RelatedScores {
  relatedId: string;
  sem_score: number;
  struct_score: number;
  stats_score: number;
  link_score: number;
  /** The mean of the four: the order of the list. */
  total: number;
}

const withTotal = (relatedId: string, s: Omit<RelatedScores, 'relatedId' | 'total'>): RelatedScores => ({
  relatedId,
  ...s,
  total: Number(((s.sem_score + s.struct_score + s.stats_score + s.link_score) / 4).toFixed(6)),
});

/**
 * The scores of `other` as related to `record` and of `record` as related to `other`. Semantic,
 * structural and join scores are the same both ways; the statistical one is not (NRMSD is scaled
 * by the first record's range), so it is computed for each direction. A list is shown to everyone
 * who sees both records, so values take part only where all of them may read them (publicSight).
 */
export function scoresBothWays(
  recordWithValues: SketchedRecord,
  otherWithValues: SketchedRecord,
  similarity: WordSimilarity,
): { forward: RelatedScores; backward: RelatedScores } {
  const record = publicSight(recordWithValues, otherWithValues);
  const other = publicSight(otherWithValues, recordWithValues);
  const shared = {
    sem_score: semanticRelation(record, other, similarity).sem_score,
    struct_score: structuralRelation(record, other).struct_score,
    link_score: joinabilityRelation(record, other, similarity).join_score,
  };
  return {
    forward: withTotal(other.record.id, { ...shared, stats_score: statisticalRelation(record, other).stats_score }),
    backward: withTotal(record.record.id, { ...shared, stats_score: statisticalRelation(other, record).stats_score }),
  };
}

/** The best related records, at most TOP_RELATED_KEPT, best first; those with nothing in common are left out. */
export function bestRelated(scores: RelatedScores[], kept = TOP_RELATED_KEPT): RelatedScores[] {
  return scores
    .filter((s) => s.total > 0)
    .sort((a, b) => b.total - a.total || a.relatedId.localeCompare(b.relatedId))
    .slice(0, kept);
}

/** Word similarity remembered for the pairs of one computation (a record's words meet many records' words). */
export function rememberingSimilarity(similarity: WordSimilarity): WordSimilarity {
  const known = new Map<string, number>();
  return (a, b) => {
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    let score = known.get(key);
    if (score === undefined) {
      score = similarity(a, b);
      known.set(key, score);
    }
    return score;
  };
}
