import { Inject, Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RequestCreated, type RequestSnapshot, RequestUpdated } from '@dc/contracts';
import { ServiceEvents } from './service-database';

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

/**
 * Subscribes a service's copy of the requests to request.created and request.updated (both carry
 * the request's snapshot): `apply` keeps each one, in the transaction that applies the event.
 */
export function followRequests(events: ServiceEvents, apply: (manager: EntityManager, request: RequestSnapshot) => Promise<void>): void {
  events.on([RequestCreated.type, RequestUpdated.type], (event, manager) => apply(manager, RequestUpdated.payload.parse(event.payload)));
}

/** A service's copy of the requests: what keeps each snapshot (applyRequestSnapshot, usually). */
export interface RequestProjection {
  apply(manager: EntityManager, request: RequestSnapshot): Promise<void>;
}

/**
 * The consumer that keeps a service's copy of the requests (its `projection` provider) following
 * request.* from module init; a service's consumer extends it, e.g.
 * `class RequestGrantsConsumer extends RequestProjectionConsumer(RequestGrantsRepository) {}`.
 */
export function RequestProjectionConsumer(projection: Type<RequestProjection>): Type<OnModuleInit> {
  @Injectable()
  class FollowingRequests implements OnModuleInit {
    constructor(
      @Inject(ServiceEvents) private readonly events: ServiceEvents,
      @Inject(projection) private readonly copy: RequestProjection,
    ) {}

    onModuleInit(): void {
      followRequests(this.events, (manager, request) => this.copy.apply(manager, request));
    }
  }
  return FollowingRequests;
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
