// Row linkage between two tables on chosen column pairs (spec: Link match). Rows are given as one
// Float64Array of value hashes per column (0 = missing), so no value is needed, hashed columns
// included. Candidate pairs come from blocking on the most selective column; each pair is scored
// Fellegi-Sunter style: agreement on a column of d distinct values is worth log2(m / (1/d)).
// Fuzzy hashed columns (CLKs: keyed Bloom filters of bigrams) also carry their filters and agree
// partly, by the Dice similarity of the two filters, so a typo still links without any value.

import { popcount } from './clk';

/** Chance that a true match agrees on a column (typos, formatting). */
const M = 0.95;
/** Candidate row pairs examined at most (the most selective column's blocks, in row order). */
export const MAX_CANDIDATE_PAIRS = 5_000_000;

export interface LinkColumnRows {
  header: string;
  /** One value hash per row (0 = missing); for a CLK column, the hash of its filter. */
  hashes: Float64Array;
  /** CLK columns: each row's filter, CLK_WORDS words per row (a pair is compared by Dice similarity when both sides have them). */
  clks?: Uint32Array;
}

/** Words (32 bits) of one CLK: 1024-bit filters. */
export const CLK_WORDS = 32;
/** Dice similarity at or above which two CLKs count as a match (fields of a row pair, matches per column). */
export const CLK_MATCH = 0.8;
/** At or below this Dice similarity two CLKs disagree fully; from CLK_AGREE up they agree fully; in between, partly. */
const CLK_DISAGREE = 0.6;
const CLK_AGREE = 0.95;

export interface LinkInput {
  left: LinkColumnRows[];
  right: LinkColumnRows[];
}

export interface LinkedRows {
  fieldsA: string[];
  fieldsB: string[];
  rowA: number;
  rowB: number;
  rows_match_prob: number;
}

export interface LinkResult {
  total_rows: { left: number; right: number };
  /** Per column pair: rows of the left table whose value occurs in the right column. */
  matches: Array<{ column_left: string; column_right: string; total_matches: number }>;
  /** Row pairs, most probable first (rows counted from 0, header excluded). */
  rows: LinkedRows[];
  /** Row pairs with a probability of at least 0.5, before the list was cut. */
  linked_pairs: number;
  /** Left rows with at least one such pair, as a share of the left table. */
  link_score: number;
  candidates_capped: boolean;
}

/** Murmur3's finaliser: every bit of the key moves the top bits the slot is taken from. */
function mixed(key: number): number {
  let h = key ^ (key >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * An open-addressing hash set of 32-bit value hashes (0, the missing value, is never stored), in
 * typed arrays that grow with the values: a million rows index in milliseconds, where Map and Set
 * of numbers take seconds.
 */
class HashSlots {
  keys = new Uint32Array(16);
  size = 0;
  private shift = 28;
  private mask = 15;

  /** The slot holding hash h (added when `add`, which may move every slot), or -1 when absent. h must not be 0. */
  slot(h: number, add: boolean): number {
    const key = h >>> 0;
    let i = mixed(key) >>> this.shift;
    for (;;) {
      const k = this.keys[i];
      if (k === key) return i;
      if (k === 0) {
        if (!add) return -1;
        this.keys[i] = key;
        if (++this.size * 2 <= this.keys.length) return i;
        this.grow();
        return this.slot(key, false);
      }
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.keys;
    this.keys = new Uint32Array(old.length * 2);
    this.mask = this.keys.length - 1;
    this.shift--;
    this.size = 0;
    for (const key of old) if (key !== 0) this.slot(key, true);
  }
}

/** The distinct values (hashes) of a column. */
function valueSet(hashes: Float64Array): HashSlots {
  const set = new HashSlots();
  for (let row = 0; row < hashes.length; row++) if (hashes[row] !== 0) set.slot(hashes[row], true);
  return set;
}

/** Rows of each value (hash) of a column, as chains in ascending row order: first[slot], then next[row] until -1. */
class Blocks {
  readonly first: Int32Array;
  readonly sizes: Int32Array;
  readonly next: Int32Array;

  constructor(
    readonly values: HashSlots,
    hashes: Float64Array,
  ) {
    // Every value is in the set already, so the slots stay where they are.
    this.first = new Int32Array(values.keys.length).fill(-1);
    this.sizes = new Int32Array(values.keys.length);
    this.next = new Int32Array(hashes.length);
    for (let row = hashes.length - 1; row >= 0; row--) {
      if (hashes[row] === 0) continue;
      const slot = values.slot(hashes[row], false);
      this.next[row] = this.first[slot];
      this.first[slot] = row;
      this.sizes[slot]++;
    }
  }
}

// Columns are linked again and again (linkability, then link-rows, then a merge scan) with the same
// arrays (the row reader keeps them): what is derived from one is kept as long as the array lives.
// The arrays are therefore never changed once linked.
const knownSets = new WeakMap<Float64Array, HashSlots>();
const knownBlocks = new WeakMap<Float64Array, Blocks>();

function valueSetOf(hashes: Float64Array): HashSlots {
  let set = knownSets.get(hashes);
  if (!set) {
    set = valueSet(hashes);
    knownSets.set(hashes, set);
  }
  return set;
}

function blocksOf(hashes: Float64Array): Blocks {
  let blocks = knownBlocks.get(hashes);
  if (!blocks) {
    blocks = new Blocks(valueSetOf(hashes), hashes);
    knownBlocks.set(hashes, blocks);
  }
  return blocks;
}

const knownMatches = new WeakMap<Float64Array, WeakMap<Float64Array, number>>();

/** Rows of the left column whose value occurs in the right one. */
function matchesOf(left: Float64Array, right: Float64Array): number {
  let known = knownMatches.get(left);
  if (!known) knownMatches.set(left, (known = new WeakMap()));
  let total = known.get(right);
  if (total === undefined) {
    const set = valueSetOf(right);
    total = 0;
    for (let row = 0; row < left.length; row++) if (left[row] !== 0 && set.slot(left[row], false) >= 0) total++;
    known.set(right, total);
  }
  return total;
}

const knownOnes = new WeakMap<Uint32Array, Uint16Array>();

/** Bits set in each row's filter. */
function onesOf(clks: Uint32Array): Uint16Array {
  let ones = knownOnes.get(clks);
  if (!ones) {
    ones = new Uint16Array(clks.length / CLK_WORDS);
    for (let row = 0; row < ones.length; row++) {
      let n = 0;
      for (let i = row * CLK_WORDS; i < (row + 1) * CLK_WORDS; i++) n += popcount(clks[i]);
      ones[row] = n;
    }
    knownOnes.set(clks, ones);
  }
  return ones;
}

/** Dice similarity of row a's filter in x and row b's in y: 2 |A ∩ B| / (|A| + |B|). */
function diceOf(x: Uint32Array, onesX: Uint16Array, a: number, y: Uint32Array, onesY: Uint16Array, b: number): number {
  const total = onesX[a] + onesY[b];
  if (total === 0) return 0;
  let both = 0;
  for (let i = 0, p = a * CLK_WORDS, q = b * CLK_WORDS; i < CLK_WORDS; i++) both += popcount(x[p + i] & y[q + i]);
  return (2 * both) / total;
}

const knownClkMatches = new WeakMap<Uint32Array, WeakMap<Uint32Array, { total: number; capped: boolean }>>();

/** Rows of the left CLK column with a right row at CLK_MATCH or more (every pair compared, up to MAX_CANDIDATE_PAIRS). */
function clkMatchesOf(left: LinkColumnRows, right: LinkColumnRows): { total: number; capped: boolean } {
  const [x, y] = [left.clks as Uint32Array, right.clks as Uint32Array];
  let known = knownClkMatches.get(x);
  if (!known) knownClkMatches.set(x, (known = new WeakMap()));
  let found = known.get(y);
  if (!found) {
    const [onesX, onesY] = [onesOf(x), onesOf(y)];
    const nRight = right.hashes.length;
    found = { total: 0, capped: false };
    for (let a = 0, examined = 0; a < left.hashes.length; a++) {
      if (left.hashes[a] === 0) continue;
      if ((examined += nRight) > MAX_CANDIDATE_PAIRS) {
        found.capped = true;
        break;
      }
      for (let b = 0; b < nRight; b++) {
        if (right.hashes[b] !== 0 && diceOf(x, onesX, a, y, onesY, b) >= CLK_MATCH) {
          found.total++;
          break;
        }
      }
    }
    known.set(y, found);
  }
  return found;
}

/** Both sides of a column pair carry CLKs. */
const isFuzzy = (l: LinkColumnRows, r: LinkColumnRows) => !!l.clks && !!r.clks;

/**
 * Links the rows of two tables on column pairs (left[i] with right[i]). Answers the matches per
 * column, and row pairs with their match probability (at most `limit`, most probable first).
 */
export function linkRows(input: LinkInput, limit = 1000): LinkResult {
  const { left, right } = input;
  const nLeft = left[0]?.hashes.length ?? 0;
  const nRight = right[0]?.hashes.length ?? 0;
  const pairs = left.map((l, i) => ({ l, r: right[i], fuzzy: isFuzzy(l, right[i]) }));
  const rightSets = pairs.map(({ r }) => valueSetOf(r.hashes));
  let capped = false;
  const matches = pairs.map(({ l, r, fuzzy }) => {
    if (!fuzzy) return { column_left: l.header, column_right: r.header, total_matches: matchesOf(l.hashes, r.hashes) };
    const found = clkMatchesOf(l, r);
    capped ||= found.capped;
    return { column_left: l.header, column_right: r.header, total_matches: found.total };
  });
  if (pairs.length === 0 || nLeft === 0 || nRight === 0)
    return { total_rows: { left: nLeft, right: nRight }, matches, rows: [], linked_pairs: 0, link_score: 0, candidates_capped: false };

  // Weights: agreeing by chance on a column of d distinct values happens with u = 1/d.
  const weights = pairs.map(({ l }, i) => {
    const u = 1 / Math.max(2, Math.max(valueSetOf(l.hashes).size, rightSets[i].size));
    return { agree: Math.log2(M / u), disagree: Math.log2((1 - M) / (1 - u)) };
  });
  // Block on the most selective exact column pair (most distinct values); with fuzzy columns only,
  // every right row whose filter is at least partly alike on the first one is a candidate.
  const exact = pairs.map((p, i) => i).filter((i) => !pairs[i].fuzzy);
  const selective = exact.length ? exact.reduce((best, i) => (weights[i].agree > weights[best].agree ? i : best), exact[0]) : -1;
  const blocks = selective >= 0 ? blocksOf(pairs[selective].r.hashes) : null;
  const blockKeys = pairs[selective >= 0 ? selective : 0].l.hashes;
  const lefts = pairs.map((p) => p.l.hashes);
  const rights = pairs.map((p) => p.r.hashes);
  const agree = weights.map((w) => w.agree);
  const disagree = weights.map((w) => w.disagree);
  const clks = pairs.map(({ l, r, fuzzy }) =>
    fuzzy ? { x: l.clks as Uint32Array, onesX: onesOf(l.clks as Uint32Array), y: r.clks as Uint32Array, onesY: onesOf(r.clks as Uint32Array) } : null,
  );
  const diceAt = (i: number, rowA: number, rowB: number) => {
    const c = clks[i] as NonNullable<(typeof clks)[number]>;
    return diceOf(c.x, c.onesX, rowA, c.y, c.onesY, rowB);
  };
  /** Column i's weight for a row pair whose values are both present. */
  const weightOf = (i: number, rowA: number, rowB: number, x: number, y: number) => {
    if (!clks[i] || x === y) return x === y ? agree[i] : disagree[i];
    const dice = diceAt(i, rowA, rowB);
    if (dice >= CLK_AGREE) return agree[i];
    if (dice <= CLK_DISAGREE) return disagree[i];
    return disagree[i] + ((agree[i] - disagree[i]) * (dice - CLK_DISAGREE)) / (CLK_AGREE - CLK_DISAGREE);
  };
  const fieldsOf = (rowA: number, rowB: number) => {
    const fieldsA: string[] = [];
    const fieldsB: string[] = [];
    pairs.forEach(({ l, r }, i) => {
      const x = lefts[i][rowA];
      const y = rights[i][rowB];
      if (x !== 0 && y !== 0 && (x === y || (clks[i] && diceAt(i, rowA, rowB) >= CLK_MATCH))) {
        fieldsA.push(l.header);
        fieldsB.push(r.header);
      }
    });
    return { fieldsA, fieldsB };
  };
  let odds = new Float64Array(16);
  let candidates = new Int32Array(blocks ? 16 : nRight);
  const scored: LinkedRows[] = [];
  let linkedLeft = 0;
  let linked = 0;
  let examined = 0;
  let floor = -1;
  for (let rowA = 0; rowA < nLeft; rowA++) {
    if (blockKeys[rowA] === 0) continue;
    let count = 0;
    if (blocks) {
      const slot = blocks.values.slot(blockKeys[rowA], false);
      if (slot < 0) continue;
      count = blocks.sizes[slot];
      if (examined + count > MAX_CANDIDATE_PAIRS) {
        capped = true;
        break;
      }
      if (candidates.length < count) candidates = new Int32Array(count * 2);
      for (let rowB = blocks.first[slot], c = 0; rowB >= 0; rowB = blocks.next[rowB], c++) candidates[c] = rowB;
    } else {
      if (examined + nRight > MAX_CANDIDATE_PAIRS) {
        capped = true;
        break;
      }
      for (let rowB = 0; rowB < nRight; rowB++) if (rights[0][rowB] !== 0 && diceAt(0, rowA, rowB) > CLK_DISAGREE) candidates[count++] = rowB;
    }
    examined += blocks ? count : nRight;
    if (count === 0) continue;
    if (odds.length < count) odds = new Float64Array(count * 2);
    // Each candidate's Fellegi-Sunter weight, then the share of rowA's evidence it holds beside
    // "no match" (weight 0): the probability that rowB is rowA's match.
    let sum = 0;
    for (let c = 0; c < count; c++) {
      const rowB = candidates[c];
      let weight = 0;
      for (let i = 0; i < lefts.length; i++) {
        const x = lefts[i][rowA];
        const y = rights[i][rowB];
        if (x === 0 || y === 0) continue;
        weight += weightOf(i, rowA, rowB, x, y);
      }
      odds[c] = 2 ** weight;
      sum += odds[c];
    }
    const total = 1 + sum;
    let linksRow = false;
    for (let c = 0; c < count; c++) {
      const rowB = candidates[c];
      const probability = odds[c] / total;
      if (probability >= 0.5) {
        linked++;
        linksRow = true;
      }
      // Keeps the best pairs only: once trimmed, a pair must beat the weakest one kept. One that only
      // equals it comes after every kept pair (rows go in order), so it could never be listed.
      if (probability <= floor - 0.00005) continue;
      const rounded = Number(probability.toFixed(4));
      if (rounded > floor) scored.push({ ...fieldsOf(rowA, rowB), rowA, rowB, rows_match_prob: rounded });
    }
    if (linksRow) linkedLeft++;
    if (scored.length > limit * 8) {
      scored.sort(byProbability);
      scored.length = limit * 4;
      floor = scored[scored.length - 1].rows_match_prob;
    }
  }
  scored.sort(byProbability);
  return {
    total_rows: { left: nLeft, right: nRight },
    matches,
    rows: scored.slice(0, limit),
    linked_pairs: linked,
    link_score: Number((linkedLeft / nLeft).toFixed(4)),
    candidates_capped: capped,
  };
}

const byProbability = (p: LinkedRows, q: LinkedRows) => q.rows_match_prob - p.rows_match_prob || p.rowA - q.rowA || p.rowB - q.rowB;
