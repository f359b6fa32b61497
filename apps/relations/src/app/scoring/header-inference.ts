// infer-header's candidate labels for a column, from what the sketch holds. A column whose values
// are withheld from the caller (scoring/value-sight.ts) has no numbers or words left: it is named
// from its type and counts alone, as META shows them.
import type { ColumnSketchPayload } from '@dc/contracts';
import { isNumeric } from './columns';

export interface HeaderCandidate {
  label: string;
  score: number;
}

/** Broader WordNet terms shared by words, with the share of words under each. */
export type CommonTerms = (words: string[]) => Array<{ term: string; share: number }>;

/** Candidate labels, best first (never empty). */
export function headerCandidates(sketch: ColumnSketchPayload, commonTerms: CommonTerms): HeaderCandidate[] {
  const candidates: HeaderCandidate[] = [];
  const unique = sketch.distinct === sketch.count && sketch.count > 1;
  if (sketch.privacy === 'hashed') candidates.push({ label: 'hashed identifier', score: 1 });
  else if (sketch.privacy === 'masked') candidates.push({ label: 'masked value', score: 1 });
  else if (isNumeric(sketch)) {
    if (sketch.numeric) {
      const { min, max } = sketch.numeric;
      if (sketch.type === 'integer' && min >= 1000 && max <= 2100) candidates.push({ label: 'year', score: 0.9 });
      if (min >= 0 && max <= 100 && sketch.type === 'float') candidates.push({ label: 'percentage', score: 0.5 });
    }
    if (sketch.type === 'integer' && unique) candidates.push({ label: 'identifier', score: 0.6 });
    candidates.push({ label: sketch.type === 'integer' ? 'count' : 'measurement', score: 0.3 });
  } else if (sketch.type === 'date' || sketch.type === 'time') candidates.push({ label: sketch.type, score: 0.9 });
  else {
    for (const term of commonTerms(sketch.words.slice(0, 50))) candidates.push({ label: term.term, score: Number(term.share.toFixed(4)) });
    if (unique) candidates.push({ label: 'identifier', score: 0.5 });
    if (candidates.length === 0) candidates.push({ label: 'text', score: 0.1 });
  }
  return candidates.sort((a, b) => b.score - a.score);
}
