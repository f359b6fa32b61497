// The figures the scoring computes (spec section 3, Relation scores, Merge score), in its own types:
// the scoring knows nothing of HTTP. The services answer them through their response schemas
// (compare/responses.ts), so the compiler checks that each figure still fits its answer.

/** Two words of the records and their lexical similarity. */
export interface SimilarWord {
  word_left: string;
  word_right: string;
  score: number;
}

export interface SemanticRelation {
  sem_score: number;
  /** Pairs within the asked range, best first. */
  sim_words: SimilarWord[];
}

/** The columns of both records that share one data type. */
export interface SharedType {
  type: string;
  headers_left: string[];
  headers_right: string[];
}

export interface StructuralRelation {
  struct_score: number;
  struct_types: SharedType[];
}

/** A pair of numeric columns and the NRMSD between them. */
export interface ColumnDistance {
  header_left: string;
  header_right: string;
  nrmsd: number;
}

export interface StatisticalRelation {
  stats_score: number;
  /** Pairs of numeric columns with NRMSD under 10, closest first. */
  stats_mtx: ColumnDistance[];
}

/** containment_left/right: share of the left column's distinct values found in the right one, and the other way round. */
export interface MatchingHeader {
  header_left: string;
  header_right: string;
  header_similarity: number;
  containment_left: number;
  containment_right: number;
  jaccard: number;
  score: number;
  /** The two columns' values were compared; false: by header and type only, the overlap figures are 0. */
  values_compared: boolean;
}

/** unionable: every column of the narrower record has a counterpart of the same kind with compatible values. */
export interface JoinabilityRelation {
  join_score: number;
  joinable: boolean;
  matching_headers: MatchingHeader[];
  unionable: boolean;
  union_score: number;
}

/** total_matches: rows (left) whose value occurs in the right column; estimated from sketches when rows were not read. */
export interface ColumnMatches {
  column_left: string;
  column_right: string;
  total_matches: number;
  estimated: boolean;
}

/** A Merge score: a candidate field pair of two records. */
export interface MergeCandidate {
  id: string;
  record_left: string;
  record_left_name: string;
  record_right: string;
  record_right_name: string;
  header_left: string;
  header_right: string;
  total_sim: number;
}
