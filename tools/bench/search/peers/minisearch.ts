import path from 'node:path';
import MiniSearch, { type AsPlainObject, type Options, type SearchResult as MiniResult } from 'minisearch';
import { documentAccessKeys, normalizeSearchText, viewerAccessKeys, type RecordDocument, type SearchHit, type SearchQuery } from '@dc/search-index';
import { COUNT_LIMIT, extraOf, slicePage, words, type PeerEngine, type PeerPage } from './engine';
import { readDocuments, readLines, writeDocuments, writeLines } from './documents';

/** Fewer matches than this add the typo tier (fuzzy terms), as ours adds mistyped names (ranking-rules.ts FEW_MATCHES). */
const FEW_MATCHES = 10;
const MIN_TYPO_LENGTH = 4;

const OPTIONS: Options<RecordDocument> = {
  idField: 'id',
  fields: ['name', 'altName', 'description', 'extra'],
  // What the visibility filter and the tie-break read, kept by MiniSearch beside each document.
  storeFields: ['keys', 'ownerId', 'changed'],
  extractField: (doc, field) => {
    if (field === 'extra') return extraOf(doc);
    if (field === 'keys') return documentAccessKeys(doc);
    if (field === 'changed') return Date.parse(doc.changedAt);
    return (doc as unknown as Record<string, unknown>)[field] as string;
  },
  tokenize: words,
  // Every word required (as ours), BM25+ with the name and description weighted over the rest.
  searchOptions: { combineWith: 'AND', boost: { name: 3, altName: 3, description: 2 } },
};

interface Stored {
  keys: string[];
  ownerId: string;
  changed: number;
}

/**
 * MiniSearch 7: BM25+ over name, alternate name, description and the rest; visibility (and `own`)
 * as its filter callback over stored fields; a fuzzy search of names (edit distance up to 20% of a
 * word) as the typo tier when fewer than 10 records match. MiniSearch has no ordered browse, so the empty query
 * reads a newest-first array of the documents (kept by this adapter) through the same filter.
 */
export class MiniSearchEngine implements PeerEngine {
  readonly name = 'MiniSearch 7.2';
  private index = new MiniSearch<RecordDocument>(OPTIONS);
  private documents = new Map<string, RecordDocument>();
  /** Newest change first, then id: the empty query's order. */
  private newest: Array<Stored & { id: string }> = [];

  build(records: RecordDocument[]): void {
    this.index.addAll(records);
    this.take(records);
  }

  private take(records: RecordDocument[]) {
    this.documents = new Map(records.map((doc) => [doc.id, doc]));
    this.newest = records.map((doc) => ({ id: doc.id, keys: documentAccessKeys(doc), ownerId: doc.ownerId, changed: Date.parse(doc.changedAt) }));
    this.newest.sort((a, b) => b.changed - a.changed || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  search(query: SearchQuery): PeerPage {
    if (query.view === 'own' && !query.viewer) return { count: 0, countCapped: false, hasMore: false, hits: [] };
    const held = new Set(viewerAccessKeys(query.viewer));
    const owner = query.view === 'own' ? query.viewer!.userId : null;
    const visible = (stored: Stored) => (owner === null || stored.ownerId === owner) && stored.keys.some((key) => held.has(key));
    const text = normalizeSearchText(query.text);
    if (!text) return this.browse(query, visible);
    const filter = (result: MiniResult) => visible(result as unknown as Stored);
    const results = this.index.search(text, { filter });
    if (results.length < FEW_MATCHES && text.length >= MIN_TYPO_LENGTH) {
      const seen = new Set(results.map((result) => result.id));
      // Below every exact match, as ours ranks mistyped names below every match.
      const floor = Math.min(0, ...results.map((result) => result.score));
      // In names only, as ours matches mistyped names.
      const typos = this.index.search(text, { fields: ['name', 'altName'], fuzzy: 0.2, filter: (result) => !seen.has(result.id) && filter(result) });
      for (const typo of typos) results.push({ ...typo, score: floor - 1 / (1 + typo.score) });
    }
    // Ties newest first, then id, as ours.
    results.sort((a, b) => b.score - a.score || b.changed - a.changed || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const ranked = results.map((result): SearchHit => ({ ...this.documents.get(result.id)!, score: result.score }));
    return slicePage(ranked, query);
  }

  /** The empty query: newest first through the filter; a cursor is sought by binary search, else the page's offset is counted. */
  private browse(query: SearchQuery, visible: (stored: Stored) => boolean): PeerPage {
    const list = this.newest;
    let from = 0;
    let skip = (query.page - 1) * query.pageSize;
    if (query.after && query.page > 1) {
      const ms = Date.parse(query.after.changedAt);
      const id = query.after.id;
      let low = 0;
      let high = list.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (list[mid].changed > ms || (list[mid].changed === ms && list[mid].id <= id)) low = mid + 1;
        else high = mid;
      }
      from = low;
      skip = 0;
    }
    const hits: SearchHit[] = [];
    let seen = 0;
    for (let i = from; i < list.length && hits.length <= query.pageSize; i++) {
      if (!visible(list[i])) continue;
      if (seen++ >= skip) hits.push(this.documents.get(list[i].id)!);
    }
    // The count as ours gives it: every visible record, up to the count limit.
    let count = 0;
    for (let i = 0; i < list.length && count <= COUNT_LIMIT; i++) if (visible(list[i])) count++;
    return {
      count: Math.min(count, COUNT_LIMIT),
      countCapped: count > COUNT_LIMIT,
      hasMore: hits.length > query.pageSize,
      hits: hits.slice(0, query.pageSize),
    };
  }

  /**
   * MiniSearch's own serialization (toJSON, then loadJS at restart), written as lines: the index's
   * entries one a line after one line of everything else, since at a million records the JSON of the
   * whole (JSON.stringify then loadJSON) is longer than V8's longest string.
   */
  persist(dir: string): { indexBytes: number; documentsBytes: number } {
    const { index, ...rest } = this.index.toJSON();
    const indexBytes = writeLines(path.join(dir, 'minisearch.ndjson'), [rest, ...index]);
    return { indexBytes, documentsBytes: writeDocuments(dir, this.documents.values()) };
  }

  restore(dir: string): number {
    const [rest, ...index] = readLines<AsPlainObject | AsPlainObject['index'][number]>(path.join(dir, 'minisearch.ndjson'));
    this.index = MiniSearch.loadJS<RecordDocument>({ ...(rest as AsPlainObject), index: index as AsPlainObject['index'] }, OPTIONS);
    const started = performance.now();
    this.take(readDocuments(dir));
    return (performance.now() - started) / 1000;
  }

  close(): void {
    this.documents.clear();
    this.newest = [];
  }
}
