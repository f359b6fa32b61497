import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import type { Pool, PoolClient } from 'pg';
import { copyRowsOut } from './copy-out';
import { SNAPSHOT_FORMAT, type MemorySnapshot } from './memory-snapshot-codec';
import { inTransaction } from './pg-transaction';
import { SnapshotFormatError } from './snapshot-format';

const compress = promisify(deflateRaw);
const decompress = promisify(inflateRaw);

/** Rows of this size (before compression): node-postgres reads a message of many megabytes far slower per byte (measured: 8 MB rows took 5x the time of 1 MB ones). */
const CHUNK_BYTES = 1024 * 1024;

export interface StoredSnapshot {
  /** The store's write sequence the snapshot includes. */
  seq: number;
  /** The snapshot's bytes, in one buffer whose start is aligned for typed arrays. */
  bytes: Uint8Array;
}

/**
 * Snapshots of the in-process index's memory, in PostgreSQL beside the documents they were built
 * from (tables `memory_snapshots` and `memory_snapshot_chunks` of the store's schema): every
 * replica of the search service reads them, a clear deletes them in its own transaction, and a
 * backup of the store holds them. A snapshot is written in one transaction, so it is there whole
 * or not at all; one writer at a time (an advisory lock), and only the newest is kept.
 */
export class MemorySnapshotStore {
  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
  ) {}

  private get snapshots() {
    return `"${this.schema}".memory_snapshots`;
  }
  private get chunks() {
    return `"${this.schema}".memory_snapshot_chunks`;
  }
  private get state() {
    return `"${this.schema}".memory_state`;
  }

  /** The tables, in the store's set-up transaction. */
  async create(client: PoolClient): Promise<void> {
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${this.snapshots} (id bigserial PRIMARY KEY, seq bigint NOT NULL, format int NOT NULL, bytes bigint NOT NULL, chunks int NOT NULL, sha256 bytea NOT NULL, written_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${this.chunks} (snapshot bigint NOT NULL REFERENCES ${this.snapshots} ON DELETE CASCADE, chunk int NOT NULL, data bytea NOT NULL, PRIMARY KEY (snapshot, chunk))`,
    );
    // Compressed already (deflate): PostgreSQL's own compression would only cost time at every write.
    await client.query(`ALTER TABLE ${this.chunks} ALTER COLUMN data SET STORAGE EXTERNAL`);
  }

  /** Table names, for the store's DROP when its layout changes. */
  get tables(): string[] {
    return [this.chunks, this.snapshots];
  }

  /** Deletes every snapshot (in a clear's transaction: what they hold is gone). */
  async clear(client: PoolClient): Promise<void> {
    await client.query(`DELETE FROM ${this.snapshots}`);
  }

  /**
   * Writes the snapshot unless another process is writing one or a newer one of this format is kept; true when
   * written. Stops (rolling back) between chunks once `stop()` says so.
   */
  async write(snapshot: MemorySnapshot, stop: () => boolean): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ locked: boolean; newest: string | null }>(
        // Only a snapshot of this format counts: one of another can never be loaded, whatever its number.
        `SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked, (SELECT max(seq) FROM ${this.snapshots} WHERE format = $2) AS newest`,
        [`in-process-search-snapshot:${this.schema}`, SNAPSHOT_FORMAT],
      );
      // Nothing written: the transaction ends (and the lock with it) at once.
      if (!rows[0].locked || (rows[0].newest !== null && Number(rows[0].newest) >= snapshot.appliedSeq)) return false;
      const inserted = await client.query<{ id: string }>(
        `INSERT INTO ${this.snapshots} (seq, format, bytes, chunks, sha256) VALUES ($1, $2, 0, 0, '') RETURNING id`,
        [snapshot.appliedSeq, SNAPSHOT_FORMAT],
      );
      const id = inserted.rows[0].id;
      const hash = createHash('sha256');
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      let filled = 0;
      let chunks = 0;
      let bytes = 0;
      const flush = async () => {
        if (stop()) throw new Error('closing: snapshot abandoned');
        const data = chunk.subarray(0, filled);
        hash.update(data);
        // Compressed on the thread pool, not the event loop: a third of the bytes to read back as hex text at the next start.
        const packed = await compress(data, { level: 1 });
        await client.query(`INSERT INTO ${this.chunks} (snapshot, chunk, data) VALUES ($1, $2, $3)`, [id, chunks++, packed]);
        bytes += filled;
        filled = 0;
      };
      for (const piece of snapshot.pieces) {
        for (let at = 0; at < piece.byteLength;) {
          const take = Math.min(piece.byteLength - at, CHUNK_BYTES - filled);
          chunk.set(piece.subarray(at, at + take), filled);
          filled += take;
          at += take;
          if (filled === CHUNK_BYTES) await flush();
        }
      }
      if (filled > 0) await flush();
      await client.query(`UPDATE ${this.snapshots} SET bytes = $2, chunks = $3, sha256 = $4 WHERE id = $1`, [id, bytes, chunks, hash.digest()]);
      await client.query(`DELETE FROM ${this.snapshots} WHERE id <> $1`, [id]);
      return true;
    });
  }

  /**
   * The newest snapshot of this format that the store can catch up from: not older than its last
   * clear, not newer than its last write (a store recreated since). Null when there is none;
   * SnapshotFormatError when its bytes do not add up to what was written.
   */
  async readNewest(): Promise<StoredSnapshot | null> {
    // One view of the tables: a writer replacing the snapshot meanwhile does not cut it short.
    return inTransaction(
      this.pool,
      async (client) => {
        const { rows } = await client.query<{ id: string; seq: string; bytes: string; chunks: number; sha256: Buffer }>(
          `SELECT s.id, s.seq, s.bytes, s.chunks, s.sha256 FROM ${this.snapshots} s, ${this.state} st
         WHERE s.format = $1 AND s.seq >= st.cleared AND s.seq <= st.generation ORDER BY s.seq DESC LIMIT 1`,
          [SNAPSHOT_FORMAT],
        );
        const found = rows[0];
        if (!found) return null;
        // One buffer of the announced size, filled a chunk at a time: loading never holds two copies.
        const bytes = new Uint8Array(new ArrayBuffer(Number(found.bytes)));
        const hash = createHash('sha256');
        let filled = 0;
        // One COPY of every chunk, in the server's bytes (copy-out.ts); each chunk inflated on the
        // thread pool as it arrives, and put in place in order.
        let chunks = 0;
        let placed: Promise<void> = Promise.resolve();
        const place = (piece: Promise<Buffer>) => async () => {
          const inflated = await piece;
          if (filled + inflated.byteLength > bytes.byteLength) throw new SnapshotFormatError(`snapshot ${found.id}: chunks too long`);
          bytes.set(inflated, filled);
          hash.update(inflated);
          filled += inflated.byteLength;
        };
        if (!/^\d+$/.test(found.id)) throw new SnapshotFormatError(`snapshot id ${found.id}`);
        const copied = copyRowsOut(client, `SELECT chunk, data FROM ${this.chunks} WHERE snapshot = ${found.id} ORDER BY chunk`, ([chunk, data]) => {
          if (chunk?.length !== 4 || chunk.readInt32BE(0) !== chunks || !data) throw new SnapshotFormatError(`snapshot ${found.id}: chunk ${chunks} missing`);
          const number = chunks++;
          // Output in one buffer of a chunk's size: in pieces of the default 16 KB, allocating and joining them cost more than inflating.
          const inflated = decompress(data, { chunkSize: CHUNK_BYTES }).catch((error: Error) => {
            throw new SnapshotFormatError(`snapshot ${found.id}: chunk ${number} does not decompress (${error.message})`);
          });
          // Handled in order below; a failure may come before its turn (or before the copy ends).
          inflated.catch(() => undefined);
          placed = placed.then(place(inflated));
          placed.catch(() => undefined);
        });
        try {
          await copied;
        } finally {
          // Every chunk handed on is placed (or failed) before the transaction ends.
          await placed.catch(() => undefined);
        }
        await placed;
        if (chunks !== found.chunks) throw new SnapshotFormatError(`snapshot ${found.id}: ${chunks} chunks of ${found.chunks}`);
        if (filled !== bytes.byteLength || !hash.digest().equals(found.sha256))
          throw new SnapshotFormatError(`snapshot ${found.id}: checksum or length differs`);
        return { seq: Number(found.seq), bytes };
      },
      { readOnlySnapshot: true },
    );
  }
}
