import type { Pool, PoolClient } from 'pg';
import { MemorySnapshotStore } from './memory-snapshots';
import { inTransaction } from './pg-transaction';
import { DOCUMENT_ROWS, documentRowsJson } from './postgres-query';
import { RankedMemory, type IndexedRecord } from './ranked-memory';
import { chunk, type RecordDocument } from './search-index';

const UPSERT_BATCH = 500;
const LOAD_BATCH = 5000;

/**
 * The layout of the tables below. The store is a projection that `npm run reindex` rebuilds, so
 * tables of another layout are dropped and created again (empty) by create().
 */
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

/** The store's write numbers: the last write's, and the last clear's. */
export interface StoreState {
  generation: number;
  cleared: number;
}

/**
 * The PostgreSQL store of the in-process index (tables `memory_*` of its schema): the documents,
 * the removals, the write sequence and (memory-snapshots.ts) the memory's snapshots. Each write
 * takes the next number of a store-wide sequence under a row lock, so sequence order is commit
 * order. Every write runs in one transaction (pg-transaction.ts). No ranking here: the memory is
 * only filled from rows.
 */
export class InProcessStore {
  readonly snapshots: MemorySnapshotStore;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
  ) {
    this.snapshots = new MemorySnapshotStore(pool, schema);
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

  /** Creates the tables, or drops and creates them when their layout is not this code's; safe to call concurrently. */
  async create(): Promise<void> {
    await inTransaction(this.pool, async (client) => {
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
  }

  /** Stores valid, distinct documents (prepareDocuments) as one write. */
  async upsert(prepared: RecordDocument[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const seq = await this.nextSequence(client);
      for (const batch of chunk(prepared, UPSERT_BATCH)) {
        await client.query(
          `INSERT INTO ${this.records} (id, seq, changed_at, name, alt_name, description, extra, owner_id, access_keys, group_ids, doc)
           SELECT id, $2, date_trunc('milliseconds', changed_at), name, alt_name, description, extra, owner_id, access_keys, group_ids, doc
           FROM ${DOCUMENT_ROWS}
           ON CONFLICT (id) DO UPDATE SET seq = EXCLUDED.seq, changed_at = EXCLUDED.changed_at, name = EXCLUDED.name, alt_name = EXCLUDED.alt_name,
             description = EXCLUDED.description, extra = EXCLUDED.extra, owner_id = EXCLUDED.owner_id, access_keys = EXCLUDED.access_keys,
             group_ids = EXCLUDED.group_ids, doc = EXCLUDED.doc`,
          [documentRowsJson(batch), seq],
        );
      }
    });
  }

  /** Removes documents by id as one write, kept as removals for other processes to apply. */
  async remove(ids: string[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const seq = await this.nextSequence(client);
      await client.query(
        `WITH gone AS (DELETE FROM ${this.records} WHERE id = ANY($1::text[]) RETURNING id) INSERT INTO ${this.removed} (id, seq) SELECT id, $2 FROM gone`,
        [ids, seq],
      );
    });
  }

  /** Removes every document and snapshot as one write, numbered as the last clear. */
  async clear(): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const seq = await this.nextSequence(client);
      await client.query(`TRUNCATE ${this.records}, ${this.removed}`);
      await client.query(`UPDATE ${this.state} SET cleared = $1`, [seq]);
      // A snapshot being written meanwhile commits after this, but is older than the clear: never loaded.
      await this.snapshots.clear(client);
    });
  }

  async get(id: string): Promise<RecordDocument | null> {
    const { rows } = await this.pool.query<{ doc: RecordDocument }>(`SELECT doc FROM ${this.records} WHERE id = $1`, [id]);
    return rows[0]?.doc ?? null;
  }

  async getMany(ids: string[]): Promise<RecordDocument[]> {
    const { rows } = await this.pool.query<{ doc: RecordDocument }>(`SELECT doc FROM ${this.records} WHERE id = ANY($1)`, [ids]);
    return rows.map((row) => row.doc);
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${this.records}`);
    return rows[0].count;
  }

  async readState(): Promise<StoreState> {
    const { rows } = await this.pool.query<{ generation: string; cleared: string }>(`SELECT generation, cleared FROM ${this.state}`);
    return { generation: Number(rows[0].generation), cleared: Number(rows[0].cleared) };
  }

  /**
   * The documents of these ids (with the write number of their version) and the store's last write
   * number, in one statement (one snapshot of the store).
   */
  async page(ids: string[]): Promise<{ generation: number; docs: Array<{ id: string; seq: number; doc: RecordDocument }> }> {
    const found = await this.pool.query<{ generation: string | null; id: string | null; seq: string | null; doc: RecordDocument | null }>({
      // Prepared once per connection: every search runs it, and PostgreSQL then plans it once.
      name: `in-process-search-page:${this.schema}`,
      text: `SELECT generation, NULL AS id, NULL::bigint AS seq, NULL::jsonb AS doc FROM ${this.state} UNION ALL SELECT NULL, id, seq, doc FROM ${this.records} WHERE id = ANY($1::text[])`,
      values: [ids],
    });
    let generation = 0;
    const docs: Array<{ id: string; seq: number; doc: RecordDocument }> = [];
    for (const row of found.rows) {
      if (row.id === null) generation = Number(row.generation);
      else docs.push({ id: row.id, seq: Number(row.seq), doc: row.doc! });
    }
    return { generation, docs };
  }

  /** Every stored document, oldest change first, as of one snapshot of the store; stops early once `stop()` says so. */
  async load(stop: () => boolean): Promise<RankedMemory> {
    return inTransaction(
      this.pool,
      async (client) => {
        const { rows } = await client.query<{ generation: string }>(`SELECT generation FROM ${this.state}`);
        const memory = new RankedMemory(Number(rows[0].generation));
        // Ties in reverse id order: read from the end, the list then meets them in id order.
        await client.query(`DECLARE memory_load NO SCROLL CURSOR FOR SELECT ${STORE_COLUMNS} FROM ${this.records} ORDER BY changed_at, id DESC`);
        for (;;) {
          if (stop()) break;
          const batch = await client.query<StoreRow>(`FETCH ${LOAD_BATCH} FROM memory_load`);
          for (const row of batch.rows) memory.add(toIndexed(row));
          if (batch.rows.length < LOAD_BATCH) break;
        }
        // Its lists grew by doubling: held at their size, as a memory restored from a snapshot.
        memory.trim();
        return memory;
      },
      { readOnlySnapshot: true },
    );
  }

  /**
   * The writes numbered after `from` up to `to`: each upserted document's version to `add`, in write
   * order, a batch at a time; then the removals, for the caller to apply after them.
   */
  async changes(from: number, to: number, add: (records: IndexedRecord[]) => void): Promise<Array<{ id: string; seq: number }>> {
    const removals = await this.pool.query<{ id: string; seq: string }>(`SELECT id, seq FROM ${this.removed} WHERE seq > $1 AND seq <= $2`, [from, to]);
    let last: [number, string] = [from, ''];
    for (;;) {
      const batch = await this.pool.query<StoreRow>(
        // After the last row read; `seq > from` keeps out the rows of the write applied last (the first batch's (from, '') does not).
        `SELECT ${STORE_COLUMNS} FROM ${this.records} WHERE seq > $4 AND (seq, id) > ($1, $2) AND seq <= $3 ORDER BY seq, id LIMIT ${LOAD_BATCH}`,
        [last[0], last[1], to, from],
      );
      add(batch.rows.map(toIndexed));
      if (batch.rows.length < LOAD_BATCH) break;
      const end = batch.rows[batch.rows.length - 1];
      last = [Number(end.seq), end.id];
    }
    return removals.rows.map((row) => ({ id: row.id, seq: Number(row.seq) }));
  }

  /** The next write's sequence number; the row lock orders writes by commit. */
  private async nextSequence(client: PoolClient): Promise<number> {
    const { rows } = await client.query<{ generation: string }>(`UPDATE ${this.state} SET generation = generation + 1 RETURNING generation`);
    return Number(rows[0].generation);
  }
}
