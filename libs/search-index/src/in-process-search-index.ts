import { Pool } from 'pg';
import pino, { type Logger } from 'pino';
import { cursorKey, rank, rankRelated, type Ranked, type RankedRow, type RowKey } from './in-process-ranking';
import { InProcessStore } from './in-process-store';
import { RecentDocuments } from './recent-documents';
import { RankedMemory, type Filter } from './ranked-memory';
import { assertValidQuery, EMPTY_RESULT, InvalidSearchInputError, prepareDocuments, relatedTerms, resolveLimits, SearchIndex } from './search-index';
import type { BackgroundFailure, RecordDocument, SearchHit, SearchLimits, SearchQuery, SearchResult } from './search-index';
import { viewerAccessKeys } from './visibility';

export interface InProcessSearchIndexOptions extends SearchLimits {
  /** The PostgreSQL database that keeps the documents (the index's persistent store). */
  connectionString: string;
  /** The schema of the store's tables; default `search`. */
  schema?: string;
  /** Pool size; default 4. */
  max?: number;
  /** Load the index from the store as init() returns (default), or at the first search (a script that only clears it). */
  loadOnInit?: boolean;
  /** Rebuild in change order once the memory holds this many ordinals and a quarter are dead or out of order; default 10,000. */
  rebuildMinOrdinals?: number;
  /** Write a snapshot of the memory after a full load and once this many rows were applied since the last; default 50,000, 0 never. */
  snapshotAfterRows?: number;
  /** Documents of recently answered pages kept in memory, so their pages need not read them again; default 5,000, 0 none. */
  documentsKept?: number;
  /** Where failures of the background work (loading, snapshots, rebuilds) are logged; default none (snapshots' and rebuilds' still show in backgroundFailures()). */
  logger?: Logger;
}

/** Where the memory came from when the index started: a snapshot (and the writes after it) or every row of the store. */
export type MemoryOrigin = 'snapshot' | 'store';

/** The background work whose failures are kept (backgroundFailures()) until it succeeds again. */
type BackgroundTask = 'snapshot' | 'rebuild';

/** Documents kept from answered pages: 250 pages of 20 (the benchmark's records take ~1 KB of heap each, 5 MB in all). */
const DOCUMENTS_KEPT = 5000;
/** Rebuilding the memory in change order pays off once this share of its ordinals is dead or out of order. */
const REBUILD_SHARE = 0.25;
const REBUILD_MIN_ORDINALS = 10_000;
const SNAPSHOT_AFTER_ROWS = 50_000;
/** A failed load is tried again after this wait, doubled with each failure in a row up to the second (a database back within seconds is not kept waiting long). */
const LOAD_RETRY_FIRST_MS = 500;
const LOAD_RETRY_MAX_MS = 30_000;

/**
 * SearchIndex as an in-process inverted index (ranked-memory.ts, ranked by in-process-ranking.ts),
 * the embedded mode's search.
 *
 * Ranking is the PostgreSQL adapter's, but every posting list is read newest first and only as far
 * back as a page, the count limit (1,000) or the search-after cursor need, so a word in most records
 * costs no more than a rare one, and a deep page reads on from its cursor.
 *
 * The documents live in PostgreSQL (in-process-store.ts, tables `memory_*` of the schema): that is
 * what survives a restart, what `npm run reindex` clears and what another process (or instance)
 * writes. Each write takes the next number of a store-wide sequence, so sequence order is commit
 * order. A search ranks with the memory as it is and reads the sequence in the same statement as
 * the page's documents; when the store had writes the memory had not applied, it applies the rows
 * written since (one catch-up shared by concurrent searches) and ranks again. At start it loads the
 * newest snapshot of the memory (memory-snapshots.ts, tagged with the sequence number it includes)
 * and applies the writes numbered after it; without a usable one (none, corrupt, of another format,
 * older than the last clear) it loads every row, oldest change first, and writes a snapshot.
 * Snapshots are written again in the background once enough rows were applied since the last.
 * Documents of a result page come from the store, unless kept from an earlier page at the same write.
 * Failures of the background work are logged and kept (backgroundFailures()) until it next succeeds.
 */
export class InProcessSearchIndex extends SearchIndex {
  private readonly pool: Pool;
  private readonly store: InProcessStore;
  private readonly limits: Required<SearchLimits>;
  private memory: RankedMemory | null = null;
  /** A memory rebuilt in change order, swapped in by the next catch-up. */
  private replacement: RankedMemory | null = null;
  private rebuilding = false;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private closed = false;
  private readonly loadOnInit: boolean;
  private readonly rebuildMinOrdinals: number;
  private readonly snapshotAfterRows: number;
  /** Rows applied since the memory was last written as a snapshot (or loaded from one). */
  private rowsSinceSnapshot = 0;
  private snapshotWrite: Promise<void> | null = null;
  private origin: MemoryOrigin | null = null;
  /** Set once the memory is loaded and has caught up with the store: searches are answered without waiting for a load. */
  private ready = false;
  /** What the first load is doing (readiness reports it until the memory is ready). */
  private loadStep = 'search index not loaded yet';
  private loadUnderWay = false;
  private loadFailure: Error | null = null;
  /** The failed load's next try, and how many loads failed in a row (the wait doubles with each). */
  private loadRetry: NodeJS.Timeout | null = null;
  private loadFailuresInRow = 0;
  private snapshotRejection: Error | null = null;
  private readonly recentDocuments: RecentDocuments;
  private readonly logger: Logger;
  private readonly failures = new Map<BackgroundTask, BackgroundFailure>();

  constructor(options: InProcessSearchIndexOptions) {
    super();
    const schema = options.schema ?? 'search';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new InvalidSearchInputError(`invalid schema name: ${schema}`);
    this.limits = resolveLimits(options);
    this.loadOnInit = options.loadOnInit ?? true;
    this.rebuildMinOrdinals = options.rebuildMinOrdinals ?? REBUILD_MIN_ORDINALS;
    this.pool = new Pool({ connectionString: options.connectionString, max: options.max ?? 4 });
    this.pool.on('error', () => undefined);
    this.store = new InProcessStore(this.pool, schema);
    this.snapshotAfterRows = options.snapshotAfterRows ?? SNAPSHOT_AFTER_ROWS;
    this.recentDocuments = new RecentDocuments(options.documentsKept ?? DOCUMENTS_KEPT);
    this.logger = (options.logger ?? pino({ level: 'silent' })).child({ component: 'in-process-search-index', schema });
  }

  async init(): Promise<void> {
    await this.store.create();
    // Loading starts now, so the first search finds the index ready; a failure shows in readiness and is tried again.
    if (this.loadOnInit) this.loadInBackground();
  }

  /**
   * Loads the memory unless a load is under way; a failure is logged, kept for notReady() and tried
   * again after a wait that doubles with each failure in a row (from LOAD_RETRY_FIRST_MS up to
   * LOAD_RETRY_MAX_MS), or at the next search, whichever comes first.
   */
  private loadInBackground() {
    if (this.loadUnderWay || this.closed) return;
    this.loadUnderWay = true;
    if (this.loadRetry) clearTimeout(this.loadRetry);
    this.loadRetry = null;
    this.sync()
      .then(
        () => {
          this.loadFailure = null;
          this.loadFailuresInRow = 0;
        },
        (error: unknown) => {
          if (this.closed) return;
          this.loadFailure = error instanceof Error ? error : new Error(String(error));
          const waitMs = Math.min(LOAD_RETRY_MAX_MS, LOAD_RETRY_FIRST_MS * 2 ** this.loadFailuresInRow++);
          this.logger.error({ err: error, retryInMs: waitMs }, 'loading the search index failed: it is tried again after a wait, or at the next search');
          this.loadRetry = setTimeout(() => this.loadInBackground(), waitMs);
          this.loadRetry.unref();
        },
      )
      .finally(() => (this.loadUnderWay = false));
  }

  /**
   * Not ready until the memory is loaded and has applied the writes since: a search meanwhile waits
   * for the load (tens of seconds at a million records), so during a rolling restart the load
   * balancer keeps sending searches to the replicas already loaded. A failed load is tried again.
   */
  override notReady(): string | null {
    if (this.ready) return null;
    if (this.closed) return 'search index closed';
    if (!this.loadOnInit && !this.loadUnderWay && !this.running) return 'search index not loaded: it loads at the first search';
    const failure = this.loadFailure;
    return failure ? `search index loading failed (${failure.message}), trying again` : this.loadStep;
  }

  async upsert(docs: RecordDocument[]): Promise<void> {
    const prepared = prepareDocuments(docs);
    if (prepared.length === 0) return;
    await this.store.upsert(prepared);
    await this.syncAfterWrite();
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.store.remove(ids);
    await this.syncAfterWrite();
  }

  async clear(): Promise<void> {
    await this.store.clear();
    await this.syncAfterWrite();
  }

  get(id: string): Promise<RecordDocument | null> {
    return this.store.get(id);
  }

  async getMany(ids: string[]): Promise<RecordDocument[]> {
    if (ids.length === 0) return [];
    return this.store.getMany(ids);
  }

  count(): Promise<number> {
    return this.store.count();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.loadRetry) clearTimeout(this.loadRetry);
    await this.running?.catch(() => undefined);
    await this.snapshotWrite;
    await this.pool.end();
    // A closed index answers nothing: its memory (hundreds of megabytes at a million records) is let go, whoever still holds the index.
    this.memory = this.replacement = null;
  }

  override backgroundFailures(): BackgroundFailure[] {
    return [...this.failures.values()];
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    assertValidQuery(query);
    if (query.view === 'own' && !query.viewer) return EMPTY_RESULT;
    const after = cursorKey(query);
    if (!this.memory || this.replacement) await this.sync();
    // Ranked with the memory as it is; the query of the page's documents also reads the store's
    // last write number, and only when the ranking missed a write is the memory brought up to it
    // and the page ranked again. So a search sees every write that finished before it began, at
    // one round trip to the store.
    for (let attempt = 1; ; attempt++) {
      const memory = this.memory!;
      const applied = memory.appliedSeq;
      const filter: Filter = {
        keys: viewerAccessKeys(query.viewer).map((key) => memory.lookup(key)),
        owner: query.view === 'own' && query.viewer ? memory.lookup(`owner:${query.viewer.userId}`) : -1,
        group: query.groupId === undefined ? -1 : memory.lookup(`group:${query.groupId}`),
      };
      const ranked = query.relatedTo !== undefined ? await this.rankRelated(memory, filter, query, after) : rank(memory, filter, query, after, this.limits);
      const page = await this.documentsOf(memory, ranked ? ranked.rows : []);
      // The second time, the memory holds every write up to the number the first query read.
      if (page.generation > applied && attempt === 1) {
        await this.sync();
        continue;
      }
      return ranked ? { count: ranked.count, countCapped: ranked.countCapped, hasMore: ranked.hasMore, results: page.hits } : EMPTY_RESULT;
    }
  }

  private async rankRelated(memory: RankedMemory, filter: Filter, query: SearchQuery, after: RowKey | null): Promise<Ranked | null> {
    const ordinal = memory.ordinalOf(query.relatedTo!);
    // The reference is read under the viewer's visibility like any other record (not the own or project filter).
    if (ordinal === undefined || !memory.passes(ordinal, { keys: filter.keys, owner: -1, group: -1 })) return null;
    const reference = await this.get(query.relatedTo!);
    const terms = reference ? relatedTerms(reference) : [];
    if (terms.length === 0) return null;
    // Ranked after the wait: the memory may have taken writes meanwhile.
    return rankRelated(memory, filter, ordinal, terms, query, after, this.limits.resultWindow);
  }

  /**
   * The documents of a page's rows, and the store's last write number, read in one statement (one
   * snapshot of the store). Documents kept from earlier pages are not read again when the ranking
   * names the same write of their record.
   */
  private async documentsOf(memory: RankedMemory, rows: RankedRow[]): Promise<{ generation: number; hits: SearchHit[] }> {
    const docs: Array<RecordDocument | undefined> = rows.map((row) => this.recentDocuments.get(memory.idOf(row.ordinal), memory.seqOf(row.ordinal)));
    const found = await this.store.page(rows.filter((_, i) => docs[i] === undefined).map((row) => memory.idOf(row.ordinal)));
    const read = new Map<string, RecordDocument>();
    for (const { id, seq, doc } of found.docs) read.set(id, this.recentDocuments.keep(id, seq, doc));
    const hits = rows.flatMap((row, i): SearchHit[] => {
      const doc = docs[i] ?? read.get(memory.idOf(row.ordinal));
      if (!doc) return [];
      return [row.score === null ? doc : { ...doc, score: row.score }];
    });
    return { generation: found.generation, hits };
  }

  /** A write is applied before it returns, unless nothing was loaded yet and loading waits for a search. */
  private async syncAfterWrite(): Promise<void> {
    if (this.memory || this.loadOnInit || this.running) await this.sync();
  }

  /**
   * Brings the memory up to the store's last write. Concurrent callers share one pass that starts
   * after they asked, so a search sees every write that finished before it began.
   */
  private sync(): Promise<void> {
    if (this.queued) return this.queued;
    const previous = this.running ?? Promise.resolve();
    const next: Promise<void> = previous
      .catch(() => undefined)
      .then(() => {
        if (this.queued === next) this.queued = null;
        return this.catchUp();
      })
      .then(() => {
        if (!this.memory || this.ready) return;
        // What the load left behind (most of the heap after a restore) is collected now, before the
        // first search, not by a full collection later that would pause the searches under way.
        collectGarbage();
        this.ready = true;
      });
    this.queued = next;
    this.running = next;
    return next;
  }

  private async catchUp(): Promise<void> {
    if (this.closed) return;
    if (this.replacement) {
      this.memory = this.replacement;
      this.replacement = null;
      // Rebuilt in change order, without dead entries: worth keeping.
      this.rowsSinceSnapshot = Infinity;
    }
    if (!this.memory) {
      this.loadStep = 'search index loading from its snapshot';
      const restored = await this.restore();
      this.origin = restored ? 'snapshot' : 'store';
      if (!restored) {
        this.loadStep = 'search index loading every record of the store (no usable snapshot)';
        this.memory = await this.store.load(() => this.closed);
        this.rowsSinceSnapshot = this.memory.size > 0 ? Infinity : 0;
        this.snapshotSoon();
        return;
      }
      // Then the writes numbered after it, as any catch-up.
      this.memory = restored;
      this.loadStep = 'search index applying the writes made since its snapshot';
    }
    const { generation, cleared } = await this.store.readState();
    let memory = this.memory;
    if (generation === memory.appliedSeq) return this.snapshotSoon();
    if (cleared > memory.appliedSeq) memory = this.memory = new RankedMemory(cleared);
    const removals = await this.store.changes(memory.appliedSeq, generation, (records) => {
      for (const record of records) memory.add(record);
      this.rowsSinceSnapshot += records.length;
    });
    for (const removal of removals) memory.remove(removal.id, removal.seq);
    this.rowsSinceSnapshot += removals.length;
    memory.appliedSeq = generation;
    if (memory.ordinals >= this.rebuildMinOrdinals && memory.disorder > memory.ordinals * REBUILD_SHARE) this.rebuild();
    else this.snapshotSoon();
  }

  /** Where the memory came from at start (for tests and the benchmark); null before it is loaded. */
  get memoryOrigin(): MemoryOrigin | null {
    return this.origin;
  }

  /** Why the last snapshot found at start was not used (for tests). */
  get lastSnapshotRejection(): Error | null {
    return this.snapshotRejection;
  }

  /** Resolves once the snapshot being written, if any, is written or given up (for tests and the benchmark). */
  async snapshotWritten(): Promise<void> {
    await this.snapshotWrite;
  }

  /** The newest usable snapshot as a memory, or null (none, or unusable: the full load follows). */
  private async restore(): Promise<RankedMemory | null> {
    try {
      const stored = await this.store.snapshots.readNewest();
      if (!stored) return null;
      const memory = RankedMemory.restore(stored.bytes);
      if (memory.appliedSeq !== stored.seq) throw new Error(`snapshot says sequence ${memory.appliedSeq}, its row ${stored.seq}`);
      return memory;
    } catch (error) {
      this.snapshotRejection = error instanceof Error ? error : new Error(String(error));
      this.logger.warn({ err: this.snapshotRejection }, 'snapshot of the search index passed over: loading every record of the store instead');
      return null;
    }
  }

  /**
   * Writes a snapshot of the memory, as it is at the end of a catch-up, once enough rows were
   * applied since the last: in the background (a search does not wait for it), taken at once
   * (a copy of the alive flags; the rest is read while the memory takes further writes).
   */
  private snapshotSoon() {
    const memory = this.memory;
    if (this.snapshotAfterRows <= 0 || this.snapshotWrite || this.closed || !memory || memory.size === 0) return;
    if (this.rowsSinceSnapshot < this.snapshotAfterRows) return;
    const snapshot = memory.snapshot();
    this.rowsSinceSnapshot = 0;
    this.snapshotWrite = this.store.snapshots
      .write(snapshot, () => this.closed)
      .then(() => this.succeeded('snapshot'))
      // Tried again after as many rows more.
      .catch((error: unknown) => this.failed('snapshot', error))
      .finally(() => {
        this.snapshotWrite = null;
      });
  }

  /** Whether a rebuild is under way (for tests). */
  get isRebuilding(): boolean {
    return this.rebuilding || this.replacement !== null;
  }

  /** Loads the memory in the background, in change order, to replace one grown out of order. */
  private rebuild() {
    if (this.rebuilding) return;
    this.rebuilding = true;
    this.store
      .load(() => this.closed)
      .then((memory) => {
        if (!this.closed) this.replacement = memory;
        this.succeeded('rebuild');
      })
      // Tried again at the next catch-up that finds the memory out of order.
      .catch((error: unknown) => this.failed('rebuild', error))
      .finally(() => {
        this.rebuilding = false;
      });
  }

  /** Logs a failure of background work and keeps it for backgroundFailures(), unless the index is closing (work given up). */
  private failed(task: BackgroundTask, error: unknown) {
    if (this.closed) return;
    const message = error instanceof Error ? error.message : String(error);
    this.failures.set(task, { task, at: new Date().toISOString(), message });
    this.logger.error({ err: error, task }, `search index ${task} failed`);
  }

  private succeeded(task: BackgroundTask) {
    if (this.failures.delete(task)) this.logger.info({ task }, `search index ${task} succeeded again`);
  }
}

/** A full collection, when the process runs with --expose-gc (npm start's flags); otherwise nothing. */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
