import { Client, errors, type estypes } from '@elastic/elasticsearch';
import {
  assertValidQuery,
  chunk,
  DEFAULT_RESULT_WINDOW,
  EMPTY_RESULT,
  pageSlice,
  resolveLimits,
  type SearchLimits,
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

export interface ElasticsearchSearchIndexOptions extends SearchLimits {
  /** Elasticsearch URL (credentials may be in it); ignored when `client` is given. */
  node?: string;
  /** An existing client; it is left open by close(). */
  client?: Client;
  /** Index name; default `records`. */
  index?: string;
  /** Make writes visible to search before they return (tests); default false, i.e. near-real-time. */
  refresh?: boolean;
}

/** The stored source: the document plus its access keys, which are filtered on and never returned. */
type StoredDocument = RecordDocument & { accessKeys: string[] };

const BULK_BATCH = 500;
/** Constant bonus for an exact (case-insensitive) name: above what BM25 gives any text match. */
const EXACT_NAME_BOOST = 100;
/** Constant bonus for records with every word of the text, in any field: above what the field-weighted scores add. */
const EVERY_WORD_BOOST = 50;
const HIDDEN_FIELDS = ['accessKeys'];

const text = { type: 'text', analyzer: 'record_text' } as const;
const exactName = { type: 'keyword', normalizer: 'record_exact', ignore_above: 1024 } as const;
const keyword = { type: 'keyword' } as const;

const SETTINGS: estypes.IndicesIndexSettings = {
  analysis: {
    // Column headers like "air_temp" should match "air" and "temp", as in PostgreSQL's parser.
    char_filter: { underscore_to_space: { type: 'mapping', mappings: ['_ => \\u0020'] } },
    analyzer: { record_text: { type: 'custom', tokenizer: 'standard', char_filter: ['underscore_to_space'], filter: ['lowercase', 'asciifolding'] } },
    normalizer: { record_exact: { type: 'custom', filter: ['lowercase', 'asciifolding'] } },
  },
};

const MAPPINGS: estypes.MappingTypeMapping = {
  // Only the mapped fields are indexed; anything else stays in _source untouched.
  dynamic: false,
  properties: {
    id: keyword,
    name: { ...text, fields: { exact: exactName } },
    altName: { ...text, fields: { exact: exactName } },
    description: text,
    headers: text,
    words: text,
    ownerId: keyword,
    organisationId: keyword,
    visibility: keyword,
    sharedWithUserIds: keyword,
    sharedWithOrganisationIds: keyword,
    groupIds: keyword,
    accessKeys: keyword,
    createdAt: { type: 'date' },
    changedAt: { type: 'date' },
    card: { type: 'object', enabled: false },
  },
};

/** SearchIndex on Elasticsearch (the distributed mode's search). */
export class ElasticsearchSearchIndex extends SearchIndex {
  private readonly client: Client;
  private readonly ownsClient: boolean;
  private readonly index: string;
  private readonly refresh: boolean;
  private readonly limits: Required<SearchLimits>;

  constructor(options: ElasticsearchSearchIndexOptions) {
    super();
    if (!options.client && !options.node) throw new InvalidSearchInputError('ElasticsearchSearchIndex needs a node URL or a client');
    this.client = options.client ?? new Client({ node: options.node });
    this.ownsClient = !options.client;
    this.index = options.index ?? 'records';
    this.refresh = options.refresh ?? false;
    this.limits = resolveLimits(options);
  }

  async init(): Promise<void> {
    if (await this.client.indices.exists({ index: this.index })) return;
    try {
      // Elasticsearch refuses from + size beyond max_result_window; pages never go past the result window.
      const settings = { ...SETTINGS, max_result_window: Math.max(this.limits.resultWindow, DEFAULT_RESULT_WINDOW) };
      await this.client.indices.create({ index: this.index, settings, mappings: MAPPINGS });
    } catch (error) {
      // Another instance created it between our check and our create.
      if (!(error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception')) throw error;
    }
  }

  async upsert(docs: RecordDocument[]): Promise<void> {
    for (const batch of chunk(prepareDocuments(docs), BULK_BATCH)) {
      const operations = batch.flatMap((doc) => [
        { index: { _index: this.index, _id: doc.id } },
        { ...doc, accessKeys: documentAccessKeys(doc) } satisfies StoredDocument,
      ]);
      await this.bulk(operations);
    }
  }

  async remove(ids: string[]): Promise<void> {
    for (const batch of chunk([...new Set(ids)], BULK_BATCH)) {
      await this.bulk(batch.map((id) => ({ delete: { _index: this.index, _id: id } })));
    }
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    assertValidQuery(query);
    if (query.view === 'own' && !query.viewer) return EMPTY_RESULT;

    // Visibility is a filter clause of the query itself, so count and hits agree with it.
    const filter: estypes.QueryDslQueryContainer[] = [{ terms: { accessKeys: viewerAccessKeys(query.viewer) } }];
    if (query.view === 'own' && query.viewer) filter.push({ term: { ownerId: query.viewer.userId } });
    if (query.groupId !== undefined) filter.push({ term: { groupIds: query.groupId } });

    if (query.relatedTo !== undefined) {
      // The reference is read under the same visibility filter: one the viewer may not see relates nothing.
      const reference = await this.client.search<StoredDocument>({
        index: this.index,
        query: { bool: { filter: [filter[0], { ids: { values: [query.relatedTo] } }] } },
        size: 1,
      });
      const terms = reference.hits.hits[0]?._source ? relatedTerms(reference.hits.hits[0]._source) : [];
      if (terms.length === 0) return EMPTY_RESULT;
      filter.push({ bool: { must_not: { ids: { values: [query.relatedTo] } } } });
      return this.ranked(query, filter, [relatedClause(terms)]);
    }
    const searchText = normalizeSearchText(query.text);
    if (!searchText) return this.ranked(query, filter, []);
    return this.ranked(query, filter, relevanceClauses(searchText));
  }

  /**
   * One page of the documents that pass the filter, best first when there are relevance clauses.
   * Counting stops at the count limit (track_total_hits) and pages at the result window, so no
   * request goes past Elasticsearch's max_result_window.
   */
  private async ranked(query: SearchQuery, filter: estypes.QueryDslQueryContainer[], should: estypes.QueryDslQueryContainer[]): Promise<SearchResult> {
    const { offset, limit } = pageSlice(query, this.limits.resultWindow);
    // One more hit than the page tells whether another page follows (never past the window).
    const probe = offset + limit < this.limits.resultWindow ? 1 : 0;
    const newestFirst: estypes.SortCombinations[] = [{ changedAt: { order: 'desc' } }, { id: { order: 'asc' } }];
    const response = await this.client.search<StoredDocument>({
      index: this.index,
      query: should.length ? { bool: { filter, should, minimum_should_match: 1 } } : { bool: { filter } },
      sort: should.length ? [{ _score: { order: 'desc' } }, ...newestFirst] : newestFirst,
      // A page beyond the window asks for the count only.
      from: limit > 0 ? offset : 0,
      size: limit > 0 ? limit + probe : 0,
      track_total_hits: this.limits.countLimit,
      _source_excludes: HIDDEN_FIELDS,
    });
    const total = response.hits.total;
    const value = typeof total === 'number' ? total : (total?.value ?? 0);
    const hits = response.hits.hits;
    return {
      count: Math.min(value, this.limits.countLimit),
      countCapped: typeof total === 'object' && total.relation === 'gte',
      hasMore: limit > 0 && hits.length > limit,
      results: hits.slice(0, limit).map((hit): SearchHit => {
        const doc = hit._source as RecordDocument;
        return should.length && typeof hit._score === 'number' ? { ...doc, score: hit._score } : doc;
      }),
    };
  }

  async get(id: string): Promise<RecordDocument | null> {
    const response = await this.client.get<RecordDocument>({ index: this.index, id, _source_excludes: HIDDEN_FIELDS }, { ignore: [404] });
    return response.found && response._source ? response._source : null;
  }

  async getMany(ids: string[]): Promise<RecordDocument[]> {
    if (ids.length === 0) return [];
    const response = await this.client.mget<RecordDocument>({ index: this.index, ids, _source_excludes: HIDDEN_FIELDS });
    return response.docs.flatMap((doc) => ('found' in doc && doc.found && doc._source ? [doc._source] : []));
  }

  async clear(): Promise<void> {
    await this.client.deleteByQuery({ index: this.index, query: { match_all: {} }, conflicts: 'proceed', refresh: this.refresh });
  }

  async count(): Promise<number> {
    const response = await this.client.count({ index: this.index });
    return response.count;
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.client.close();
  }

  /** Deletes the whole index (tests, rebuilds); init() creates it again. */
  async deleteIndex(): Promise<void> {
    await this.client.indices.delete({ index: this.index, ignore_unavailable: true });
  }

  private async bulk(operations: estypes.BulkRequest['operations']): Promise<void> {
    if (!operations || operations.length === 0) return;
    const response = await this.client.bulk({ operations, refresh: this.refresh });
    if (!response.errors) return;
    // Deleting a missing document is not a failure: remove() ignores unknown ids.
    const failed = response.items.map((item) => Object.values(item)[0]).find((result) => result?.error && !(result.status === 404));
    if (failed) throw new Error(`Elasticsearch bulk write failed for ${failed._id}: ${failed.error?.type}: ${failed.error?.reason}`);
  }
}

/** Relatedness to a reference record: the more of its terms a record shares, and the more in its name, the better. */
function relatedClause(terms: string[]): estypes.QueryDslQueryContainer {
  return { multi_match: { query: terms.join(' '), type: 'most_fields', operator: 'or', fields: ['name^4', 'altName^4', 'description^2', 'headers', 'words'] } };
}

/**
 * Relevance, best first: an exact name; every word of the text; words in the name (boost 4) over
 * description (2) over headers and words (1); a mistyped name word still matches through fuzziness
 * on the name alone.
 */
function relevanceClauses(searchText: string): estypes.QueryDslQueryContainer[] {
  const lower = searchText.toLowerCase();
  return [
    { constant_score: { filter: { term: { 'name.exact': lower } }, boost: EXACT_NAME_BOOST } },
    { constant_score: { filter: { term: { 'altName.exact': lower } }, boost: EXACT_NAME_BOOST } },
    // Every word somewhere in the record ranks above some of the words.
    {
      constant_score: {
        filter: { multi_match: { query: searchText, type: 'cross_fields', operator: 'and', fields: ['name', 'altName', 'description', 'headers', 'words'] } },
        boost: EVERY_WORD_BOOST,
      },
    },
    { multi_match: { query: searchText, type: 'best_fields', tie_breaker: 0.3, fields: ['name^4', 'altName^4', 'description^2', 'headers', 'words'] } },
    { match: { name: { query: searchText, fuzziness: 'AUTO' } } },
  ];
}
