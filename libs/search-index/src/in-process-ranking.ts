import { countUpTo, union, type OrdinalStream } from './posting-lists';
import { tokenize, type Filter, type RankedMemory, type Visible } from './ranked-memory';
import { anyWordParts, FEW_MATCHES, MIN_TYPO_LENGTH, RELATED_CANDIDATES, SCORE } from './ranking-rules';
import { InvalidSearchInputError, normalizeSearchText, pageSlice, type SearchLimits, type SearchQuery } from './search-index';

/**
 * The ranking of the in-process index over its memory (ranked-memory.ts): which rows a page of a
 * search holds, their scores and the count. Pure: no I/O, the caller reads the documents.
 *
 * Ranking is the PostgreSQL adapter's (ranking-rules.ts: exact name; every word in the name; in
 * name or description; anywhere; mistyped names and any word only when fewer than FEW_MATCHES
 * records have every word; ties newest first), but every posting list is read newest first and
 * only as far back as a page, the count limit or the search-after cursor need.
 */

/** A name is a typo match when it comes this close to the text (pg_trgm's strict word similarity default here). */
const TYPO_THRESHOLD = 0.5;
/** Name words at least this close to a word of the text make their names typo candidates. */
const TYPO_WORD_THRESHOLD = 0.3;

/** The sort key of a ranked row: score (null without text), then newest change, then id. */
export interface RowKey {
  score: number | null;
  changedAt: number;
  id: string;
}

export interface RankedRow {
  ordinal: number;
  score: number | null;
}

/** Whether the row ranks after the key (score first, then newest, then id). */
function isAfter(memory: RankedMemory, ordinal: number, score: number | null, key: RowKey): boolean {
  if (score !== key.score && score !== null && key.score !== null) return score < key.score;
  const c = memory.changedAt(ordinal);
  if (c !== key.changedAt) return c < key.changedAt;
  return memory.idOf(ordinal) > key.id;
}

/**
 * "Find similar datasets" over the memory: the most recently changed RELATED_CANDIDATES records the
 * filter lets through that share one of the reference's terms, ranked by how many they share and
 * where (name over description over the rest), the reference (`ordinal`) left out.
 */
export function rankRelated(
  memory: RankedMemory,
  filter: Filter,
  ordinal: number,
  terms: string[],
  query: SearchQuery,
  after: RowKey | null,
  resultWindow: number,
): Ranked {
  const visible = memory.visibleTo(filter);
  const candidates = memory.newest(memory.anyWord(terms), (o) => o !== ordinal && visible.passes(o), RELATED_CANDIDATES);
  const rows = candidates
    .map((o): RankedRow => ({
      ordinal: o,
      score: 3 * memory.countWords(o, terms, 'name') + 2 * memory.countWords(o, terms, 'summary') + memory.countWords(o, terms, 'all'),
    }))
    .sort((a, b) => b.score! - a.score! || memory.compareNewest(a.ordinal, b.ordinal));
  return pageOf(memory, rows, { count: rows.length, countCapped: rows.length >= RELATED_CANDIDATES }, { query, after, resultWindow });
}

export interface Ranked {
  count: number;
  countCapped: boolean;
  hasMore: boolean;
  /** The page's rows. */
  rows: RankedRow[];
}

type RankedCount = Pick<Ranked, 'count' | 'countCapped'>;

/** The page a search asks for: by its number, or (search-after) the rows after a cursor; never past the result window. */
interface PageAsked {
  query: SearchQuery;
  after: RowKey | null;
  resultWindow: number;
}

export function cursorKey(query: SearchQuery): RowKey | null {
  if (!query.after || query.page === 1) return null;
  const changedAt = Date.parse(query.after.changedAt);
  if (Number.isNaN(changedAt) || typeof query.after.id !== 'string') throw new InvalidSearchInputError('after: not a search cursor');
  // Stored changes are cut to milliseconds, so is the cursor's.
  return { score: query.after.score ?? null, changedAt: Math.floor(changedAt), id: query.after.id };
}

/** A tier read newest first: its score, the ordinals it may hold, and which of them it keeps. */
interface Tier {
  score: number | null;
  stream: () => OrdinalStream;
  accept: (ordinal: number) => boolean;
}

/**
 * The page of a search over the memory (no relatedTo). The count stops at the count limit; pages
 * stop at the result window; `after` (search-after) replaces counting past the earlier results.
 */
export function rank(memory: RankedMemory, filter: Filter, query: SearchQuery, after: RowKey | null, limits: Required<SearchLimits>): Ranked {
  const { countLimit, resultWindow } = limits;
  const asked: PageAsked = { query, after, resultWindow };
  const sight: Visible = memory.visibleTo(filter);
  const visible = sight.passes;
  const text = normalizeSearchText(query.text).toLowerCase();
  const counted = (total: number) => ({ count: Math.min(total, countLimit), countCapped: total > countLimit });
  if (!text) {
    const total = countUpTo(memory.visible(sight), visible, countLimit + 1);
    return readTiers(memory, [{ score: null, stream: () => memory.visible(sight), accept: visible }], counted(total), asked);
  }
  const words = [...new Set(tokenize(text))];
  const exact = memory.hasExactName(text) ? (o: number) => memory.isExactName(o, text) : () => false;
  const everyWord = (o: number) => memory.hasAllWords(o, words, 'all');
  const matching = words.length > 0 ? union([memory.exactNames(text), memory.allWords(words, 'all', sight)]) : memory.exactNames(text);
  // One pass: every match when they are no more than the count limit, else proof that more match.
  const matches = memory.collect(matching, visible, countLimit + 1);
  if (matches.length > countLimit) {
    // More than the count limit match: the exact name, every word in the name, then the rest, each newest first.
    const inName = (o: number) => memory.hasAllWords(o, words, 'name');
    return readTiers(
      memory,
      [
        { score: SCORE.exactName, stream: () => memory.exactNames(text), accept: visible },
        { score: SCORE.name, stream: () => memory.allWords(words, 'name', sight), accept: (o) => visible(o) && !exact(o) },
        { score: SCORE.anywhere, stream: () => memory.allWords(words, 'all', sight), accept: (o) => visible(o) && !exact(o) && !inName(o) },
      ],
      counted(matches.length),
      asked,
    );
  }
  // At most the count limit match: each scored by its tier, then (few of them) mistyped names and any word.
  // The matches descend, so each word's list is tested by a cursor that only moves down it.
  const inName = memory.allWordsTest(words, 'name');
  const inSummary = memory.allWordsTest(words, 'summary');
  const byTier: number[][] = [[], [], [], []];
  for (const o of matches) byTier[exact(o) ? 0 : inName(o) ? 1 : inSummary(o) ? 2 : 3].push(o);
  // Every group of rows of one score is a tier, its ordinals descending: read newest first only as far as the page needs.
  const tiers: Tier[] = [SCORE.exactName, SCORE.name, SCORE.description, SCORE.anywhere].map((score, i) => arrayTier(score, byTier[i]));
  let total = matches.length;
  if (matches.length < FEW_MATCHES) {
    const { offset, limit } = pageSlice(query, resultWindow);
    const read = () => Math.max(offset + limit + 1, countLimit + 1) - total;
    const typoText = text.length >= MIN_TYPO_LENGTH && words.length > 0;
    if (typoText) {
      // Names are measured against the text of the last typoCandidates call, made first. The names
      // that qualify and their scores go to arrays reused from search to search, and each score's
      // group is gathered only when the page or the count needs it: a word close to a common one
      // has tens of thousands of candidates, and garbage in proportion makes the young
      // generation's collections (a pause for every request under way) come more often.
      const candidates = memory.typoCandidates(words, TYPO_WORD_THRESHOLD, sight);
      const { ordinals: qualifying, scores } = typoScratch(candidates.length);
      // The candidates descend, as this test's cursors need (everyWord's test, without a lookup of the words per name).
      const hasEveryWord = memory.allWordsTest(words, 'all');
      // How many names each score has: names of one score mostly come in a row, so the map (whose
      // number keys are allocated) is only asked when the score changes.
      const groups = new Map<number, { size: number }>();
      let lastScore = -1;
      let group = { size: 0 };
      let qualified = 0;
      for (let i = 0; i < candidates.length; i++) {
        const o = candidates[i];
        const similarity = memory.candidateSimilarity(o, words.length);
        if (similarity < TYPO_THRESHOLD || hasEveryWord(o) || exact(o)) continue;
        const score = SCORE.typo + similarity / 4;
        qualifying[qualified] = o;
        scores[qualified++] = score;
        if (score !== lastScore) {
          lastScore = score;
          group = groups.get(score) ?? groups.set(score, { size: 0 }).get(score)!;
        }
        group.size++;
      }
      // The best `read()` of them are kept and counted, as a ranking cut there would keep. A page
      // without a cursor never reads that far (read() covers it), so the cut is only made with one.
      let kept = Math.max(0, read());
      for (const [score, { size }] of [...groups].sort((a, b) => b[0] - a[0])) {
        if (kept === 0) break;
        // Descending, as the candidates come.
        const ordinals = new Int32Array(size);
        for (let i = 0, at = 0; i < qualified; i++) if (scores[i] === score) ordinals[at++] = qualifying[i];
        const counted = Math.min(ordinals.length, kept);
        tiers.push(arrayTier(score, counted === ordinals.length || !after ? ordinals : descending(memory.newest(arrayStream(ordinals), () => true, counted))));
        kept -= counted;
        total += counted;
      }
    }
    const typo = (o: number) => typoText && memory.nameSimilarity(o, words.length) >= TYPO_THRESHOLD;
    // "Any word" as the PostgreSQL adapter's: the text's space-separated parts, each matched whole ("a-pr": a and pr).
    const parts = anyWordParts(text).map(tokenize);
    if (parts.length > 1 && read() > 0) {
      const anyWord = memory.newest(memory.anyGroup(parts, sight), (o) => visible(o) && !everyWord(o) && !typo(o) && !exact(o), read());
      tiers.push(arrayTier(SCORE.anyWord, descending(anyWord)));
      total += anyWord.length;
    }
  }
  if (after && after.score === null) {
    // A cursor without a score (not one of this ranking's): placed by change and id, as a fully ranked list places it.
    const rows = tiers.flatMap((tier) => memory.newest(tier.stream(), () => true, total).map((o): RankedRow => ({ ordinal: o, score: tier.score })));
    return pageOf(memory, rows, counted(total), asked);
  }
  return readTiers(memory, tiers, counted(total), asked);
}

/** Reused by rank's typo tier: a search ranks synchronously, so one at a time per thread. */
const typoArrays = { ordinals: new Int32Array(1024), scores: new Float64Array(1024) };

function typoScratch(size: number): { ordinals: Int32Array; scores: Float64Array } {
  if (typoArrays.ordinals.length < size) {
    const length = Math.max(size, typoArrays.ordinals.length * 2);
    typoArrays.ordinals = new Int32Array(length);
    typoArrays.scores = new Float64Array(length);
  }
  return typoArrays;
}

/** A tier of rows of one score from ordinals in descending order. */
function arrayTier(score: number, ordinals: ArrayLike<number>): Tier {
  return { score, stream: () => arrayStream(ordinals), accept: () => true };
}

function arrayStream(ordinals: ArrayLike<number>): OrdinalStream {
  let at = 0;
  return { next: () => (at < ordinals.length ? ordinals[at++] : -1) };
}

/** The ordinals in descending order (a numeric sort, no comparison callback). */
function descending(ordinals: ArrayLike<number>): Int32Array {
  return Int32Array.from(ordinals).sort().reverse();
}

/**
 * A page of rows: none when the page holds none; else `read(offset, limit)` gives the rows from the
 * page's first (by offset, or the first after the cursor) onwards, one more than the page if another follows.
 */
function pageFrom(count: RankedCount, query: SearchQuery, resultWindow: number, read: (offset: number, limit: number) => RankedRow[]): Ranked {
  const { offset, limit } = pageSlice(query, resultWindow);
  if (limit === 0) return { ...count, hasMore: false, rows: [] };
  const page = read(offset, limit);
  return { ...count, hasMore: offset + limit < resultWindow && page.length > limit, rows: page.slice(0, limit) };
}

/** The page of a fully ranked list: by offset, or the rows after the cursor. */
function pageOf(memory: RankedMemory, rows: RankedRow[], count: RankedCount, { query, after, resultWindow }: PageAsked): Ranked {
  return pageFrom(count, query, resultWindow, (offset, limit) => {
    const start = after ? rows.findIndex((row) => isAfter(memory, row.ordinal, row.score, after)) : offset;
    return start < 0 ? [] : rows.slice(start, start + limit + 1);
  });
}

/**
 * Reads tiers in order, each newest first and only as far as the page needs: without a cursor, up
 * to the page's last row (plus one, to know whether another page follows); with one, the rows after
 * it (tiers ranked wholly before the cursor are not read at all).
 */
function readTiers(memory: RankedMemory, tiers: Tier[], count: RankedCount, { query, after, resultWindow }: PageAsked): Ranked {
  return pageFrom(count, query, resultWindow, (offset, limit) => {
    const wanted = after ? limit + 1 : offset + limit + 1;
    const rows: RankedRow[] = [];
    for (const tier of tiers) {
      if (rows.length >= wanted) break;
      if (after && tier.score !== null && after.score !== null && tier.score > after.score) continue;
      const sameTier = after && (tier.score === after.score || tier.score === null);
      const accept = sameTier ? (o: number) => tier.accept(o) && isAfter(memory, o, tier.score, after) : tier.accept;
      rows.push(...memory.newest(tier.stream(), accept, wanted - rows.length).map((o) => ({ ordinal: o, score: tier.score })));
    }
    return after ? rows : rows.slice(offset);
  });
}
