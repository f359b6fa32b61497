/** The in-process index's snapshot, as the search benchmarks wait for it. */
import { Client } from 'pg';
import { SNAPSHOT_FORMAT } from '../../../libs/search-index/src/memory-snapshot-codec';

/**
 * Waits until the database holds a snapshot of the index's current format. A start without one
 * writes it in the background (tens of seconds of a core at 1M): measured meanwhile, the first
 * cells would be read against it. Answers the seconds waited.
 */
export async function snapshotWritten(databaseUrl: string): Promise<number> {
  const waited = Date.now();
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    while ((await db.query('SELECT 1 FROM search.memory_snapshots WHERE format = $1', [SNAPSHOT_FORMAT])).rowCount === 0)
      await new Promise((resolve) => setTimeout(resolve, 1000));
  } finally {
    await db.end();
  }
  return (Date.now() - waited) / 1000;
}
