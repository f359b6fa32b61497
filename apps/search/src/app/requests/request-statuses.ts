import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RequestCreated, RequestSnapshot, RequestStatus, RequestUpdated, shownRequestStatus, ShownRequestStatus } from '@dc/contracts';
import { applyRequestSnapshot, ServiceDatabase, ServiceEvents } from '@dc/platform';

/** Port: the viewer's current request status per record, for the cards of one page. */
export abstract class RequestStatuses {
  abstract statusesFor(viewerId: string, recordIds: string[]): Promise<Map<string, ShownRequestStatus>>;
}

/**
 * How long a viewer's open requests answer the cards of their lists. Every status this process
 * applies forgets them at once (see onModuleInit); the lifetime bounds how long a status applied by
 * another search process (several replicas in distributed mode) may take to show: seconds, as
 * the identity service's memory of accounts.
 */
export const REQUEST_STATUSES_TTL_MS = 2_000;
const MAX_REMEMBERED_VIEWERS = 10_000;
/** A viewer with more open requests than this is asked per page instead: their whole list is too much to hold. */
export const MAX_REMEMBERED_REQUESTS = 1_000;

interface OpenRequest {
  status: RequestStatus;
  expiresAt: Date | null;
}
type OpenRequestRow = { record_id: string; status: RequestStatus; expires_at: Date | null };

/**
 * Search's projection of request.* events (newest version per request wins). Every signed-in list
 * asks it, so each viewer's open requests (usually none or a few) are remembered briefly instead
 * of read from PostgreSQL on every page.
 */
@Injectable()
export class PostgresRequestStatuses extends RequestStatuses implements OnModuleInit {
  /** Per viewer: the newest request that is not closed per record, or null when they have too many to remember. */
  private readonly remembered = new Map<string, { requests: Map<string, OpenRequest> | null; until: number }>();
  /** Bumped by every forget, so a read that raced an applied status is not remembered after it. */
  private generation = 0;

  constructor(
    private readonly db: ServiceDatabase,
    private readonly events: ServiceEvents,
  ) {
    super();
  }

  /** Overridable clock (tests). */
  now: () => number = Date.now;

  onModuleInit(): void {
    this.events.onApplied((event) => {
      if (event.type === RequestCreated.type || event.type === RequestUpdated.type) this.forget();
    });
  }

  /** Forgets every viewer's requests: statuses change rarely next to searches, and forgetting all is never wrong. */
  forget(): void {
    this.generation += 1;
    this.remembered.clear();
  }

  static async save(manager: EntityManager, request: RequestSnapshot): Promise<void> {
    await applyRequestSnapshot(manager, 'search.request_statuses', request);
  }

  async statusesFor(viewerId: string, recordIds: string[]): Promise<Map<string, ShownRequestStatus>> {
    if (recordIds.length === 0) return new Map();
    const open = (await this.openRequestsOf(viewerId)) ?? toRequests(await this.query(viewerId, recordIds));
    // Shown as of now: an approval past its expiry shows as expired even while remembered.
    const now = new Date(this.now());
    const statuses = new Map<string, ShownRequestStatus>();
    for (const id of recordIds) {
      const request = open.get(id);
      if (request) statuses.set(id, shownRequestStatus(request, now));
    }
    return statuses;
  }

  /** Every open request of the viewer, remembered for a moment; null when they have too many. */
  private async openRequestsOf(viewerId: string): Promise<Map<string, OpenRequest> | null> {
    const cached = this.remembered.get(viewerId);
    if (cached && cached.until > this.now()) return cached.requests;
    const generation = this.generation;
    const rows = await this.query(viewerId, null, MAX_REMEMBERED_REQUESTS + 1);
    const requests = rows.length > MAX_REMEMBERED_REQUESTS ? null : toRequests(rows);
    if (generation === this.generation) {
      this.remembered.delete(viewerId);
      if (this.remembered.size >= MAX_REMEMBERED_VIEWERS) this.remembered.delete(this.remembered.keys().next().value!);
      this.remembered.set(viewerId, { requests, until: this.now() + REQUEST_STATUSES_TTL_MS });
    }
    return requests;
  }

  /** The newest request that is not closed, per record: of the given records, or of all (up to `limit`). */
  private query(viewerId: string, recordIds: string[] | null, limit?: number): Promise<OpenRequestRow[]> {
    return this.db.dataSource.query(
      `SELECT DISTINCT ON (record_id) record_id, status, expires_at FROM search.request_statuses
        WHERE requestor_id = $1 AND ($2::text[] IS NULL OR record_id = ANY($2)) AND status <> 'closed'
        ORDER BY record_id, created_at DESC${limit === undefined ? '' : ` LIMIT ${limit}`}`,
      [viewerId, recordIds],
    );
  }
}

function toRequests(rows: OpenRequestRow[]): Map<string, OpenRequest> {
  return new Map(rows.map((row) => [row.record_id, { status: row.status, expiresAt: row.expires_at }]));
}
