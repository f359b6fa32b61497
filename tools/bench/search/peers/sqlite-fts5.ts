import { statSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { documentAccessKeys, normalizeSearchText, viewerAccessKeys, type RecordDocument, type SearchHit, type SearchQuery } from '@dc/search-index';
import { COUNT_LIMIT, extraOf, oldestFirst, trigramSimilarity, words, type PeerEngine, type PeerPage } from './engine';

const FEW_MATCHES = 10;
const MIN_TYPO_LENGTH = 4;
/** Name words at least this close (trigram similarity) to a word of the text make the typo tier. */
const TYPO_WORD_THRESHOLD = 0.5;
/** bm25 column weights: name (with the alternate name), description, the rest. */
const RANK = 'bm25(fts, 4.0, 2.0, 1.0)';

const SCHEMA = `
  CREATE TABLE docs (n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, changed INTEGER NOT NULL, owner TEXT NOT NULL, doc TEXT NOT NULL);
  -- The keys that grant sight of each document (visibility.ts), looked up by key and document.
  CREATE TABLE access (key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (key, n)) WITHOUT ROWID;
  CREATE VIRTUAL TABLE fts USING fts5 (name, description, extra, content='', tokenize='unicode61 remove_diacritics 0', prefix='3');
  CREATE VIRTUAL TABLE vocab USING fts5vocab (fts, 'col');
  -- The typo tier: the words of names, by trigram.
  CREATE VIRTUAL TABLE name_terms USING fts5 (term, tokenize='trigram');
`;

/**
 * Who may see a row (and, for own, owns it), as SQL over `docs d` and the row number `n`: the
 * viewer's keys as one placeholder each (a json_each() list made the planner build an automatic
 * index per query: 120 ms for the empty query's page at 100,000 records, against 0.15 ms).
 */
function visibleSql(n: string, own: boolean, keys: number): string {
  return `EXISTS (SELECT 1 FROM access a WHERE a.n = ${n} AND a.key IN (${Array(keys).fill('?').join(', ')}))${own ? ' AND d.owner = ?' : ''}`;
}

const quoted = (term: string) => `"${term.replace(/"/g, '""')}"`;

/**
 * SQLite FTS5 through Node's built-in node:sqlite, in a file database: a contentless FTS5 table
 * (unicode61, prefix index of 3 letters) ranked by bm25 with column weights, visibility as a
 * WHERE EXISTS over an access-key table, the empty query newest first by an index on the change
 * time (keyset paging with the cursor), ranked deep pages by OFFSET; when fewer than 10 records
 * match, the typo tier: name words close to a word of the text (a trigram FTS5 table of the name
 * vocabulary, then trigram similarity), matched in names.
 */
export class SqliteFts5Engine implements PeerEngine {
  readonly name: string;
  private db: DatabaseSync | null = null;
  private readonly statements = new Map<string, StatementSync>();

  /**
   * `bm25`: ranked by bm25. `tiers`: ranked as ours (every word in the name, then in the name or
   * description when no more than the count limit match, then anywhere; each newest first), each
   * tier read newest first (rows are numbered oldest change first) and only as far as the page needs.
   */
  constructor(
    private readonly file: string,
    private readonly ranking: 'bm25' | 'tiers' = 'bm25',
  ) {
    this.name = ranking === 'bm25' ? 'SQLite FTS5 (node:sqlite)' : "SQLite FTS5, ours' ranking";
  }

  static in(dir: string, ranking: 'bm25' | 'tiers' = 'bm25'): SqliteFts5Engine {
    return new SqliteFts5Engine(path.join(dir, 'sqlite-fts5.db'), ranking);
  }

  build(unordered: RecordDocument[]): void {
    // Numbered oldest change first (then id descending), as ours: the row number descending is then newest first.
    const records = [...unordered].sort(oldestFirst);
    const db = (this.db = new DatabaseSync(this.file));
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192;');
    db.exec(SCHEMA);
    const doc = db.prepare('INSERT INTO docs (n, id, changed, owner, doc) VALUES (?, ?, ?, ?, ?)');
    const access = db.prepare('INSERT INTO access (key, n) VALUES (?, ?)');
    const fts = db.prepare('INSERT INTO fts (rowid, name, description, extra) VALUES (?, ?, ?, ?)');
    db.exec('BEGIN');
    records.forEach((record, i) => {
      const n = i + 1;
      doc.run(n, record.id, Date.parse(record.changedAt), record.ownerId, JSON.stringify(record));
      for (const key of documentAccessKeys(record)) access.run(key, n);
      fts.run(n, `${record.name} ${record.altName ?? ''}`, record.description ?? '', extraOf(record));
    });
    db.exec(`
      CREATE INDEX docs_newest ON docs (changed DESC, id);
      CREATE INDEX docs_owner ON docs (owner, changed DESC, id);
      INSERT INTO name_terms (term) SELECT term FROM vocab WHERE col = 'name';
      INSERT INTO fts (fts) VALUES ('optimize');
      INSERT INTO name_terms (name_terms) VALUES ('optimize');
      COMMIT;
      ANALYZE;
    `);
  }

  private open(): DatabaseSync {
    if (!this.db) {
      this.db = new DatabaseSync(this.file);
      // Read through the OS page cache, as a restarted service would once its file is cached.
      this.db.exec('PRAGMA mmap_size = 8589934592; PRAGMA cache_size = -65536;');
    }
    return this.db;
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.open().prepare(sql)));
    return statement;
  }

  search(query: SearchQuery): PeerPage {
    if (query.view === 'own' && !query.viewer) return { count: 0, countCapped: false, hasMore: false, hits: [] };
    const own = query.view === 'own';
    const keys = viewerAccessKeys(query.viewer);
    const filterArgs: SQLInputValue[] = [...keys, ...(own ? [query.viewer!.userId] : [])];
    const visible = (n: string) => visibleSql(n, own, keys.length);
    const offset = (query.page - 1) * query.pageSize;
    const text = normalizeSearchText(query.text);
    if (!text) {
      const seek = query.after && query.page > 1;
      const after = seek ? ' AND (d.changed < ? OR (d.changed = ? AND d.id > ?))' : '';
      const afterArgs: SQLInputValue[] = seek ? [Date.parse(query.after!.changedAt), Date.parse(query.after!.changedAt), query.after!.id] : [];
      const rows = this.statement(`SELECT d.doc AS doc FROM docs d WHERE ${visible('d.n')}${after} ORDER BY d.changed DESC, d.id LIMIT ? OFFSET ?`).all(
        ...filterArgs,
        ...afterArgs,
        query.pageSize + 1,
        seek ? 0 : offset,
      ) as Array<{ doc: string }>;
      // Without the own filter, the records the viewer may see are counted from the access table alone.
      const countSql = own
        ? `SELECT count(*) AS c FROM (SELECT 1 FROM docs d WHERE ${visible('d.n')} LIMIT ${COUNT_LIMIT + 1})`
        : `SELECT count(*) AS c FROM (SELECT DISTINCT a.n FROM access a WHERE a.key IN (${keys.map(() => '?').join(', ')}) LIMIT ${COUNT_LIMIT + 1})`;
      const count = this.statement(countSql).get(...filterArgs) as { c: number };
      return this.page(count.c, rows, query.pageSize);
    }
    const terms = words(text);
    if (terms.length === 0) return { count: 0, countCapped: false, hasMore: false, hits: [] };
    const match = terms.map(quoted).join(' ');
    const from = `FROM fts JOIN docs d ON d.n = fts.rowid WHERE fts MATCH ? AND ${visible('fts.rowid')}`;
    const count = (this.statement(`SELECT count(*) AS c FROM (SELECT 1 ${from} LIMIT ${COUNT_LIMIT + 1})`).get(match, ...filterArgs) as { c: number }).c;
    if ((count >= FEW_MATCHES || text.length < MIN_TYPO_LENGTH) && this.ranking === 'tiers') return this.tiers(match, count, from, filterArgs, query);
    if (count >= FEW_MATCHES || text.length < MIN_TYPO_LENGTH) {
      const rows = this.statement(`SELECT d.doc AS doc, ${RANK} AS score ${from} ORDER BY score, d.changed DESC, d.id LIMIT ? OFFSET ?`).all(
        match,
        ...filterArgs,
        query.pageSize + 1,
        offset,
      ) as Array<{ doc: string; score: number }>;
      return this.page(count, rows, query.pageSize);
    }
    // Few matches: every one of them, then the typo tier's (names with a word close to each word of the text).
    const exact = this.statement(`SELECT fts.rowid AS n, d.doc AS doc, ${RANK} AS score ${from} ORDER BY score, d.changed DESC, d.id`).all(
      match,
      ...filterArgs,
    ) as Array<{ n: number; doc: string; score: number }>;
    const groups = terms.map((term) => [term, ...this.closeNameTerms(term)]);
    if (groups.every((group) => group.length === 1)) return this.page(count, exact, query.pageSize, offset);
    const typoMatch = `{name} : (${groups.map((group) => `(${group.map(quoted).join(' OR ')})`).join(' AND ')})`;
    const wanted = Math.max(offset + query.pageSize + 1, COUNT_LIMIT + 1);
    // Row numbers and scores first: the documents are read for the page's rows only.
    const typos = this.statement(`SELECT fts.rowid AS n, ${RANK} AS score ${from} ORDER BY score, d.changed DESC, d.id LIMIT ?`).all(
      typoMatch,
      ...filterArgs,
      wanted,
    ) as Array<{ n: number; score: number }>;
    const seen = new Set(exact.map((row) => row.n));
    // Below every exact match (bm25 is lower for better; typo scores are shifted past the worst exact one).
    const worst = Math.max(0, ...exact.map((row) => row.score));
    const ranked = [...exact, ...typos.filter((row) => !seen.has(row.n)).map((row) => ({ n: row.n, score: worst + 1000 + row.score }))];
    const doc = this.statement('SELECT doc FROM docs WHERE n = ?');
    const rows = ranked.slice(offset, offset + query.pageSize + 1).map((row) => ({ doc: (doc.get(row.n) as { doc: string }).doc, score: row.score }));
    return this.page(ranked.length, rows, query.pageSize);
  }

  /** Ours' tiers, each newest first, read up to the page's last row (plus one); deep pages by offset. */
  private tiers(match: string, count: number, from: string, filterArgs: SQLInputValue[], query: SearchQuery): PeerPage {
    const inName = `{name} : (${match})`;
    const inSummary = `{name description} : (${match})`;
    // Ours scores the name or description tier only when no more than the count limit match.
    const tiers: Array<[number, string]> =
      count > COUNT_LIMIT
        ? [
            [3, inName],
            [1, `(${match}) NOT ${inName}`],
          ]
        : [
            [3, inName],
            [2, `${inSummary} NOT ${inName}`],
            [1, `(${match}) NOT ${inSummary}`],
          ];
    const offset = (query.page - 1) * query.pageSize;
    const wanted = offset + query.pageSize + 1;
    // Row numbers first: the documents are read for the page's rows only.
    const rows: Array<{ n: number; score: number }> = [];
    for (const [score, tier] of tiers) {
      if (rows.length >= wanted) break;
      const read = this.statement(`SELECT fts.rowid AS n ${from} ORDER BY fts.rowid DESC LIMIT ?`).all(tier, ...filterArgs, wanted - rows.length) as Array<{
        n: number;
      }>;
      for (const row of read) rows.push({ n: row.n, score });
    }
    const doc = this.statement('SELECT doc FROM docs WHERE n = ?');
    const page = rows.slice(offset, offset + query.pageSize + 1).map((row) => ({ doc: (doc.get(row.n) as { doc: string }).doc, score: row.score }));
    return this.page(count, page, query.pageSize);
  }

  /** Words of names within TYPO_WORD_THRESHOLD of the term (the term left out), from the trigram table. */
  private closeNameTerms(term: string): string[] {
    if (term.length < 3) return [];
    const grams = new Set<string>();
    for (let i = 0; i + 3 <= term.length; i++) grams.add(term.slice(i, i + 3));
    const candidates = this.statement('SELECT term FROM name_terms WHERE name_terms MATCH ? ORDER BY rank LIMIT 200').all(
      [...grams].map(quoted).join(' OR '),
    ) as Array<{
      term: string;
    }>;
    return candidates.map((row) => row.term).filter((candidate) => candidate !== term && trigramSimilarity(term, candidate) >= TYPO_WORD_THRESHOLD);
  }

  /** A page from rows that start at the page (offset 0) or at the start of the ranking (offset given), one more than the page if another follows. */
  private page(total: number, rows: Array<{ doc: string; score?: number }>, pageSize: number, offset = 0): PeerPage {
    const slice = rows.slice(offset, offset + pageSize + 1);
    const hits = slice.slice(0, pageSize).map((row): SearchHit => {
      const doc = JSON.parse(row.doc) as RecordDocument;
      return row.score === undefined ? doc : { ...doc, score: row.score };
    });
    return { count: Math.min(total, COUNT_LIMIT), countCapped: total > COUNT_LIMIT, hasMore: slice.length > pageSize, hits };
  }

  /** The database file is written as it is built: persisting closes it. */
  persist(): { indexBytes: number; documentsBytes: number } {
    this.close();
    return { indexBytes: statSync(this.file).size, documentsBytes: 0 };
  }

  restore(): number {
    this.open();
    return 0;
  }

  close(): void {
    this.statements.clear();
    this.db?.close();
    this.db = null;
  }
}
