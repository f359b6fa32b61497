import { Pool, type PoolClient } from 'pg';
import {
  assertValidQuery,
  chunk,
  InvalidSearchInputError,
  normalizeSearchText,
  prepareDocuments,
  relatedTerms,
  SearchIndex,
  type RecordDocument,
  type SearchHit,
  type SearchQuery,
  type SearchResult,
} from './search-index';
import { documentAccessKeys, viewerAccessKeys } from './visibility';

export interface PostgresSearchIndexOptions {
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

/** The searched columns, kept narrow so counting and ranking read few pages. */
const RECORDS = 'records';
/** The documents as given (card included), read only for the rows of the page. */
const DOCUMENTS = 'record_documents';
const UPSERT_BATCH = 500;
/** Score bonus for an exact (case-insensitive) name match: above anything ts_rank and trigrams give. */
const EXACT_NAME_BONUS = 10;
/** Weight of trigram similarity of the name, so typo matches rank but below real word matches in names. */
const TYPO_WEIGHT = 0.5;
/** Shortest text that is also matched by trigram similarity (typo tolerance). */
const MIN_TYPO_LENGTH = 4;

interface DocumentRow {
  doc: RecordDocument;
  score: number | null;
}

/**
 * SearchIndex on PostgreSQL full-text search plus pg_trgm (the embedded mode's search).
 *
 * Scale (target: ranked page 1 under 50 ms p99 at 1M records on 2 cores). Visibility and project ids
 * are extra columns of both text GIN indexes, so a text query is answered by index scans that return
 * only visible matches; the newest-first list is a btree scan that stops after one page; the page's
 * documents come from a separate table, keeping the scanned table narrow. Still linear in the number
 * of visible matches: the exact count(*) and ts_rank. A scratch run at 1M synthetic records (2 cores,
 * 128 MB shared_buffers) measured 12-40 ms for queries matching up to ~5k visible records, ~100 ms at
 * 16k, and 250-600 ms for counts of 200k-300k (an empty text or a very common word). Capping or
 * estimating large counts is the next step if those must meet the budget.
 */
export class PostgresSearchIndex extends SearchIndex {
  private readonly pool: Pool;
  private readonly schema: string;
  private readonly records: string;
  private readonly documents: string;
  /** Schema-qualified pg_trgm names, looked up once. */
  private trgm: { opclass: string; matches: string; similarity: string } | undefined;

  constructor(options: PostgresSearchIndexOptions) {
    super();
    const schema = options.schema ?? 'search';
    // Identifiers cannot be bound as parameters, so only plain names are accepted.
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new InvalidSearchInputError(`invalid schema name: ${schema}`);
    const threshold = options.typoThreshold ?? 0.5;
    if (!(threshold > 0 && threshold <= 1)) throw new InvalidSearchInputError(`typoThreshold must be in (0, 1], got ${threshold}`);
    this.schema = schema;
    this.records = `${quoteIdent(schema)}.${RECORDS}`;
    this.documents = `${quoteIdent(schema)}.${DOCUMENTS}`;
    this.pool = new Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      // The trigram operator reads this setting; set per connection so no database-wide change is needed.
      options: `-c pg_trgm.strict_word_similarity_threshold=${threshold}`,
    });
    // An idle connection that dies (server restart) must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  async init(): Promise<void> {
    await this.transaction(async (client) => {
      // Serialises concurrent init() calls: CREATE ... IF NOT EXISTS is not safe against itself.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`search-index:${this.schema}`]);
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      const trgm = await this.trigramNames(client);
      const r = this.records;
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.schema)}`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${r} (
          id text COLLATE "C" PRIMARY KEY,
          name text NOT NULL,
          alt_name text,
          owner_id text NOT NULL,
          organisation_id text NOT NULL,
          visibility text NOT NULL CHECK (visibility IN ('PR', 'EV', 'CU')),
          access_keys text[] NOT NULL,
          group_ids text[] NOT NULL,
          changed_at timestamptz NOT NULL,
          search_vector tsvector NOT NULL
        )`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${this.documents} (
          id text COLLATE "C" PRIMARY KEY REFERENCES ${r} (id) ON DELETE CASCADE,
          doc jsonb NOT NULL
        )`);
      // Visibility and project columns ride along in each text index, so one GIN scan returns only the
      // visible matches (the planner ANDs them into each arm of the text OR); a separate visibility
      // index would have to build a bitmap of every EV record on each query.
      const indexes = [
        `${RECORDS}_text_idx ON ${r} USING gin (search_vector, access_keys, group_ids)`,
        `${RECORDS}_name_idx ON ${r} USING gin (lower(name) ${trgm.opclass}, access_keys, group_ids)`,
        `${RECORDS}_changed_idx ON ${r} (changed_at DESC, id)`,
        `${RECORDS}_owner_changed_idx ON ${r} (owner_id, changed_at DESC, id)`,
      ];
      for (const index of indexes) await client.query(`CREATE INDEX IF NOT EXISTS ${index}`);
    });
  }

  async upsert(docs: RecordDocument[]): Promise<void> {
    const prepared = prepareDocuments(docs);
    if (prepared.length === 0) return;
    // All batches in one transaction: an upsert lands whole or not at all.
    await this.transaction(async (client) => {
      for (const batch of chunk(prepared, UPSERT_BATCH)) {
        const rows = batch.map((doc) => ({
          id: doc.id,
          name: doc.name,
          alt_name: doc.altName ?? null,
          description: doc.description ?? '',
          extra: [...(doc.headers ?? []), ...(doc.words ?? [])].join(' '),
          owner_id: doc.ownerId,
          organisation_id: doc.organisationId,
          visibility: doc.visibility,
          access_keys: documentAccessKeys(doc),
          group_ids: doc.groupIds ?? [],
          changed_at: doc.changedAt,
          doc,
        }));
        // One statement per batch: rows travel as a single JSON parameter.
        await client.query(
          `WITH input AS (
             SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text, alt_name text, description text, extra text, owner_id text,
               organisation_id text, visibility text, access_keys text[], group_ids text[], changed_at timestamptz, doc jsonb)
           ), upserted AS (
             INSERT INTO ${this.records} (id, name, alt_name, owner_id, organisation_id, visibility, access_keys, group_ids, changed_at, search_vector)
             SELECT id, name, alt_name, owner_id, organisation_id, visibility, access_keys, group_ids,
                    -- Elasticsearch dates hold milliseconds; truncating keeps both adapters' orderings alike.
                    date_trunc('milliseconds', changed_at),
                    setweight(to_tsvector('simple', name || ' ' || coalesce(alt_name, '')), 'A')
                      || setweight(to_tsvector('simple', description), 'B')
                      || setweight(to_tsvector('simple', extra), 'C')
             FROM input
             ON CONFLICT (id) DO UPDATE SET
               name = EXCLUDED.name, alt_name = EXCLUDED.alt_name, owner_id = EXCLUDED.owner_id, organisation_id = EXCLUDED.organisation_id,
               visibility = EXCLUDED.visibility, access_keys = EXCLUDED.access_keys, group_ids = EXCLUDED.group_ids,
               changed_at = EXCLUDED.changed_at, search_vector = EXCLUDED.search_vector
           )
           INSERT INTO ${this.documents} (id, doc) SELECT id, doc FROM input
           ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
          [JSON.stringify(rows)],
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
    if (query.view === 'own' && !query.viewer) return { count: 0, results: [] };
    const trgm = await this.trigramNames(this.pool);

    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    // Visibility always, inside the query: the overlap of access keys, answered within the GIN indexes.
    const where = [`access_keys && ${param(viewerAccessKeys(query.viewer))}::text[]`];

    let related: string | undefined;
    if (query.relatedTo !== undefined) {
      // The reference is looked up under the same visibility: one the viewer may not see relates nothing.
      const refId = param(query.relatedTo);
      const reference = await this.pool.query<{ doc: RecordDocument }>(
        `SELECT d.doc FROM ${this.records} AS r JOIN ${this.documents} AS d USING (id) WHERE r.id = ${refId} AND ${where[0]}`,
        params,
      );
      if (reference.rows.length === 0) return { count: 0, results: [] };
      related = relatedTerms(reference.rows[0].doc).map((term) => `'${term}'`).join(' | ');
      if (!related) return { count: 0, results: [] };
      where.push(`id <> ${refId}`);
    }
    if (query.view === 'own' && query.viewer) where.push(`owner_id = ${param(query.viewer.userId)}`);
    if (query.groupId !== undefined) where.push(`group_ids @> ARRAY[${param(query.groupId)}]::text[]`);

    const text = related ? '' : normalizeSearchText(query.text).toLowerCase();
    const terms = websearchTerms(text);
    // Trigrams of very short texts match too many names to mean "a typo of this".
    const typoTolerant = text.length >= MIN_TYPO_LENGTH;
    const relatedQuery = related ? `to_tsquery('simple', ${param(related)})` : '';
    if (related) where.push(`search_vector @@ ${relatedQuery}`);
    if (text) {
      // An exact name needs no clause of its own: it always matches its words or its trigrams.
      const matches: string[] = [];
      if (terms) matches.push(`search_vector @@ websearch_to_tsquery('simple', ${param(terms)})`);
      if (typoTolerant) matches.push(`lower(name) ${trgm.matches} ${param(text)}`);
      if (matches.length === 0) return { count: 0, results: [] };
      where.push(`(${matches.join(' OR ')})`);
    }
    const filter = where.join(' AND ');
    // The count statement gets only the parameters its filter uses; the page adds its own after them.
    const countParams = [...params];

    let score = 'NULL::float8';
    if (related) score = `ts_rank('{0.1, 0.2, 0.4, 1.0}', search_vector, ${relatedQuery})::float8`;
    if (text) {
      const t = param(text);
      // Weights {D, C, B, A}: name (A) beats description (B) beats headers and words (C).
      const rank = terms ? `ts_rank('{0.1, 0.2, 0.4, 1.0}', search_vector, websearch_to_tsquery('simple', ${param(terms)}))` : '0';
      const typo = typoTolerant ? `CASE WHEN lower(name) ${trgm.matches} ${t} THEN ${TYPO_WEIGHT} * ${trgm.similarity}(${t}, lower(name)) ELSE 0 END` : '0';
      score = `(CASE WHEN lower(name) = ${t} OR lower(alt_name) = ${t} THEN ${EXACT_NAME_BONUS} ELSE 0 END + ${rank} + ${typo})::float8`;
    }
    // Ties go to the newest change, then the id, so pages never overlap.
    const orderBy = (table: string) => `${text || related ? `${table}score DESC, ` : ''}${table}changed_at DESC, ${table}id`;
    const limit = param(query.pageSize);
    const offset = param((query.page - 1) * query.pageSize);
    // Two statements on two connections in parallel: count(*) needs no ranking and no documents.
    // The page is chosen on the narrow table; only its rows fetch their documents.
    const [countResult, pageResult] = await Promise.all([
      this.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${this.records} WHERE ${filter}`, countParams),
      this.pool.query<DocumentRow>(
        `SELECT d.doc, page.score
         FROM (SELECT id, changed_at, ${score} AS score FROM ${this.records} WHERE ${filter} ORDER BY ${orderBy('')} LIMIT ${limit} OFFSET ${offset}) AS page
         JOIN ${this.documents} AS d USING (id)
         ORDER BY ${orderBy('page.')}`,
        params,
      ),
    ]);
    return {
      count: countResult.rows[0].count,
      results: pageResult.rows.map((row): SearchHit => (row.score === null ? row.doc : { ...row.doc, score: row.score })),
    };
  }

  async get(id: string): Promise<RecordDocument | null> {
    const { rows } = await this.pool.query<{ doc: RecordDocument }>(`SELECT doc FROM ${this.documents} WHERE id = $1`, [id]);
    return rows[0]?.doc ?? null;
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

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Turns free text into websearch_to_tsquery input meaning "any of these words" (ranking rewards
 * documents with more of them). Quotes and leading minus signs would be operators there, so they go.
 * Returns '' when nothing word-like is left, so no empty tsquery is ever built.
 */
function websearchTerms(text: string): string {
  const words = text
    .replace(/"/g, ' ')
    .split(' ')
    .map((word) => word.replace(/^-+/, ''))
    .filter((word) => word !== '' && word !== 'or' && /[\p{L}\p{N}]/u.test(word));
  return words.join(' or ');
}
