import type { DataSource } from 'typeorm';
import { createEvent, EventEnvelope, IndexRebuildRequested } from '@dc/contracts';
import { Outbox } from '@dc/messaging';
import type { SearchIndex } from '@dc/search-index';

/**
 * Rebuilds the search index from scratch, from events only: empties the index, then asks every
 * service that owns indexed state to publish it again (index.rebuild-requested, through search's
 * own outbox, so it leaves only once the index is empty and is relayed by the running services in
 * either run mode). The catalogue answers with record.updated for every record, identity with
 * organisation.updated and user.updated; the search consumers index them as any other event.
 * Running it again does the same work and ends in the same index.
 */
export async function requestIndexRebuild(index: SearchIndex, search: DataSource, now = new Date()): Promise<EventEnvelope> {
  await index.clear();
  const event = createEvent(IndexRebuildRequested, 'search-index', { requestedAt: now.toISOString() });
  await search.transaction((manager) => new Outbox('search').add(manager, [event]));
  return event;
}
