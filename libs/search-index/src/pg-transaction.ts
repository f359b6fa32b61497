import type { Pool, PoolClient } from 'pg';

export interface TransactionOptions {
  /** One view of the tables for a long read (REPEATABLE READ READ ONLY): writers committing meanwhile do not cut it short. */
  readOnlySnapshot?: boolean;
}

/**
 * Runs work in one transaction on a connection of the pool: committed when the work resolves, rolled
 * back when it throws (the error is thrown on). The one place the PostgreSQL-backed stores of this
 * library begin and end transactions.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(options.readOnlySnapshot ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
