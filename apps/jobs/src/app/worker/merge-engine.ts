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
  limits: MergeLimits;
}

/** Bounds on a merge's result (the header row counts towards bytes, not rows). */
export interface MergeLimits {
  maxRows: number;
  maxBytes: number;
}

/**
 * A merge's result passed one of its limits: the engine stopped producing it (it never finishes an
 * oversized result) and nothing of it is kept. `rows` and `bytes` say how far it got, for the logs.
 */
export class MergeLimitExceeded extends Error {
  constructor(
    readonly limit: keyof MergeLimits,
    readonly produced: { rows: number | null; bytes: number },
  ) {
    super(`merge result passed its ${limit} limit`);
    this.name = 'MergeLimitExceeded';
  }
}

export interface MergeOutcome {
  rows: number;
  headers: string[];
}

/**
 * Port: computes a merge from file to file, streaming (spilling to disk where it must), never
 * holding the tables in memory, and stopping with MergeLimitExceeded as soon as the result passes
 * plan.limits. Horizontal: inner join on every pair, keeping all other columns of
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
