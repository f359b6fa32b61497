import type { MergeType } from '@dc/contracts';

/** One side of a merge: a delimited text file on local disk, with the record's name (for clashing headers). */
export interface MergeInput {
  path: string;
  name: string;
}

export interface MergePlan {
  left: MergeInput;
  right: MergeInput;
  mergeType: MergeType;
  /** Headers paired across the sides. */
  pairs: Array<{ left: string; right: string }>;
  /** Where the merged CSV is written (header row first). */
  outputPath: string;
}

export interface MergeOutcome {
  rows: number;
  headers: string[];
}

/**
 * Port: computes a merge from file to file, streaming (spilling to disk where it must), never
 * holding the tables in memory. Horizontal: inner join on every pair, keeping all other columns of
 * both sides (a right header that clashes gets the right record's name in brackets); vertical: the
 * paired columns only, left rows then right rows, under the left headers. Values are kept as text,
 * exactly as the files hold them.
 */
export abstract class MergeEngine {
  abstract merge(plan: MergePlan): Promise<MergeOutcome>;
}

/** Header of a right-side column in a horizontal merge: its own, unless the left side has it already. */
export function rightHeaderName(header: string, rightName: string, taken: Set<string>): string {
  if (!taken.has(header)) return header;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${header} (${rightName})` : `${header} (${rightName} ${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}
