import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@dc/testing';
import { PostgresSearchIndex } from './postgres-search-index';
import { InvalidSearchInputError } from './search-index';
import { recordDocument, searchIndexContract } from './search-index.contract';

describe('PostgresSearchIndex', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('dc_search_index');
  });
  afterAll(async () => {
    await db?.drop();
  });

  searchIndexContract('postgres', (limits) => new PostgresSearchIndex({ connectionString: db.url, ...limits }));

  describe('specifics', () => {
    it('keeps indexes in its own schema, apart from another schema in the same database', async () => {
      const first = new PostgresSearchIndex({ connectionString: db.url, schema: 'search_one' });
      const second = new PostgresSearchIndex({ connectionString: db.url, schema: 'search_two' });
      try {
        await Promise.all([first.init(), second.init()]);
        await first.upsert([recordDocument({ id: 'only-in-first' })]);
        expect(await first.count()).toBe(1);
        expect(await second.count()).toBe(0);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });

    it('rejects schema names that are not plain identifiers', () => {
      expect(() => new PostgresSearchIndex({ connectionString: db.url, schema: 'search"; DROP TABLE x; --' })).toThrow(InvalidSearchInputError);
    });

    it('creates the indexes the visibility, text, typo and listing predicates rely on', async () => {
      const index = new PostgresSearchIndex({ connectionString: db.url, schema: 'search_indexes' });
      const pool = new Pool({ connectionString: db.url });
      // Its connections may still be closing when the database is dropped (pool.end() does not wait for them).
      pool.on('error', () => undefined);
      try {
        await index.init();
        const { rows } = await pool.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'search_indexes' ORDER BY indexname`);
        const defs = rows.map((row) => row.indexdef).join('\n');
        expect(defs).toContain('USING gin (name_vector, access_keys, group_ids)');
        expect(defs).toContain('USING gin (((name_vector || description_vector)), access_keys, group_ids)');
        expect(defs).toContain('USING gin ((((name_vector || description_vector) || extra_vector)), access_keys, group_ids)');
        expect(defs).toMatch(/USING gin \(lower\(name\) \S*gin_trgm_ops, access_keys, group_ids\)/);
        expect(defs).toMatch(/USING hash \(lower\(name\)\)/);
        expect(defs).toMatch(/USING hash \(lower\(alt_name\)\)/);
        expect(defs).toMatch(/\(changed_at DESC, id\) INCLUDE \(access_keys, group_ids\)/);
        expect(defs).toMatch(/\(owner_id, changed_at DESC, id\)/);
      } finally {
        await Promise.all([index.close(), pool.end()]);
      }
    });
  });
});
