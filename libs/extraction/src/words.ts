// Words for WORDSET and KEYWORDS: Unicode letters and digits (with inner apostrophes and hyphens),
// lower-cased; counted by a top-k counter that keeps memory bounded however much text flows through.

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const DIGITS = /^[\p{N}.,'’-]+$/u;

// English stop words: they carry no meaning for similarity or search.
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how ' +
    'i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own ' +
    'same she should so some such than that the their theirs them themselves then there these they this those through to too under until up ' +
    'us very was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    "it's i'm we're don't can't won't that's there's let's we've i've you're they're isn't aren't wasn't didn't doesn't"
  ).split(' '),
);

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  return LETTER_OR_DIGIT.test(text[i]);
}

/**
 * The words of a text: runs of Unicode letters and digits, joined across single inner apostrophes
 * and hyphens ("don't", "blue-collar"), lower-cased, with ’ read as '. A hand-written scanner: this
 * runs on every text cell of every file.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  const length = text.length;
  let start = -1;
  for (let i = 0; i <= length; i++) {
    if (i < length && isWordChar(text, i)) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    const c = i < length ? text.charCodeAt(i) : 0;
    if ((c === 39 || c === 0x2019 || c === 45) && i + 1 < length && isWordChar(text, i + 1)) continue;
    const word = text.slice(start, i).toLowerCase();
    out.push(word.includes('’') ? word.replace(/’/g, "'") : word);
    start = -1;
  }
  return out;
}

/**
 * A copy of a string that does not keep its parent alive: V8 makes substrings of 13 characters or
 * more as slices of the parent (here a whole chunk of the file), so a kept word or cell would pin
 * megabytes. Concatenating and slicing forces a fresh flat string.
 */
export function detach(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/** A word worth keeping in a WORDSET: not a stop word, not a bare number, not a single character. */
export function isMeaningful(word: string): boolean {
  return word.length > 1 && word.length <= 64 && !STOP_WORDS.has(word) && !isNumberLike(word);
}

function isNumberLike(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 128) return DIGITS.test(word);
    if (!((c >= 48 && c <= 57) || c === 45 || c === 39 || c === 44 || c === 46)) return false;
  }
  return true;
}

/**
 * Counts words and keeps the most frequent ones. When the map reaches twice its capacity it is pruned
 * to the `capacity` most frequent entries, so frequent words survive and memory stays bounded.
 */
export class TopWords {
  // Counts in boxes, so a word seen again costs one lookup and no set.
  private readonly counts = new Map<string, { n: number }>();

  constructor(private readonly capacity: number) {}

  add(word: string, times = 1): void {
    const box = this.counts.get(word);
    if (box !== undefined) {
      box.n += times;
      return;
    }
    this.insert(word, times);
  }

  /**
   * Counts the word once if it is meaningful; says whether it was. A word already counted was
   * meaningful when it came in, so only new words are checked.
   */
  addIfMeaningful(word: string): boolean {
    const box = this.counts.get(word);
    if (box !== undefined) {
      box.n++;
      return true;
    }
    if (!isMeaningful(word)) return false;
    this.insert(word, 1);
    return true;
  }

  private insert(word: string, times: number): void {
    this.counts.set(detach(word), { n: times });
    if (this.counts.size >= this.capacity * 2) this.prune();
  }

  addText(text: string): number {
    const found = words(text);
    for (const word of found) if (isMeaningful(word)) this.add(word);
    return found.length;
  }

  get size(): number {
    return this.counts.size;
  }

  entries(): Array<[string, number]> {
    return Array.from(this.counts, ([word, box]): [string, number] => [word, box.n]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  top(limit: number, filter: (word: string) => boolean = () => true): string[] {
    const out: string[] = [];
    for (const [word] of this.entries()) {
      if (out.length >= limit) break;
      if (filter(word)) out.push(word);
    }
    return out;
  }

  private prune(): void {
    const keep = this.entries().slice(0, this.capacity);
    this.counts.clear();
    for (const [word, count] of keep) this.counts.set(word, { n: count });
  }
}

/** Keywords: frequent words of at least 3 characters. */
export function keywordsOf(counter: TopWords, limit: number): string[] {
  return counter.top(limit, (word) => word.length >= 3);
}
