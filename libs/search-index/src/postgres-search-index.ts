import { Pool, type PoolClient } from 'pg';
import { inTransaction } from './pg-transaction';
import { anyWordTerms, DOCUMENT_ROWS, documentRowsJson, Params, quoteIdent } from './postgres-query';
import { FEW_MATCHES, MIN_TYPO_LENGTH, RELATED_CANDIDATES, SCORE } from './ranking-rules';
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
} from './search-index';
import type { RecordDocument, SearchHit, SearchLimits, SearchQuery, SearchResult } from './search-index';
import { viewerAccessKeys } from './visibility';

export interface PostgresSearchIndexOptions extends SearchLimits {
  connectionString: string;
  /** The schema this index owns; default `search`. */
  schema?: string;
  /** Pool size; default 10. */
  max?: number;
  /**
   * pg_trgm strict word similarity (0..1) at which a name word still matches a mistyped query word;
   * default 0.5, which lets "tempreature" and "temperture" find "Temperature" but not "temp".
   */
  typoThreshold?: number;
}

/** The lexemes a tier searches: the name; name and description; everything. Index expressions and predicates alike. */
const NAME_TEXT = 'name_vector';
const SUMMARY_TEXT = '(name_vector || description_vector)';
const ALL_TEXT = '(name_vector || description_vector || extra_vector)';

/** The searched columns, kept narrow so scans read few pages. */
const RECORDS = 'records';
/** The documents as given (card included), read only for the rows of the page. */
const DOCUMENTS = 'record_documents';
/**
 * The table layout this code expects. The index is a projection that `npm run reindex` rebuilds, so
 * an index of another layout is dropped and created again (empty) by init().
 */
const LAYOUT = 'search-index layout 3';
const UPSERT_BATCH = 500;

/** A tier: a predicate the other tiers exclude, read newest first unless it has its own order. */
interface Tier {
  score: string;
  where: string;
  /** The tier's own order when it is not simply newest first. */
  orderBy?: string;
}

interface RankedRow {
  id: string;
  score: number | null;
}

/**
 * SearchIndex on PostgreSQL full-text search plus pg_trgm (the embedded mode's search).
 *
 * Built so no statement's cost grows with the number of matches (measurements: docs/benchmarks.md):
 * - Relevance is a few tiers: the exact name; every word in the name; in name or description;
 *   anywhere; then, only when fewer than FEW_MATCHES records contain every word, a mistyped name
 *   (trigrams) and any of the words. Ties go to the newest change, then the id.
 * - One statement reads the records with every word, stopping after the count limit (1,000 by
 *   default). If that is all of them, it ranks them and the count is exact. If more match, the count
 *   says "at least the limit", and the page is read tier by tier (exact name, name, then the rest
 *   newest first), each statement stopping after the rows the page needs: a GIN scan when the tier
 *   is rare, a walk down the changed_at btree when it is common.
 * - Visibility and projects are extra columns of every GIN index, so a scan returns visible matches only.
 * - Pages stop at the result window (10,000 results by default), as in Elasticsearch.
 * - One pooled connection per search; the page's documents come from a separate table.
 */
export class PostgresSearchIndex extends SearchIndex {
  private readonly pool: Pool;
  private readonly schema: string;
  private readonly records: string;
  private readonly documents: string;
  private readonly limits: Required<SearchLimits>;
  /** Schema-qualified pg_trgm names, looked up once. */
  private trgm: { opclass: string; matches: string; similarity: string } | undefined;

  constructor(options: PostgresSearchIndexOptions) {
    super();
    const schema = options.schema ?? 'search';
    // Identifiers cannot be bound as parameters, so only plain names are accepted.
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new InvalidSearchInputError(`invalid schema name: ${schema}`);
    const threshold = options.typoThreshold ?? 0.5;
    if (!(threshold > 0 && threshold <= 1)) throw new InvalidSearchInputError(`typoThreshold must be in (0, 1], got ${threshold}`);
    this.limits = resolveLimits(options);
    this.schema = schema;
    this.records = `${quoteIdent(schema)}.${RECORDS}`;
    this.documents = `${quoteIdent(schema)}.${DOCUMENTS}`;
    this.pool = new Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      // The trigram operator reads this setting; set per connection so no database-wide change is needed.
      // JIT compiles "expensive-looking" plans for tens of milliseconds: never worth it for a page of results.
      options: `-c pg_trgm.strict_word_similarity_threshold=${threshold} -c jit=off`,
    });
    // An idle connection that dies (server restart) must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  async init(): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      // Serialises concurrent init() calls: CREATE ... IF NOT EXISTS is not safe against itself.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`search-index:${this.schema}`]);
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      const trgm = await this.trigramNames(client);
      const r = this.records;
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.schema)}`);
      const { rows } = await client.query<{ layout: string | null }>(`SELECT obj_description(to_regclass($1), 'pg_class') AS layout`, [r]);
      if (rows[0].layout !== LAYOUT) await client.query(`DROP TABLE IF EXISTS ${this.documents}, ${r}`);
      // Narrow rows (each text field's lexemes once, positions stripped) keep scans in memory at a million records.
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${r} (
          id text COLLATE "C" PRIMARY KEY,
          name text NOT NULL,
          alt_name text,
          owner_id text NOT NULL,
          access_keys text[] NOT NULL,
          group_ids text[] NOT NULL,
          changed_at timestamptz NOT NULL,
          -- Name and alternate name; description; headers and word set.
          name_vector tsvector NOT NULL,
          description_vector tsvector NOT NULL,
          extra_vector tsvector NOT NULL
        )`);
      await client.query(`COMMENT ON TABLE ${r} IS '${LAYOUT}'`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${this.documents} (
          id text COLLATE "C" PRIMARY KEY REFERENCES ${r} (id) ON DELETE CASCADE,
          doc jsonb NOT NULL
        )`);
      // Visibility and project columns ride along in each GIN index, so one scan returns only the
      // visible matches; a separate visibility index would have to build a bitmap of every EV record.
      const indexes = [
        `${RECORDS}_name_text_idx ON ${r} USING gin (${NAME_TEXT}, access_keys, group_ids)`,
        `${RECORDS}_summary_text_idx ON ${r} USING gin (${SUMMARY_TEXT}, access_keys, group_ids)`,
        `${RECORDS}_text_idx ON ${r} USING gin (${ALL_TEXT}, access_keys, group_ids)`,
        `${RECORDS}_name_trgm_idx ON ${r} USING gin (lower(name) ${trgm.opclass}, access_keys, group_ids)`,
        // Hash: names of any length, equality only.
        `${RECORDS}_exact_name_idx ON ${r} USING hash (lower(name))`,
        `${RECORDS}_exact_alt_name_idx ON ${r} USING hash (lower(alt_name))`,
        // Newest first without text: an index-only walk that checks visibility from the index itself.
        `${RECORDS}_changed_idx ON ${r} (changed_at DESC, id) INCLUDE (access_keys, group_ids)`,
        `${RECORDS}_owner_changed_idx ON ${r} (owner_id, changed_at DESC, id)`,
      ];
      for (const index of indexes) await client.query(`CREATE INDEX IF NOT EXISTS ${index}`);
    });
  }

  async upsert(docs: RecordDocument[]): Promise<void> {
    const prepared = prepareDocuments(docs);
    if (prepared.length === 0) return;
    // All batches in one transaction: an upsert lands whole or not at all.
    await inTransaction(this.pool, async (client) => {
      for (const batch of chunk(prepared, UPSERT_BATCH)) {
        // One statement per batch: rows travel as a single JSON parameter.
        await client.query(
          `WITH input AS (
             SELECT * FROM ${DOCUMENT_ROWS}
           ), upserted AS (
             INSERT INTO ${this.records} (id, name, alt_name, owner_id, access_keys, group_ids, changed_at, name_vector, description_vector, extra_vector)
             SELECT id, name, alt_name, owner_id, access_keys, group_ids,
                    -- Elasticsearch dates hold milliseconds; truncating keeps both adapters' orderings alike.
                    date_trunc('milliseconds', changed_at),
                    strip(to_tsvector('simple', name || ' ' || coalesce(alt_name, ''))),
                    strip(to_tsvector('simple', description)),
                    strip(to_tsvector('simple', extra))
             FROM input
             ON CONFLICT (id) DO UPDATE SET
               name = EXCLUDED.name, alt_name = EXCLUDED.alt_name, owner_id = EXCLUDED.owner_id, access_keys = EXCLUDED.access_keys,
               group_ids = EXCLUDED.group_ids, changed_at = EXCLUDED.changed_at, name_vector = EXCLUDED.name_vector,
               description_vector = EXCLUDED.description_vector, extra_vector = EXCLUDED.extra_vector
           )
           INSERT INTO ${this.documents} (id, doc) SELECT id, doc FROM input
           ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
          [documentRowsJson(batch)],
        );
      }
    });
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    // Their documents go with them (ON DELETE CASCADE).
    await this.pool.query(`DELETE FROM ${this.records} WHERE id = ANY($1::text[])`, [ids]);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    assertValidQuery(query);
    if (query.view === 'own' && !query.viewer) return EMPTY_RESULT;
    const trgm = await this.trigramNames(this.pool);
    const client = await this.pool.connect();
    try {
      const sql = new Params();
      // Visibility always, inside the query: the overlap of access keys, answered within the indexes.
      const visible = `access_keys && ${sql.set('keys', viewerAccessKeys(query.viewer))}::text[]`;
      // Own records: the owner's key is in every document's keys (documentAccessKeys), so the owner
      // filter alone is the visibility filter; with both, the planner intersects two bitmaps instead
      // of walking the owner's records newest first.
      const filters = query.view === 'own' && query.viewer ? [`owner_id = ${sql.set('owner', query.viewer.userId)}`] : [visible];
      if (query.groupId !== undefined) filters.push(`group_ids @> ARRAY[${sql.set('group', query.groupId)}]::text[]`);

      if (query.relatedTo !== undefined) return await this.searchRelated(client, sql, filters, visible, query.relatedTo, query);
      const text = normalizeSearchText(query.text).toLowerCase();
      if (!text) return await this.searchTiers(client, sql, filters, [{ score: 'NULL', where: 'true' }], null, query);

      const t = sql.set('text', text);
      const exact = `(lower(name) = ${t} OR lower(alt_name) = ${t})`;
      const notExact = `${exact} IS NOT TRUE`;
      // Every word (AND); nothing word-like (say "!!!") leaves only the exact name.
      const words = /[\p{L}\p{N}]/u.test(text) ? `plainto_tsquery('simple', ${t})` : null;
      const matchesWords = words ? `${ALL_TEXT} @@ ${words}` : 'false';
      const matching: Tier = words
        ? {
            score: `CASE WHEN ${exact} THEN ${SCORE.exactName} WHEN ${NAME_TEXT} @@ ${words} THEN ${SCORE.name} WHEN ${SUMMARY_TEXT} @@ ${words} THEN ${SCORE.description} ELSE ${SCORE.anywhere} END`,
            where: `(${exact} OR ${matchesWords})`,
          }
        : { score: `${SCORE.exactName}`, where: exact };
      // More matches than the count limit: the exact name, every word in the name, then the rest newest first.
      const manyTiers: Tier[] = [{ score: `${SCORE.exactName}`, where: exact }];
      if (words) {
        manyTiers.push(
          { score: `${SCORE.name}`, where: `${NAME_TEXT} @@ ${words} AND ${notExact}` },
          { score: `${SCORE.anywhere}`, where: `${matchesWords} AND NOT ${NAME_TEXT} @@ ${words}` },
        );
      }
      // Few records contain every word (a typo, or words that never meet): mistyped names, then any word.
      const fallback: Tier[] = [];
      const typo = text.length >= MIN_TYPO_LENGTH ? `lower(name) ${trgm.matches} ${t}` : null;
      if (typo) {
        fallback.push({
          score: `${SCORE.typo} + ${trgm.similarity}(${t}, lower(name)) / 4`,
          where: `${typo} AND NOT ${matchesWords} AND ${notExact}`,
          orderBy: `${trgm.similarity}(${t}, lower(name)) DESC, changed_at DESC, id`,
        });
      }
      const anyTerms = anyWordTerms(text);
      const anyWord = anyTerms.split(' or ').length > 1 ? `${ALL_TEXT} @@ websearch_to_tsquery('simple', ${sql.set('anyterms', anyTerms)})` : null;
      if (anyWord)
        fallback.push({ score: `${SCORE.anyWord}`, where: `${anyWord} AND NOT ${matchesWords} AND ${typo ? `NOT ${typo}` : 'true'} AND ${notExact}` });
      return await this.searchText(client, sql, filters, matching, manyTiers, fallback, query);
    } finally {
      client.release();
    }
  }

  /**
   * A text search. One statement reads the records with every word (or the exact name), stopping
   * after the count limit: when they are no more than that, it ranks them all (exact name; every
   * word in the name; in name or description; anywhere; ties newest first) and the count is exact.
   * When there are more, the count stops at the limit and the page comes from `manyTiers`, each
   * read newest first only as far as the page needs. The fallback tiers join below FEW_MATCHES.
   */
  private async searchText(
    client: PoolClient,
    sql: Params,
    filters: string[],
    matching: Tier,
    manyTiers: Tier[],
    fallback: Tier[],
    query: SearchQuery,
  ): Promise<SearchResult> {
    const { offset, limit } = pageSlice(query, this.limits.resultWindow);
    // Newest first: a common word then reads the recent pages every search keeps warm.
    const probe = await this.readRanked(
      client,
      sql,
      { ...matching, orderBy: 'changed_at DESC, id' },
      filters,
      this.limits.countLimit + 1,
      offset,
      limit > 0 ? limit + 1 : 0,
    );
    // More than the count limit: the count is known ("at least"), the tiers are read for the page only.
    if (probe.total > this.limits.countLimit)
      return this.searchTiers(client, sql, filters, manyTiers, null, query, { rows: [], total: 0, knownTotal: probe.total });
    return this.searchTiers(client, sql, filters, [], fallback, query, probe);
  }

  /**
   * Reads the tiers in order. Each tier statement reads its rows (newest first unless the tier has
   * its own order) only as far as the page, the count limit and the fallback rule need, counts
   * them, and returns only the rows of the page: so the count costs no statement of its own and
   * stops at the limit. `fallback` tiers (null: none) join when fewer than FEW_MATCHES rows were
   * found before them, a rule every page applies alike. `start`: rows and count already read, or
   * (knownTotal) a count already made, so the tiers are read for the page only.
   */
  private async searchTiers(
    client: PoolClient,
    sql: Params,
    filters: string[],
    tiers: Tier[],
    fallback: Tier[] | null,
    query: SearchQuery,
    start: { rows: RankedRow[]; total: number; knownTotal?: number } = { rows: [], total: 0 },
  ): Promise<SearchResult> {
    const { offset, limit } = pageSlice(query, this.limits.resultWindow);
    // One more row than the page tells whether another page follows.
    const wanted = limit > 0 ? offset + limit + 1 : 0;
    const countTo = start.knownTotal === undefined ? this.limits.countLimit + 1 : 0;
    const page = [...start.rows];
    // Rows read so far across tiers: the count, and the position the next tier starts at.
    let total = start.total;
    const readTiers = async (list: Tier[], atLeast: number) => {
      for (const tier of list) {
        const read = Math.max(wanted - total, countTo - total, atLeast - total);
        if (read <= 0) return;
        const found = await this.readRanked(client, sql, tier, filters, read, Math.max(0, offset - total), Math.max(0, wanted - Math.max(total, offset)));
        page.push(...found.rows);
        total += found.total;
      }
    };
    // Counting at least FEW_MATCHES rows settles whether the fallback tiers join, whatever the page.
    await readTiers(tiers, fallback ? FEW_MATCHES : 0);
    if (fallback && total < FEW_MATCHES) await readTiers(fallback, 0);

    const counted = start.knownTotal ?? total;
    return {
      count: Math.min(counted, this.limits.countLimit),
      countCapped: counted > this.limits.countLimit,
      hasMore: limit > 0 && offset + limit < this.limits.resultWindow && page.length > limit,
      results: await this.documentsOf(client, page.slice(0, limit)),
    };
  }

  /**
   * One statement: reads up to `read` rows of a tier in its order, counts them, and returns the
   * `take` rows after the first `skip` (plus the first row, which carries the count).
   */
  private async readRanked(
    client: PoolClient,
    sql: Params,
    tier: Tier,
    filters: string[],
    read: number,
    skip: number,
    take: number,
  ): Promise<{ rows: RankedRow[]; total: number }> {
    const found = await client.query<RankedRow & { total: number; position: number }>(
      ...sql.bind(
        `SELECT id, score, total, position FROM (
           SELECT id, score, count(*) OVER ()::int AS total, row_number() OVER (ORDER BY score DESC NULLS LAST, changed_at DESC, id)::int AS position FROM (
             SELECT id, changed_at, (${tier.score})::float8 AS score FROM ${this.records} WHERE ${filters.join(' AND ')} AND ${tier.where}
             ORDER BY ${tier.orderBy ?? 'changed_at DESC, id'} LIMIT ${read}
           ) AS tier
         ) AS ranked
         WHERE position > ${skip} OR position = 1
         ORDER BY position LIMIT ${take + 1}`,
      ),
    );
    const rows = found.rows.filter((row) => row.position > skip).slice(0, take);
    return { rows: rows.map(({ id, score }) => ({ id, score })), total: found.rows[0]?.total ?? 0 };
  }

  /**
   * "Find similar datasets": the most recently changed RELATED_CANDIDATES records that share a term
   * with the reference, ranked by how many they share and where (name over description over
   * headers and words). The reference is read under the viewer's visibility like any other record.
   */
  private async searchRelated(
    client: PoolClient,
    sql: Params,
    filters: string[],
    visible: string,
    referenceId: string,
    query: SearchQuery,
  ): Promise<SearchResult> {
    const ref = sql.set('ref', referenceId);
    const reference = await client.query<{ doc: RecordDocument }>(
      ...sql.bind(`SELECT d.doc FROM ${this.records} AS r JOIN ${this.documents} AS d USING (id) WHERE r.id = ${ref} AND ${visible}`),
    );
    const terms = reference.rows[0] ? relatedTerms(reference.rows[0].doc) : [];
    if (terms.length === 0) return EMPTY_RESULT;
    // Terms are letters and digits only, so quoting each makes a safe tsquery.
    const related = `to_tsquery('simple', ${sql.set('related', terms.map((term) => `'${term}'`).join(' | '))})`;
    const { offset, limit } = pageSlice(query, this.limits.resultWindow);
    // Ranking happens outside the candidate scan, so only the candidates are ranked. On stripped vectors
    // ts_rank grows with the number of shared terms; a term shared in the name counts 3, in the description 2.
    const rank = (vector: string) => `ts_rank(${vector}, ${related})`;
    const found = await client.query<RankedRow & { total: number }>(
      ...sql.bind(`SELECT id, score, count(*) OVER ()::int AS total FROM (
         SELECT id, changed_at, (3 * ${rank('name_vector')} + 2 * ${rank('description_vector')} + ${rank('extra_vector')})::float8 AS score FROM (
           SELECT id, changed_at, name_vector, description_vector, extra_vector FROM ${this.records}
           WHERE ${filters.join(' AND ')} AND id <> ${ref} AND ${ALL_TEXT} @@ ${related}
           ORDER BY changed_at DESC, id LIMIT ${RELATED_CANDIDATES}
         ) AS candidates
       ) AS ranked
       ORDER BY score DESC, changed_at DESC, id OFFSET ${offset} LIMIT ${limit + 1}`),
    );
    // Past the last row the window function has no row to report the total on.
    const total = found.rows[0]?.total ?? (offset === 0 ? 0 : await this.relatedTotal(client, sql, filters, ref, related));
    return {
      count: total,
      countCapped: total >= RELATED_CANDIDATES,
      hasMore: limit > 0 && offset + limit < this.limits.resultWindow && found.rows.length > limit,
      results: await this.documentsOf(client, found.rows.slice(0, limit)),
    };
  }

  private async relatedTotal(client: PoolClient, sql: Params, filters: string[], ref: string, related: string): Promise<number> {
    const { rows } = await client.query<{ count: number }>(
      ...sql.bind(
        `SELECT count(*)::int AS count FROM (SELECT 1 FROM ${this.records} WHERE ${filters.join(' AND ')} AND id <> ${ref} AND ${ALL_TEXT} @@ ${related}
         LIMIT ${RELATED_CANDIDATES}) AS candidates`,
      ),
    );
    return rows[0].count;
  }

  /** The stored documents of ranked rows, in their order. */
  private async documentsOf(client: PoolClient, rows: RankedRow[]): Promise<SearchHit[]> {
    if (rows.length === 0) return [];
    const found = await client.query<{ id: string; doc: RecordDocument }>(`SELECT id, doc FROM ${this.documents} WHERE id = ANY($1::text[])`, [
      rows.map((row) => row.id),
    ]);
    const byId = new Map(found.rows.map((row) => [row.id, row.doc]));
    return rows.flatMap((row): SearchHit[] => {
      const doc = byId.get(row.id);
      if (!doc) return [];
      return [row.score === null ? doc : { ...doc, score: row.score }];
    });
  }

  async get(id: string): Promise<RecordDocument | null> {
    const { rows } = await this.pool.query<{ doc: RecordDocument }>(`SELECT doc FROM ${this.documents} WHERE id = $1`, [id]);
    return rows[0]?.doc ?? null;
  }

  async getMany(ids: string[]): Promise<RecordDocument[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<{ doc: RecordDocument }>(`SELECT doc FROM ${this.documents} WHERE id = ANY($1)`, [ids]);
    return rows.map((row) => row.doc);
  }

  async clear(): Promise<void> {
    await this.pool.query(`TRUNCATE ${this.records}, ${this.documents}`);
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${this.records}`);
    return rows[0].count;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** pg_trgm may live in any schema of the database; its names are qualified so search_path does not matter. */
  private async trigramNames(db: Pool | PoolClient) {
    if (!this.trgm) {
      const { rows } = await db.query<{ schema: string }>(
        `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`,
      );
      if (rows.length === 0) throw new Error('PostgresSearchIndex: the pg_trgm extension is missing; call init() first');
      const ext = quoteIdent(rows[0].schema);
      this.trgm = { opclass: `${ext}.gin_trgm_ops`, matches: `OPERATOR(${ext}.%>>)`, similarity: `${ext}.strict_word_similarity` };
    }
    return this.trgm;
  }
}
