import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { documentAccessKeys, viewerAccessKeys, type RecordDocument, type SearchHit, type SearchQuery } from '@dc/search-index';
import { cursorKey, rank } from '../../../../libs/search-index/src/in-process-ranking';
import { RankedMemory, type Filter } from '../../../../libs/search-index/src/ranked-memory';
import { EMPTY_RESULT, resolveLimits } from '../../../../libs/search-index/src/search-index';
import { extraOf, oldestFirst, type PeerEngine, type PeerPage } from './engine';
import { readDocuments, writeDocuments } from './documents';

const LIMITS = resolveLimits({});

/**
 * Ours: the in-process index's memory (ranked-memory.ts) and ranking (in-process-ranking.ts), as
 * InProcessSearchIndex drives them, without its PostgreSQL store: the documents of a page come from
 * a Map here (the product reads them from PostgreSQL, one round trip per page), and a restart loads
 * the memory's snapshot (memory-snapshot-codec.ts, written to a file instead of the store's
 * deflated chunks) and the documents file.
 */
export class OursEngine implements PeerEngine {
  readonly name = 'ours (in-process index)';
  private memory = new RankedMemory();
  private documents = new Map<string, RecordDocument>();

  build(records: RecordDocument[]): void {
    // The store loads oldest change first (then id descending): the order the memory reads best.
    const ordered = [...records].sort(oldestFirst);
    for (const doc of ordered) {
      this.memory.add({
        id: doc.id,
        name: doc.name,
        altName: doc.altName ?? null,
        description: doc.description ?? '',
        extra: extraOf(doc),
        ownerId: doc.ownerId,
        accessKeys: documentAccessKeys(doc),
        groupIds: doc.groupIds ?? [],
        // The store keeps milliseconds.
        changedAt: Math.floor(Date.parse(doc.changedAt)),
        seq: 1,
      });
      this.documents.set(doc.id, doc);
    }
    this.memory.appliedSeq = 1;
  }

  search(query: SearchQuery): PeerPage {
    if (query.view === 'own' && !query.viewer) return { ...EMPTY_RESULT, hits: [] };
    const memory = this.memory;
    const filter: Filter = {
      keys: viewerAccessKeys(query.viewer).map((key) => memory.lookup(key)),
      owner: query.view === 'own' && query.viewer ? memory.lookup(`owner:${query.viewer.userId}`) : -1,
      group: query.groupId === undefined ? -1 : memory.lookup(`group:${query.groupId}`),
    };
    const ranked = rank(memory, filter, query, cursorKey(query), LIMITS);
    const hits = ranked.rows.map((row): SearchHit => {
      const doc = this.documents.get(memory.idOf(row.ordinal))!;
      return row.score === null ? doc : { ...doc, score: row.score };
    });
    return { count: ranked.count, countCapped: ranked.countCapped, hasMore: ranked.hasMore, hits };
  }

  persist(dir: string): { indexBytes: number; documentsBytes: number } {
    const fd = openSync(path.join(dir, 'ours.snapshot'), 'w');
    let bytes = 0;
    try {
      for (const piece of this.memory.snapshot().pieces) bytes += writeSync(fd, piece);
    } finally {
      closeSync(fd);
    }
    return { indexBytes: bytes, documentsBytes: writeDocuments(dir, this.documents.values()) };
  }

  restore(dir: string): number {
    this.memory = RankedMemory.restore(readFileSync(path.join(dir, 'ours.snapshot')));
    const started = performance.now();
    this.documents = new Map(readDocuments(dir).map((doc) => [doc.id, doc]));
    return (performance.now() - started) / 1000;
  }

  close(): void {
    this.documents.clear();
  }
}
