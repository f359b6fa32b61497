import { z } from 'zod';
import { defineEvent } from './registry';

/**
 * Rebuilding the search index from scratch (`npm run reindex`): the search service clears its index
 * and asks, through this event, every service that owns indexed state to publish it again.
 */
export const IndexRebuildRequested = defineEvent(
  'index.rebuild-requested',
  1,
  'The search index was cleared: the catalogue re-publishes every record (record.updated), identity every organisation and user (organisation.updated, user.updated)',
  z.object({
    requestedAt: z.string().datetime({ offset: true }),
  }),
);
