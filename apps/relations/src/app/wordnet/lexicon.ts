import { PARTS_OF_SPEECH, type PartOfSpeech, type Synset, WordNetFiles } from './wordnet-files';

export interface WordSense {
  pos: PartOfSpeech;
  synset: number;
  lemmas: string[];
  definition: string;
  examples: string[];
  /** The lemmas of its direct hypernyms (broader terms). */
  hypernyms: string[];
}

/** Ancestors of a synset in the hypernym hierarchy with their shortest distance, and its depth. */
interface Ancestry {
  distances: Map<number, number>;
  /** Nodes on the shortest path from the root (the root itself has depth 1). */
  depth: number;
}

const HYPERNYM = new Set(['@', '@i']);
/** Senses of a word compared (the most frequent first). */
const SENSES_COMPARED = 4;
/** Words whose compared senses are remembered (a relation compares every word of one record with every word of the other). */
const REMEMBERED_WORDS = 20_000;

/**
 * Lexical semantics over WordNet: word definitions, Wu-Palmer similarity of nouns and verbs (through
 * their hypernym hierarchy), and the broader terms shared by a set of words (infer-header).
 */
export class Lexicon {
  private readonly ancestries = new Map<string, Ancestry>();
  private readonly depths = new Map<string, number>();
  private readonly compared = new Map<string, Synset[]>();

  constructor(private readonly wordnet: WordNetFiles) {}

  /** Every sense of the word in every part of speech (most frequent first): the definition modal. */
  senses(word: string): WordSense[] {
    const senses: WordSense[] = [];
    for (const pos of PARTS_OF_SPEECH) {
      for (const synset of this.wordnet.synsetsOf(word, pos)) {
        const hypernyms = synset.pointers.filter((p) => HYPERNYM.has(p.symbol)).map((p) => this.wordnet.synset(p.pos, p.offset).lemmas[0]);
        senses.push({ pos, synset: synset.offset, lemmas: synset.lemmas, definition: synset.definition, examples: synset.examples, hypernyms });
      }
    }
    return senses;
  }

  /** Whether WordNet knows the word (any form, any part of speech). */
  knows(word: string): boolean {
    return PARTS_OF_SPEECH.some((pos) => this.wordnet.baseForms(word, pos).length > 0);
  }

  /**
   * Wu-Palmer similarity of two words: the best over their most frequent noun senses (then verb
   * senses), 2·depth(lcs) / (depth(a) + depth(b)) along the hypernym hierarchy, in [0, 1]; 1 for
   * synonyms (a shared synset). Words WordNet does not know are similar only when equal.
   */
  similarity(a: string, b: string): number {
    const x = a.trim().toLowerCase();
    const y = b.trim().toLowerCase();
    if (!x || !y) return 0;
    if (x === y) return 1;
    let best = 0;
    for (const pos of ['noun', 'verb'] as const) {
      const left = this.comparedSenses(x, pos);
      const right = this.comparedSenses(y, pos);
      for (const s of left) for (const t of right) best = Math.max(best, this.synsetSimilarity(s, t));
      if (best === 1) break;
    }
    return best;
  }

  /**
   * The broader terms (hypernyms) the given words share most, each with the share of the words it
   * covers, most specific first among equally common ones. Used to name a column from its values.
   */
  commonHypernyms(words: string[], limit = 5): Array<{ term: string; share: number; depth: number }> {
    const known = words.filter((w) => this.wordnet.synsetsOf(w, 'noun').length > 0);
    if (known.length === 0) return [];
    const counts = new Map<number, { count: number; depth: number; term: string }>();
    for (const word of known) {
      const seen = new Set<number>();
      for (const synset of this.wordnet.synsetsOf(word, 'noun').slice(0, 2)) {
        for (const [offset] of this.ancestry(synset).distances) {
          if (seen.has(offset)) continue;
          seen.add(offset);
          const ancestor = this.wordnet.synset('noun', offset);
          const entry = counts.get(offset) ?? { count: 0, depth: this.depthOf(ancestor), term: ancestor.lemmas[0] };
          entry.count++;
          counts.set(offset, entry);
        }
      }
    }
    return (
      [...counts.values()]
        // Terms near the root ("entity", "object", "abstraction") say nothing about a column.
        .filter((c) => c.depth >= 5)
        .sort((p, q) => q.count - p.count || q.depth - p.depth)
        .slice(0, limit)
        .map((c) => ({ term: c.term, share: c.count / known.length, depth: c.depth }))
    );
  }

  /** The most frequent senses of a word, looked up in WordNet's index once. */
  private comparedSenses(word: string, pos: 'noun' | 'verb'): Synset[] {
    const key = `${pos}:${word}`;
    let senses = this.compared.get(key);
    if (!senses) {
      senses = this.wordnet.synsetsOf(word, pos).slice(0, SENSES_COMPARED);
      if (this.compared.size >= REMEMBERED_WORDS) this.compared.clear();
      this.compared.set(key, senses);
    }
    return senses;
  }

  private synsetSimilarity(s: Synset, t: Synset): number {
    if (s.pos !== t.pos) return 0;
    if (s.offset === t.offset) return 1;
    const a = this.ancestry(s);
    const b = this.ancestry(t);
    let best = 0;
    for (const [offset, da] of a.distances) {
      const db = b.distances.get(offset);
      if (db === undefined) continue;
      const lcsDepth = this.depthOf(this.wordnet.synset(s.pos, offset));
      best = Math.max(best, (2 * lcsDepth) / (da + db + 2 * lcsDepth));
    }
    return best;
  }

  /** The synset and its ancestors with their shortest distances (breadth first over hypernyms). */
  private ancestry(synset: Synset): Ancestry {
    const key = `${synset.pos}:${synset.offset}`;
    const cached = this.ancestries.get(key);
    if (cached) return cached;
    const distances = new Map<number, number>([[synset.offset, 0]]);
    let frontier = [synset];
    for (let distance = 1; frontier.length && distance < 30; distance++) {
      const next: Synset[] = [];
      for (const node of frontier) {
        for (const pointer of node.pointers) {
          if (!HYPERNYM.has(pointer.symbol) || distances.has(pointer.offset)) continue;
          distances.set(pointer.offset, distance);
          next.push(this.wordnet.synset(pointer.pos, pointer.offset));
        }
      }
      frontier = next;
    }
    const ancestry = { distances, depth: this.depthOf(synset) };
    if (this.ancestries.size > 20_000) this.ancestries.clear();
    this.ancestries.set(key, ancestry);
    return ancestry;
  }

  /** Nodes on the shortest hypernym path from a root down to the synset (a root has depth 1). */
  private depthOf(synset: Synset): number {
    const key = `${synset.pos}:${synset.offset}`;
    const cached = this.depths.get(key);
    if (cached !== undefined) return cached;
    let depth = 1;
    let frontier = [synset];
    const seen = new Set<number>([synset.offset]);
    while (frontier.length && depth < 30) {
      const parents = frontier.flatMap((node) =>
        node.pointers.filter((p) => HYPERNYM.has(p.symbol) && !seen.has(p.offset)).map((p) => this.wordnet.synset(p.pos, p.offset)),
      );
      if (parents.length === 0 || frontier.some((node) => !node.pointers.some((p) => HYPERNYM.has(p.symbol)))) break;
      parents.forEach((p) => seen.add(p.offset));
      frontier = parents;
      depth++;
    }
    this.depths.set(key, depth);
    return depth;
  }
}
