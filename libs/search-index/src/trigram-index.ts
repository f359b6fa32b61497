import { clearBit, grown, grownTo, hasBit, IntList, type Postings } from './posting-lists';

/**
 * The typo index of the in-process index (ranked-memory.ts): terms by their letter trigrams, pg_trgm
 * style, to find the terms close to a mistyped word and measure how close a name comes to a text.
 * No I/O, only arrays.
 */

/** Letters-and-digits trigrams of a word, pg_trgm style: padded with two spaces before and one after. */
function wordTrigrams(word: string, into: Set<string>) {
  const padded = `  ${word} `;
  for (let i = 0; i + 3 <= padded.length; i++) into.add(padded.slice(i, i + 3));
}

function trigramsOf(words: string[]): Set<string> {
  const set = new Set<string>();
  for (const word of words) wordTrigrams(word, set);
  return set;
}

/**
 * Trigrams as small integers, so typo similarity counts shared trigrams by marking ids in an array
 * instead of building and probing sets of strings. The same sets, so the same similarities.
 */
export class TrigramIds {
  private readonly ids = new Map<string, number>();
  /** marks[id] === run: the id belongs to the run of name words being measured. */
  private marks: Int32Array = new Int32Array(1024);
  private run = 0;
  /** textMarks[id] === text: the id is one of the text's trigrams. */
  private textMarks: Int32Array = new Int32Array(1024);
  private text = 0;
  private textSize = 0;

  /** The distinct trigram ids of a word. */
  of(word: string): Int32Array {
    const set = new Set<string>();
    wordTrigrams(word, set);
    return Int32Array.from(set, (trigram) => this.idOf(trigram));
  }

  private idOf(trigram: string): number {
    let id = this.ids.get(trigram);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(trigram, id);
      if (id === this.marks.length) {
        this.marks = grown(this.marks);
        this.textMarks = grown(this.textMarks);
      }
    }
    return id;
  }

  /**
   * The text the next similarities are measured against; the ids of its trigrams that some word has.
   * Its trigrams are looked up, not added: a trigram no word has cannot be shared (every term's
   * trigrams have ids before similarities are asked).
   */
  setText(trigrams: Set<string>): number[] {
    if (this.text === 2 ** 31 - 1) {
      this.textMarks.fill(0);
      this.text = 0;
    }
    const stamp = ++this.text;
    const known: number[] = [];
    for (const trigram of trigrams) {
      const id = this.ids.get(trigram);
      if (id === undefined) continue;
      this.textMarks[id] = stamp;
      known.push(id);
    }
    this.textSize = trigrams.size;
    return known;
  }

  /**
   * The best similarity of the text to a run of the words (`terms[from..to)`, term numbers): shared
   * trigrams over the union. Runs of whole words from each start, longer by one word at a time, up
   * to one word more than the text (longer runs only add trigrams the text lacks).
   */
  similarity(terms: Int32Array, from: number, to: number, trigramsOf: (term: number) => Int32Array, textWords: number): number {
    const marks = this.marks;
    const textMarks = this.textMarks;
    const text = this.text;
    let best = 0;
    for (let start = from; start < to; start++) {
      if (this.run === 2 ** 31 - 1) {
        marks.fill(0);
        this.run = 0;
      }
      const run = ++this.run;
      let size = 0;
      let common = 0;
      for (let end = start; end < Math.min(to, start + textWords + 1); end++) {
        for (const id of trigramsOf(terms[end])) {
          if (marks[id] === run) continue;
          marks[id] = run;
          size++;
          if (textMarks[id] === text) common++;
        }
        best = Math.max(best, common / (this.textSize + size - common));
      }
    }
    return best;
  }

  /** Ids of the trigrams of the set that some word has (the others are shared by none). */
  known(trigrams: Set<string>): Set<number> {
    const known = new Set<number>();
    for (const trigram of trigrams) {
      const id = this.ids.get(trigram);
      if (id !== undefined) known.add(id);
    }
    return known;
  }
}

/**
 * Terms by their trigrams (indexed as they come, at the next typo search): the terms close to a
 * mistyped word are found from the terms sharing a trigram with it (a similarity above zero needs
 * one), counting shared trigrams per term, instead of measuring every term of the memory.
 */
export class TermsByTrigram {
  private readonly terms: string[] = [];
  private readonly postings: Postings[] = [];
  /** Each indexed term's trigram ids, by term number. */
  private readonly trigramIds: Int32Array[] = [];
  private readonly byTrigram: IntList[] = [];
  /** similar's scratch: shared trigrams per term, the terms touched, and foundMarks[term] === foundStamp once a call found it. */
  private counts: Int32Array = new Int32Array(1024);
  private touched: Int32Array = new Int32Array(1024);
  private foundMarks: Int32Array = new Int32Array(1024);
  private foundStamp = 0;
  /** Per term: its number of trigrams; the trigrams it shares with the text of stamp termText[term] (none when another stamp). */
  private termSize: Int32Array = new Int32Array(1024);
  private termText: Int32Array = new Int32Array(1024);
  private termCommon: Int32Array = new Int32Array(1024);
  /** Per term sharing trigrams with the text: which of the text's known trigrams (bit i: the i-th), when they fit 31 bits. */
  private termMask: Int32Array = new Int32Array(1024);
  /** The terms that share a trigram with the text, and how many. */
  private textTerms: Int32Array = new Int32Array(1024);
  private textTermCount = 0;
  private masked = false;
  private text = 0;
  private textSize = 0;
  /** The close word's similarity, for the candidates of the last nameCandidates call that it decides; -1 when none. */
  private closeSimilarity = -1;
  /** Name lists whose ordinals are marked in `seen` as to be measured (cleared by the next nameCandidates call). */
  private lifted: IntList[] = [];

  constructor(private readonly trigrams: TrigramIds) {}

  /** The next term's number. */
  get size(): number {
    return this.terms.length;
  }

  add(term: string, postings: Postings) {
    this.terms.push(term);
    this.postings.push(postings);
  }

  /** Indexes the terms added since the last time. */
  private index() {
    if (this.termSize.length < this.terms.length) {
      const size = this.terms.length * 2;
      this.termSize = grownTo(this.termSize, size);
      this.termText = grownTo(this.termText, size);
      this.termCommon = grownTo(this.termCommon, size);
      this.termMask = grownTo(this.termMask, size);
      this.textTerms = grownTo(this.textTerms, size);
    }
    for (let term = this.trigramIds.length; term < this.terms.length; term++) {
      const ids = this.trigrams.of(this.terms[term]);
      this.trigramIds.push(ids);
      this.termSize[term] = ids.length;
      for (const id of ids) (this.byTrigram[id] ??= new IntList()).push(term);
    }
  }

  /** The trigram ids of a term, by its number. */
  readonly trigramsOf = (term: number): Int32Array => {
    if (term >= this.trigramIds.length) this.index();
    return this.trigramIds[term];
  };

  /** The terms whose trigram similarity to one of the words reaches the threshold. */
  private similar(words: string[], threshold: number): number[] {
    this.index();
    if (this.counts.length < this.terms.length) {
      // Every term may be touched by a word; the marks are stamps, so never cleared.
      this.counts = new Int32Array(this.terms.length * 2);
      this.touched = new Int32Array(this.terms.length * 2);
      this.foundMarks = grownTo(this.foundMarks, this.terms.length * 2);
    }
    if (this.foundStamp === 2 ** 31 - 1) {
      this.foundMarks.fill(0);
      this.foundStamp = 0;
    }
    const stamp = ++this.foundStamp;
    const { counts, touched, foundMarks, termSize } = this;
    const found: number[] = [];
    for (const word of words) {
      const trigrams = trigramsOf([word]);
      // The terms sharing a trigram with the word, each with how many it shares (in reused arrays:
      // a word's trigrams reach thousands of terms, and this runs at every typo search).
      let count = 0;
      for (const id of this.trigrams.known(trigrams)) {
        const list = this.byTrigram[id];
        for (let i = 0; list && i < list.length; i++) if (counts[list.data[i]]++ === 0) touched[count++] = list.data[i];
      }
      for (let i = 0; i < count; i++) {
        const term = touched[i];
        const common = counts[term];
        counts[term] = 0;
        if (foundMarks[term] !== stamp && common / (trigrams.size + termSize[term] - common) >= threshold) {
          foundMarks[term] = stamp;
          found.push(term);
        }
      }
    }
    return found;
  }

  /**
   * The ordinals below `ordinals` that pass whose name holds a term close to one of the words (each
   * once, in descending order); makes `similarity` ready for the words (until the next call).
   */
  nameCandidates(words: string[], wordThreshold: number, passes: (ordinal: number) => boolean, ordinals: number): Int32Array {
    for (const list of this.lifted) for (let i = 0; i < list.length; i++) clearBit(this.seen, list.data[i]);
    this.lifted = [];
    this.closeSimilarity = -1;
    const close = this.similar(words, wordThreshold).filter((term) => this.postings[term].name.length > 0);
    const lists = close.map((term) => this.postings[term].name);
    this.setText(words);
    // Into an array reused from call to call (the answer is a view of it, good until the next
    // call): a word close to a common one has tens of thousands of candidates.
    const most = lists.reduce((sum, list) => sum + list.length, 0);
    if (this.candidates.length < most) this.candidates = new Int32Array(Math.max(most, this.candidates.length * 2));
    const found = this.candidates;
    let count = 0;
    if (lists.length === 1) {
      const list = lists[0];
      for (let i = list.length - 1; i >= 0; i--) if (passes(list.data[i])) found[count++] = list.data[i];
      this.decideByCloseWord(close[0], ordinals, count);
      return found.subarray(0, count);
    }
    // Several lists: their entries as bits, read from the top down (each ordinal once, in
    // descending order, without a sort) and cleared on the way for the next call.
    if (this.seen.length * 32 < ordinals) this.seen = new Int32Array((ordinals >>> 5) + 1);
    const seen = this.seen;
    let top = -1;
    for (const list of lists) {
      for (let i = 0; i < list.length; i++) seen[list.data[i] >>> 5] |= 1 << (list.data[i] & 31);
      if (list.length > 0) top = Math.max(top, list.data[list.length - 1] >>> 5);
    }
    for (let word = top; word >= 0; word--) {
      let bits = seen[word];
      if (bits === 0) continue;
      seen[word] = 0;
      while (bits !== 0) {
        const bit = 31 - Math.clz32(bits);
        bits ^= 1 << bit;
        const ordinal = (word << 5) + bit;
        if (passes(ordinal)) found[count++] = ordinal;
      }
    }
    return found.subarray(0, count);
  }

  /**
   * Every candidate holds the one close word. A run of a name's words shares with the text the OR of
   * its words' masks, and has at least as many trigrams outside the text as any one of its words: so
   * a name reaches more than the close word alone only if one of its words shares a trigram of the
   * text that the close word lacks, or shares some with fewer trigrams outside the text. The names
   * of such lifting words are marked to be measured; every other candidate has the close word's
   * similarity, without its words being read (most of a typo search's time at 2M records).
   */
  private decideByCloseWord(close: number, ordinals: number, candidates: number) {
    if (!this.masked) return;
    const closeCommon = this.common(close);
    const closeMask = this.termMask[close];
    const closeLack = this.termSize[close] - closeCommon;
    const lifting: IntList[] = [];
    let marks = 0;
    for (let i = 0; i < this.textTermCount; i++) {
      const term = this.textTerms[i];
      if (term === close || ((this.termMask[term] & ~closeMask) === 0 && this.termSize[term] - this.termCommon[term] >= closeLack)) continue;
      const names = this.postings[term].name;
      if (names.length === 0) continue;
      lifting.push(names);
      marks += names.length;
      // Marking would cost more than measuring every candidate.
      if (marks > 4 * candidates) return;
    }
    if (this.seen.length * 32 < ordinals) this.seen = new Int32Array((ordinals >>> 5) + 1);
    for (const list of lifting) for (let i = 0; i < list.length; i++) this.seen[list.data[i] >>> 5] |= 1 << (list.data[i] & 31);
    this.lifted = lifting;
    this.closeSimilarity = closeCommon / (this.textSize + this.termSize[close] - closeCommon);
  }

  /** A candidate of the last nameCandidates call: its similarity when the close word decides it, or -1 when it must be measured. */
  candidateSimilarity(ordinal: number): number {
    if (this.closeSimilarity < 0 || hasBit(this.seen, ordinal)) return -1;
    return this.closeSimilarity;
  }

  /** Bits of the ordinals nameCandidates has met in this call; all clear between calls (but lifted names'). */
  private seen = new Int32Array(0);
  /** What nameCandidates answers a view of. */
  private candidates = new Int32Array(1024);
  /** The text the next similarities are measured against: each term's shared trigrams counted from the text's trigrams' lists. */
  setText(words: string[]): void {
    this.index();
    const trigrams = trigramsOf(words);
    if (this.text === 2 ** 31 - 1) {
      this.termText.fill(0);
      this.text = 0;
    }
    const stamp = ++this.text;
    this.textSize = trigrams.size;
    const known = this.trigrams.setText(trigrams);
    this.masked = known.length <= 31;
    this.textTermCount = 0;
    for (let k = 0; k < known.length; k++) {
      const list = this.byTrigram[known[k]];
      const bit = this.masked ? 1 << k : 0;
      for (let i = 0; list && i < list.length; i++) {
        const term = list.data[i];
        if (this.termText[term] !== stamp) {
          this.termText[term] = stamp;
          this.termCommon[term] = 0;
          this.termMask[term] = 0;
          this.textTerms[this.textTermCount++] = term;
        }
        this.termCommon[term]++;
        this.termMask[term] |= bit;
      }
    }
  }

  /**
   * The best similarity of the text to a run of the words (`terms[from..to)`, term numbers), as
   * TrigramIds.similarity measures it, without measuring runs when no run can beat a word alone.
   */
  similarity(terms: Int32Array, from: number, to: number, textWords: number): number {
    const textSize = this.textSize;
    const termSize = this.termSize;
    let alone = 0;
    // A run of words can only beat its best word alone when two of its words share trigrams with
    // the text: with one, it shares that word's trigrams and lacks at least the ones that word
    // lacks, so the bound below is at most that word's own similarity. Runs hold up to textWords + 1
    // words, so two such words at most textWords apart.
    let lastSharing = -Infinity;
    let closeSharing = false;
    for (let i = from; i < to; i++) {
      const common = this.common(terms[i]);
      if (common === 0) continue;
      alone = Math.max(alone, common / (textSize + termSize[terms[i]] - common));
      if (i - lastSharing <= textWords) closeSharing = true;
      lastSharing = i;
    }
    if (!closeSharing) return alone;
    // A longer run shares at most the sum of its words' shared trigrams (and no more than the text
    // has), and its union holds at least the trigrams of any one word the text lacks: when that
    // bound does not beat the best word alone for any run, no run does.
    for (let start = from; start < to; start++) {
      let shared = 0;
      let lacking = 0;
      for (let end = start; end < Math.min(to, start + textWords + 1); end++) {
        const common = this.common(terms[end]);
        shared += common;
        lacking = Math.max(lacking, this.termSize[terms[end]] - common);
        if (end > start && Math.min(shared, textSize) / (textSize + lacking) > alone)
          return this.trigrams.similarity(terms, from, to, this.trigramsOf, textWords);
      }
    }
    return alone;
  }

  private common(term: number): number {
    return this.termText[term] === this.text ? this.termCommon[term] : 0;
  }
}
