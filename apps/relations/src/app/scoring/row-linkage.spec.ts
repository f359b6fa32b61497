import { seededRandom } from '@dc/extraction';
import { valueHash } from '@dc/extraction';
import { clkOf } from './clk';
import { type LinkColumnRows, type LinkInput, linkRows, type LinkResult, MAX_CANDIDATE_PAIRS } from './row-linkage';

/** A CLK column as the row reader gives it: each row's filter, and the hash of its text. */
function clkColumn(header: string, values: Array<string | null>, key = 'linkage key'): LinkColumnRows {
  const clks = new Uint32Array(values.length * 32);
  values.forEach((v, row) => v !== null && clks.set(clkOf(v, key), row * 32));
  return { header, hashes: Float64Array.from(values, (v) => (v === null ? 0 : valueHash(Buffer.from(clkOf(v, key).buffer).toString('base64')) || 1)), clks };
}

/**
 * The linkage rules written out plainly (Map and Set, one object per candidate): the typed-array
 * implementation must give exactly the same answer.
 */
function reference(input: LinkInput, limit: number): LinkResult {
  const { left, right } = input;
  const nLeft = left[0]?.hashes.length ?? 0;
  const nRight = right[0]?.hashes.length ?? 0;
  const pairs = left.map((l, i) => ({ l, r: right[i] }));
  const distinct = (hashes: Float64Array) => new Set([...hashes].filter((h) => h !== 0)).size;
  const matches = pairs.map(({ l, r }) => {
    const inRight = new Set([...r.hashes].filter((h) => h !== 0));
    return { column_left: l.header, column_right: r.header, total_matches: [...l.hashes].filter((h) => h !== 0 && inRight.has(h)).length };
  });
  if (pairs.length === 0 || nLeft === 0 || nRight === 0)
    return { total_rows: { left: nLeft, right: nRight }, matches, rows: [], linked_pairs: 0, link_score: 0, candidates_capped: false };
  const weights = pairs.map(({ l, r }) => {
    const u = 1 / Math.max(2, Math.max(distinct(l.hashes), distinct(r.hashes)));
    return { agree: Math.log2(0.95 / u), disagree: Math.log2(0.05 / (1 - u)) };
  });
  const selective = weights.reduce((best, w, i) => (w.agree > weights[best].agree ? i : best), 0);
  const blocks = new Map<number, number[]>();
  pairs[selective].r.hashes.forEach((h, row) => h !== 0 && blocks.set(h, [...(blocks.get(h) ?? []), row]));
  const all: LinkResult['rows'] = [];
  const linkedLeft = new Set<number>();
  let linked = 0;
  let examined = 0;
  let capped = false;
  for (let rowA = 0; rowA < nLeft; rowA++) {
    const candidates = blocks.get(pairs[selective].l.hashes[rowA]) ?? [];
    if (candidates.length && examined + candidates.length > MAX_CANDIDATE_PAIRS) {
      capped = true;
      break;
    }
    examined += candidates.length;
    const found = candidates.map((rowB) => {
      let weight = 0;
      const fieldsA: string[] = [];
      const fieldsB: string[] = [];
      pairs.forEach(({ l, r }, i) => {
        const [x, y] = [l.hashes[rowA], r.hashes[rowB]];
        if (x === 0 || y === 0) return;
        if (x === y) {
          weight += weights[i].agree;
          fieldsA.push(l.header);
          fieldsB.push(r.header);
        } else weight += weights[i].disagree;
      });
      return { rowB, odds: 2 ** weight, fieldsA, fieldsB };
    });
    const total = 1 + found.reduce((sum, f) => sum + f.odds, 0);
    for (const { rowB, odds, fieldsA, fieldsB } of found) {
      const probability = odds / total;
      if (probability >= 0.5) {
        linked++;
        linkedLeft.add(rowA);
      }
      all.push({ fieldsA, fieldsB, rowA, rowB, rows_match_prob: Number(probability.toFixed(4)) });
    }
  }
  all.sort((p, q) => q.rows_match_prob - p.rows_match_prob || p.rowA - q.rowA || p.rowB - q.rowB);
  return {
    total_rows: { left: nLeft, right: nRight },
    matches,
    rows: all.slice(0, limit),
    linked_pairs: linked,
    link_score: Number((linkedLeft.size / nLeft).toFixed(4)),
    candidates_capped: capped,
  };
}

/** A column of `rows` value hashes drawn from `values` distinct ones (32-bit, as the row index holds them), some missing. */
function column(random: () => number, rows: number, values: number, missing = 0.05): Float64Array {
  const pool = Array.from({ length: values }, () => 1 + Math.floor(random() * 0xfffffffe));
  return Float64Array.from({ length: rows }, () => (random() < missing ? 0 : pool[Math.floor(random() * values)]));
}

describe('row linkage', () => {
  it('gives exactly the answer of the plain rules on random tables (duplicates, missing values, trimmed lists)', () => {
    const random = seededRandom(11);
    for (const [rows, limit] of [
      [50, 5],
      [400, 10],
      [3000, 100],
    ]) {
      const shared = column(random, rows, rows, 0.1);
      const left = [
        { header: 'id', hashes: shared },
        { header: 'city', hashes: column(random, rows, 12) },
        { header: 'year', hashes: column(random, rows, 40) },
      ];
      // The right table holds most left ids again, shuffled, with other values beside them.
      const right = [
        {
          header: 'id',
          hashes: Float64Array.from(shared)
            .sort()
            .map((h) => (random() < 0.3 ? 0 : h)),
        },
        { header: 'town', hashes: column(random, rows, 12) },
        { header: 'year', hashes: column(random, rows, 40) },
      ];
      const input = { left, right };
      expect(linkRows(input, limit)).toEqual(reference(input, limit));
      // Again, and the other way round: what was derived from the same arrays before is reused.
      expect(linkRows(input, limit)).toEqual(reference(input, limit));
      const swapped = { left: right, right: left };
      expect(linkRows(swapped, limit)).toEqual(reference(swapped, limit));
    }
  });

  it('links every row of a one-to-one key with certainty and counts the matches per column', () => {
    const ids = Float64Array.from({ length: 1000 }, (_, i) => 1000 + i);
    const reversed = Float64Array.from(ids).reverse();
    const result = linkRows({ left: [{ header: 'id', hashes: ids }], right: [{ header: 'key', hashes: reversed }] }, 3);
    expect(result.matches).toEqual([{ column_left: 'id', column_right: 'key', total_matches: 1000 }]);
    expect(result.link_score).toBe(1);
    expect(result.linked_pairs).toBe(1000);
    expect(result.rows).toEqual([
      { fieldsA: ['id'], fieldsB: ['key'], rowA: 0, rowB: 999, rows_match_prob: 0.9989 },
      { fieldsA: ['id'], fieldsB: ['key'], rowA: 1, rowB: 998, rows_match_prob: 0.9989 },
      { fieldsA: ['id'], fieldsB: ['key'], rowA: 2, rowB: 997, rows_match_prob: 0.9989 },
    ]);
  });

  it('answers no pairs for empty tables or no column pairs', () => {
    expect(linkRows({ left: [], right: [] })).toMatchObject({ rows: [], link_score: 0, matches: [] });
    const empty = new Float64Array(0);
    expect(linkRows({ left: [{ header: 'a', hashes: empty }], right: [{ header: 'b', hashes: Float64Array.of(5) }] })).toMatchObject({
      rows: [],
      total_rows: { left: 0, right: 1 },
    });
  });

  it('links fuzzy (CLK) columns by Dice similarity: a typo links, another name does not', () => {
    const left = ['Jon Smith', 'Ada Lovelace', 'Alan Turing', 'Grace Hopper', null];
    const right = ['Alan Turing', 'John Smith', 'Edsger Dijkstra', 'Ada Lovelace', 'Grace Hoper'];
    const result = linkRows({ left: [clkColumn('name', left)], right: [clkColumn('full name', right)] });
    expect(result.matches).toEqual([{ column_left: 'name', column_right: 'full name', total_matches: 4 }]);
    const best = new Map(result.rows.filter((r) => r.rows_match_prob >= 0.5).map((r) => [r.rowA, r]));
    expect([...best.entries()].map(([a, r]) => [a, r.rowB]).sort()).toEqual([
      [0, 1],
      [1, 3],
      [2, 0],
      [3, 4],
    ]);
    // Equal names are surer than a typo; a typo's pair still names the column it matched on.
    expect(best.get(1)!.rows_match_prob).toBeGreaterThan(best.get(0)!.rows_match_prob);
    expect(best.get(0)).toMatchObject({ fieldsA: ['name'], fieldsB: ['full name'] });
    expect(result.link_score).toBe(0.8);
    expect(result.rows.some((r) => r.rowB === 2 && r.rows_match_prob >= 0.5)).toBe(false);

    // Under another key the filters are unrelated: nothing links.
    const other = linkRows({ left: [clkColumn('name', left)], right: [clkColumn('full name', right, 'another key')] });
    expect(other.matches[0].total_matches).toBe(0);
    expect(other.linked_pairs).toBe(0);
  });

  it("blocks on an exact column and adds the fuzzy column's partial agreement", () => {
    const years = Float64Array.of(1990, 1991, 1990, 1992);
    const result = linkRows({
      left: [{ header: 'born', hashes: years }, clkColumn('name', ['Jon Smith', 'Maria Garcia', 'Mary Jones', 'Li Wei'])],
      right: [{ header: 'year', hashes: Float64Array.of(1990, 1990, 1991, 1993) }, clkColumn('name', ['Mary Jones', 'John Smith', 'Marie Garcia', 'Li Wei'])],
    });
    const linked = result.rows.filter((r) => r.rows_match_prob >= 0.5).map((r) => [r.rowA, r.rowB, r.fieldsA]);
    expect(linked).toEqual(
      expect.arrayContaining([
        [0, 1, ['born', 'name']],
        [1, 2, ['born', 'name']],
        [2, 0, ['born', 'name']],
      ]),
    );
    // Li Wei was born in another year: no candidate of the exact block.
    expect(result.rows.some((r) => r.rowA === 3)).toBe(false);
  });
});
