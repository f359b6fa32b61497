import { Pool, type PoolClient } from 'pg';
import { MemorySnapshotStore } from './memory-snapshots';
import { RELATED_CANDIDATES } from './postgres-search-index';
import { RecentDocuments } from './recent-documents';
import { RankedMemory, tokenize, union, type Filter, type IndexedRecord, type OrdinalStream, type RankedRow, type RowKey, type Visible } from './ranked-memory';
import {
  assertValidQuery,
  chunk,
  EMPTY_RESULT,
  InvalidSearchInputError,
  normalizeSearchText,
  pageSlice,
  prepareDocuments,
  relatedTerms,
  resolveLimits,
  SearchIndex,
  type RecordDocument,
  type SearchHit,
  type SearchLimits,
  type SearchQuery,
  type SearchResult,
} from './search-index';
import { documentAccessKeys, viewerAccessKeys } from './visibility';

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
}

/** Where the memory came from when the index started: a snapshot (and the writes after it) or every row of the store. */
export type MemoryOrigin = 'snapshot' | 'store';

/** Score of each ranking tier, as the PostgreSQL adapter's, so both rank alike. */
const SCORE = { exactName: 4, name: 3, description: 2, anywhere: 1, typo: 0.5, anyWord: 0.25 } as const;
/** When fewer records than this contain every word, mistyped names and records with any word follow them. */
const FEW_MATCHES = 10;
const MIN_TYPO_LENGTH = 4;
/** A name is a typo match when it comes this close to the text (pg_trgm's strict word similarity default here). */
const TYPO_THRESHOLD = 0.5;
/** Name words at least this close to a word of the text make their names typo candidates. */
const TYPO_WORD_THRESHOLD = 0.3;
const UPSERT_BATCH = 500;
/** Documents kept from answered pages: 250 pages of 20 (the benchmark's records take ~1 KB of heap each, 5 MB in all). */
const DOCUMENTS_KEPT = 5000;
const LOAD_BATCH = 5000;
/** Rebuilding the memory in change order pays off once this share of its ordinals is dead or out of order. */
const REBUILD_SHARE = 0.25;
const REBUILD_MIN_ORDINALS = 10_000;
const SNAPSHOT_AFTER_ROWS = 50_000;

const LAYOUT = 'in-process search store 1';

interface StoreRow {
  id: string;
  name: string;
  alt_name: string | null;
  description: string;
  extra: string;
  owner_id: string;
  access_keys: string[];
  group_ids: string[];
  changed_ms: number;
  seq: string;
}

const STORE_COLUMNS = `id, name, alt_name, description, extra, owner_id, access_keys, group_ids, (extract(epoch FROM changed_at) * 1000)::float8 AS changed_ms, seq`;

const toIndexed = (row: StoreRow): IndexedRecord => ({
  id: row.id,
  name: row.name,
  altName: row.alt_name,
  description: row.description,
  extra: row.extra,
  ownerId: row.owner_id,
  accessKeys: row.access_keys,
  groupIds: row.group_ids,
  changedAt: row.changed_ms,
  seq: Number(row.seq),
});

/**
 * SearchIndex as an in-process inverted index (ranked-memory.ts), the embedded mode's search.
 *
 * Ranking is the PostgreSQL adapter's (exact name; every word in the name; in name or description;
 * anywhere; mistyped names and any word only when fewer than FEW_MATCHES records have every word;
 * ties newest first), but every posting list is read newest first and only as far back as a page,
 * the count limit (1,000) or the search-after cursor need, so a word in most records costs no more
 * than a rare one, and a deep page reads on from its cursor.
 *
 * The documents live in PostgreSQL (tables `memory_*` of the schema): that is what survives a
 * restart, what `npm run reindex` clears and what another process (or instance) writes. Each write
 * takes the next number of a store-wide sequence under a row lock, so sequence order is commit
 * order. A search ranks with the memory as it is and reads the sequence in the same statement as
 * the page's documents; when the store had writes the memory had not applied, it applies the rows
 * written since (one catch-up shared by concurrent searches) and ranks again. At start it loads the newest snapshot of the
 * memory (memory-snapshots.ts, tagged with the sequence number it includes) and applies the writes
 * numbered after it; without a usable one (none, corrupt, of another format, older than the last
 * clear) it loads every row, oldest change first, and writes a snapshot. Snapshots are written again
 * in the background once enough rows were applied since the last.
 * Documents of a result page come from the store, unless kept from an earlier page at the same write.
 */
export class InProcessSearchIndex extends SearchIndex {
  private readonly pool: Pool;
  private readonly schema: string;
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
  private readonly snapshots: MemorySnapshotStore;
  private readonly snapshotAfterRows: number;
  /** Rows applied since the memory was last written as a snapshot (or loaded from one). */
  private rowsSinceSnapshot = 0;
  private snapshotWrite: Promise<void> | null = null;
  private origin: MemoryOrigin | null = null;
  private snapshotRejection: Error | null = null;
  private readonly recentDocuments: RecentDocuments;

  constructor(options: InProcessSearchIndexOptions) {
    super();
    const schema = options.schema ?? 'search';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new InvalidSearchInputError(`invalid schema name: ${schema}`);
    this.schema = schema;
    this.limits = resolveLimits(options);
    this.loadOnInit = options.loadOnInit ?? true;
    this.rebuildMinOrdinals = options.rebuildMinOrdinals ?? REBUILD_MIN_ORDINALS;
    this.pool = new Pool({ connectionString: options.connectionString, max: options.max ?? 4 });
    this.pool.on('error', () => undefined);
    this.snapshots = new MemorySnapshotStore(this.pool, schema);
    this.snapshotAfterRows = options.snapshotAfterRows ?? SNAPSHOT_AFTER_ROWS;
    this.recentDocuments = new RecentDocuments(options.documentsKept ?? DOCUMENTS_KEPT);
  }

  private get records() {
    return `"${this.schema}".memory_records`;
  }
  private get removed() {
    return `"${this.schema}".memory_removed`;
  }
  private get state() {
    return `"${this.schema}".memory_state`;
  }

  async init(): Promise<void> {
    await this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`in-process-search:${this.schema}`]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
      const { rows } = await client.query<{ layout: string | null }>(`SELECT obj_description(to_regclass($1), 'pg_class') AS layout`, [this.records]);
      if (rows[0].layout !== LAYOUT)
        await client.query(`DROP TABLE IF EXISTS ${[this.records, this.removed, this.state, ...this.snapshots.tables].join(', ')}`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${this.records} (
          id text COLLATE "C" PRIMARY KEY,
          seq bigint NOT NULL,
          changed_at timestamptz NOT NULL,
          name text NOT NULL,
          alt_name text,
          description text NOT NULL,
          extra text NOT NULL,
          owner_id text NOT NULL,
          access_keys text[] NOT NULL,
          group_ids text[] NOT NULL,
          doc jsonb NOT NULL
        )`);
      await client.query(`COMMENT ON TABLE ${this.records} IS '${LAYOUT}'`);
      await client.query(`CREATE INDEX IF NOT EXISTS memory_records_seq_idx ON ${this.records} (seq, id)`);
      // Removals, kept so another process applying the writes it missed removes the same documents.
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.removed} (id text COLLATE "C" NOT NULL, seq bigint NOT NULL)`);
      await client.query(`CREATE INDEX IF NOT EXISTS memory_removed_seq_idx ON ${this.removed} (seq)`);
      // One row: the last write's sequence number, and the number of the last clear().
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.state} (one boolean PRIMARY KEY DEFAULT true CHECK (one), generation bigint NOT NULL, cleared bigint NOT NULL)`,
      );
      await client.query(`INSERT INTO ${this.state} (generation, cleared) VALUES (0, 0) ON CONFLICT DO NOTHING`);
      await this.snapshots.create(client);
    });
    // Loading starts now, so the first search finds the index ready; a failure shows at that search.
    if (this.loadOnInit) this.sync().catch(() => undefined);
  }

  async upsert(docs: RecordDocument[]): Promise<void> {
    const prepared = prepareDocuments(docs);
    if (prepared.length === 0) return;
    await this.transaction(async (client) => {
      const seq = await this.nextSequence(client);
      for (const batch of chunk(prepared, UPSERT_BATCH)) {
        const rows = batch.map((doc) => ({
          id: doc.id,
          name: doc.name,
          alt_name: doc.altName ?? null,
          description: doc.description ?? '',
          extra: [...(doc.headers ?? []), ...(doc.words ?? [])].join(' '),
          owner_id: doc.ownerId,
          access_keys: documentAccessKeys(doc),
          group_ids: doc.groupIds ?? [],
          changed_at: doc.changedAt,
          doc,
        }));
        await client.query(
          `INSERT INTO ${this.records} (id, seq, changed_at, name, alt_name, description, extra, owner_id, access_keys, group_ids, doc)
           SELECT id, $2, date_trunc('milliseconds', changed_at), name, alt_name, description, extra, owner_id, access_keys, group_ids, doc
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text, alt_name text, description text, extra text, owner_id text,
             access_keys text[], group_ids text[], changed_at timestamptz, doc jsonb)
           ON CONFLICT (id) DO UPDATE SET seq = EXCLUDED.seq, changed_at = EXCLUDED.changed_at, name = EXCLUDED.name, alt_name = EXCLUDED.alt_name,
             description = EXCLUDED.description, extra = EXCLUDED.extra, owner_id = EXCLUDED.owner_id, access_keys = EXCLUDED.access_keys,
             group_ids = EXCLUDED.group_ids, doc = EXCLUDED.doc`,
          [JSON.stringify(rows), seq],
        );
      }
    });
    await this.syncAfterWrite();
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.transaction(async (client) => {
      const seq = await this.nextSequence(client);
      await client.query(
        `WITH gone AS (DELETE FROM ${this.records} WHERE id = ANY($1::text[]) RETURNING id) INSERT INTO ${this.removed} (id, seq) SELECT id, $2 FROM gone`,
        [ids, seq],
      );
    });
    await this.syncAfterWrite();
  }

  async clear(): Promise<void> {
    await this.transaction(async (client) => {
      const seq = await this.nextSequence(client);
      await client.query(`TRUNCATE ${this.records}, ${this.removed}`);
      await client.query(`UPDATE ${this.state} SET cleared = $1`, [seq]);
      // A snapshot being written meanwhile commits after this, but is older than the clear: never loaded.
      await this.snapshots.clear(client);
    });
    await this.syncAfterWrite();
  }

  async get(id: string): Promise<RecordDocument | null> {
    const { rows } = await this.pool.query<{ doc: RecordDocument }>(`SELECT doc FROM ${this.records} WHERE id = $1`, [id]);
    return rows[0]?.doc ?? null;
  }

  async getMany(ids: string[]): Promise<RecordDocument[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<{ doc: RecordDocument }>(`SELECT doc FROM ${this.records} WHERE id = ANY($1)`, [ids]);
    return rows.map((row) => row.doc);
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${this.records}`);
    return rows[0].count;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.running?.catch(() => undefined);
    await this.snapshotWrite;
    await this.pool.end();
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
    // Prepared after the wait: the memory may have taken writes meanwhile.
    const visible = memory.visibleTo(filter);
    const candidates = memory.newest(memory.anyWord(terms), (o) => o !== ordinal && visible.passes(o), RELATED_CANDIDATES);
    const rows = candidates
      .map((o): RankedRow => ({
        ordinal: o,
        score: 3 * memory.countWords(o, terms, 'name') + 2 * memory.countWords(o, terms, 'summary') + memory.countWords(o, terms, 'all'),
      }))
      .sort((a, b) => b.score! - a.score! || memory.compareNewest(a.ordinal, b.ordinal));
    return pageOf(memory, rows, { count: rows.length, countCapped: rows.length >= RELATED_CANDIDATES }, query, after, this.limits.resultWindow);
  }

  /**
   * The documents of a page's rows, and the store's last write number, read in one statement (one
   * snapshot of the store). Documents kept from earlier pages are not read again when the ranking
   * names the same write of their record.
   */
  private async documentsOf(memory: RankedMemory, rows: RankedRow[]): Promise<{ generation: number; hits: SearchHit[] }> {
    const docs: Array<RecordDocument | undefined> = rows.map((row) => this.recentDocuments.get(memory.idOf(row.ordinal), memory.seqOf(row.ordinal)));
    const found = await this.pool.query<{ generation: string | null; id: string | null; seq: string | null; doc: RecordDocument | null }>({
      // Prepared once per connection: every search runs it, and PostgreSQL then plans it once.
      name: `in-process-search-page:${this.schema}`,
      text: `SELECT generation, NULL AS id, NULL::bigint AS seq, NULL::jsonb AS doc FROM ${this.state} UNION ALL SELECT NULL, id, seq, doc FROM ${this.records} WHERE id = ANY($1::text[])`,
      values: [rows.filter((_, i) => docs[i] === undefined).map((row) => memory.idOf(row.ordinal))],
    });
    let generation = 0;
    const read = new Map<string, RecordDocument>();
    for (const row of found.rows) {
      if (row.id === null) generation = Number(row.generation);
      else read.set(row.id, this.recentDocuments.keep(row.id, Number(row.seq), row.doc!));
    }
    const hits = rows.flatMap((row, i): SearchHit[] => {
      const doc = docs[i] ?? read.get(memory.idOf(row.ordinal));
      if (!doc) return [];
      return [row.score === null ? doc : { ...doc, score: row.score }];
    });
    return { generation, hits };
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
      const restored = await this.restore();
      this.origin = restored ? 'snapshot' : 'store';
      if (!restored) {
        this.memory = await this.load();
        this.rowsSinceSnapshot = this.memory.size > 0 ? Infinity : 0;
        this.snapshotSoon();
        return;
      }
      // Then the writes numbered after it, as any catch-up.
      this.memory = restored;
    }
    const { rows } = await this.pool.query<{ generation: string; cleared: string }>(`SELECT generation, cleared FROM ${this.state}`);
    const generation = Number(rows[0].generation);
    const cleared = Number(rows[0].cleared);
    let memory = this.memory;
    if (generation === memory.appliedSeq) return this.snapshotSoon();
    if (cleared > memory.appliedSeq) memory = this.memory = new RankedMemory(cleared);
    const from = memory.appliedSeq;
    const removals = await this.pool.query<{ id: string; seq: string }>(`SELECT id, seq FROM ${this.removed} WHERE seq > $1 AND seq <= $2`, [from, generation]);
    let last: [number, string] = [from, ''];
    for (;;) {
      const batch = await this.pool.query<StoreRow>(
        // After the last row read; `seq > from` keeps out the rows of the write applied last (the first batch's (from, '') does not).
        `SELECT ${STORE_COLUMNS} FROM ${this.records} WHERE seq > $4 AND (seq, id) > ($1, $2) AND seq <= $3 ORDER BY seq, id LIMIT ${LOAD_BATCH}`,
        [last[0], last[1], generation, from],
      );
      for (const row of batch.rows) memory.add(toIndexed(row));
      this.rowsSinceSnapshot += batch.rows.length;
      if (batch.rows.length < LOAD_BATCH) break;
      const end = batch.rows[batch.rows.length - 1];
      last = [Number(end.seq), end.id];
    }
    for (const row of removals.rows) memory.remove(row.id, Number(row.seq));
    this.rowsSinceSnapshot += removals.rows.length;
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
      const stored = await this.snapshots.readNewest();
      if (!stored) return null;
      const memory = RankedMemory.restore(stored.bytes);
      if (memory.appliedSeq !== stored.seq) throw new Error(`snapshot says sequence ${memory.appliedSeq}, its row ${stored.seq}`);
      return memory;
    } catch (error) {
      this.snapshotRejection = error instanceof Error ? error : new Error(String(error));
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
    this.snapshotWrite = this.snapshots
      .write(snapshot, () => this.closed)
      .then(() => undefined)
      // Tried again after as many rows more.
      .catch(() => undefined)
      .finally(() => {
        this.snapshotWrite = null;
      });
  }

  /** Loads the memory in the background, in change order, to replace one grown out of order. */
  /** Whether a rebuild is under way (for tests). */
  get isRebuilding(): boolean {
    return this.rebuilding || this.replacement !== null;
  }

  private rebuild() {
    if (this.rebuilding) return;
    this.rebuilding = true;
    this.load()
      .then((memory) => {
        if (!this.closed) this.replacement = memory;
      })
      .catch(() => undefined)
      .finally(() => {
        this.rebuilding = false;
      });
  }

  /** Every stored document, oldest change first, as of one snapshot of the store. */
  private async load(): Promise<RankedMemory> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { rows } = await client.query<{ generation: string }>(`SELECT generation FROM ${this.state}`);
      const memory = new RankedMemory(Number(rows[0].generation));
      // Ties in reverse id order: read from the end, the list then meets them in id order.
      await client.query(`DECLARE memory_load NO SCROLL CURSOR FOR SELECT ${STORE_COLUMNS} FROM ${this.records} ORDER BY changed_at, id DESC`);
      for (;;) {
        if (this.closed) break;
        const batch = await client.query<StoreRow>(`FETCH ${LOAD_BATCH} FROM memory_load`);
        for (const row of batch.rows) memory.add(toIndexed(row));
        if (batch.rows.length < LOAD_BATCH) break;
      }
      await client.query('COMMIT');
      return memory;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** The next write's sequence number; the row lock orders writes by commit. */
  private async nextSequence(client: PoolClient): Promise<number> {
    const { rows } = await client.query<{ generation: string }>(`UPDATE ${this.state} SET generation = generation + 1 RETURNING generation`);
    return Number(rows[0].generation);
  }

  private async transaction(work: (client: PoolClient) => Promise<void>): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

interface Ranked {
  count: number;
  countCapped: boolean;
  hasMore: boolean;
  /** The page's rows. */
  rows: RankedRow[];
}

function cursorKey(query: SearchQuery): RowKey | null {
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
function rank(memory: RankedMemory, filter: Filter, query: SearchQuery, after: RowKey | null, limits: Required<SearchLimits>): Ranked {
  const { countLimit, resultWindow } = limits;
  const sight: Visible = memory.visibleTo(filter);
  const visible = sight.passes;
  const text = normalizeSearchText(query.text).toLowerCase();
  const counted = (total: number) => ({ count: Math.min(total, countLimit), countCapped: total > countLimit });
  if (!text) {
    const total = memory.countUpTo(memory.visible(sight), visible, countLimit + 1);
    return readTiers(memory, [{ score: null, stream: () => memory.visible(sight), accept: visible }], counted(total), query, after, resultWindow);
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
      query,
      after,
      resultWindow,
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
        const similarity = memory.nameSimilarity(o, words.length);
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
    const parts = anyWordParts(text);
    if (parts.length > 1 && read() > 0) {
      const anyWord = memory.newest(memory.anyGroup(parts, sight), (o) => visible(o) && !everyWord(o) && !typo(o) && !exact(o), read());
      tiers.push(arrayTier(SCORE.anyWord, descending(anyWord)));
      total += anyWord.length;
    }
  }
  if (after && after.score === null) {
    // A cursor without a score (not one of this ranking's): placed by change and id, as a fully ranked list places it.
    const rows = tiers.flatMap((tier) => memory.newest(tier.stream(), () => true, total).map((o): RankedRow => ({ ordinal: o, score: tier.score })));
    return pageOf(memory, rows, counted(total), query, after, resultWindow);
  }
  return readTiers(memory, tiers, counted(total), query, after, resultWindow);
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

/** The page of a fully ranked list: by offset, or the rows after the cursor. */
function pageOf(
  memory: RankedMemory,
  rows: RankedRow[],
  count: { count: number; countCapped: boolean },
  query: SearchQuery,
  after: RowKey | null,
  resultWindow: number,
): Ranked {
  const { offset, limit } = pageSlice(query, resultWindow);
  if (limit === 0) return { ...count, hasMore: false, rows: [] };
  const start = after ? rows.findIndex((row) => memory.isAfter(row.ordinal, row.score, after)) : offset;
  const page = start < 0 ? [] : rows.slice(start, start + limit + 1);
  return { ...count, hasMore: offset + limit < resultWindow && page.length > limit, rows: page.slice(0, limit) };
}

/**
 * Reads tiers in order, each newest first and only as far as the page needs: without a cursor, up
 * to the page's last row (plus one, to know whether another page follows); with one, the rows after
 * it (tiers ranked wholly before the cursor are not read at all).
 */
function readTiers(
  memory: RankedMemory,
  tiers: Tier[],
  count: { count: number; countCapped: boolean },
  query: SearchQuery,
  after: RowKey | null,
  resultWindow: number,
): Ranked {
  const { offset, limit } = pageSlice(query, resultWindow);
  if (limit === 0) return { ...count, hasMore: false, rows: [] };
  const wanted = after ? limit + 1 : offset + limit + 1;
  const rows: RankedRow[] = [];
  for (const tier of tiers) {
    if (rows.length >= wanted) break;
    if (after && tier.score !== null && after.score !== null && tier.score > after.score) continue;
    const sameTier = after && (tier.score === after.score || tier.score === null);
    const accept = sameTier ? (o: number) => tier.accept(o) && memory.isAfter(o, tier.score, after) : tier.accept;
    rows.push(...memory.newest(tier.stream(), accept, wanted - rows.length).map((o) => ({ ordinal: o, score: tier.score })));
  }
  const page = after ? rows : rows.slice(offset);
  return { ...count, hasMore: offset + limit < resultWindow && page.length > limit, rows: page.slice(0, limit) };
}

/** The space-separated parts of a text that hold a letter or digit, each as its words; quotes, leading minus signs and "or" left out. */
function anyWordParts(text: string): string[][] {
  return text
    .replace(/"/g, ' ')
    .split(' ')
    .map((part) => part.replace(/^-+/, ''))
    .filter((part) => part !== '' && part !== 'or' && /[\p{L}\p{N}]/u.test(part))
    .map(tokenize);
}
