import type { EntityManager } from 'typeorm';
import type { RequestSnapshot } from '@dc/contracts';

/** The tables in which services keep their own copy of the requests service's requests. */
export type RequestProjectionTable = 'catalogue.request_grants' | 'relations.request_grants' | 'search.request_statuses' | 'jobs.request_grants';

/**
 * Applies a request.created / request.updated snapshot to a service's copy of the requests (one row
 * per request: record, requestor, status, expiry, creation, version), unless a newer version was
 * applied already: redelivered or late events change nothing. Every service that follows grants
 * keeps the same columns, so the same statement serves them all.
 */
export async function applyRequestSnapshot(manager: EntityManager, table: RequestProjectionTable, request: RequestSnapshot): Promise<void> {
  await manager.query(
    `INSERT INTO ${table} (request_id, record_id, requestor_id, status, expires_at, created_at, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (request_id) DO UPDATE SET status = excluded.status, expires_at = excluded.expires_at, version = excluded.version
     WHERE ${table}.version < excluded.version`,
    [request.requestId, request.recordId, request.requestorId, request.status, request.expiresAt, request.createdAt, request.version],
  );
}

/** The table of such a copy, for a service's migration. */
export const requestProjectionTableSql = (table: RequestProjectionTable) => `CREATE TABLE ${table} (
  request_id text PRIMARY KEY,
  record_id text NOT NULL,
  requestor_id text NOT NULL,
  status text NOT NULL,
  expires_at timestamptz NULL,
  created_at timestamptz NOT NULL,
  version int NOT NULL
)`;
