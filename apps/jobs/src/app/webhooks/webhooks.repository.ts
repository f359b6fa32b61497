import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ServiceDatabase } from '@dc/platform';
import type { ClaimedDelivery, DeliveryStatus, WebhookDelivery, WebhookEndpoint } from './webhook';

interface EndpointRow {
  id: string;
  organisation_id: string;
  url: string;
  description: string;
  event_types: string[];
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

const ENDPOINT_COLUMNS = 'id, organisation_id, url, description, event_types, active, created_at, updated_at';
const DELIVERY_COLUMNS =
  'id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, last_status_code, last_error, last_attempt_at, delivered_at, created_at';

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  organisationId: row.organisation_id,
  url: row.url,
  description: row.description,
  eventTypes: row.event_types,
  active: row.active,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventType: row.event_type,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  lastAttemptAt: row.last_attempt_at,
  deliveredAt: row.delivered_at,
  createdAt: row.created_at,
});

/** Every SQL statement of webhooks: endpoints, the delivery outbox, the parties of requests and jobs. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: ServiceDatabase) {}

  private get manager(): EntityManager {
    return this.db.dataSource.manager;
  }

  async insertEndpoint(endpoint: Omit<WebhookEndpoint, 'createdAt' | 'updatedAt'>, secretSealed: string, createdBy: string): Promise<WebhookEndpoint> {
    const rows: EndpointRow[] = await this.manager.query(
      `INSERT INTO jobs.webhook_endpoints (id, organisation_id, url, description, event_types, active, secret_sealed, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${ENDPOINT_COLUMNS}`,
      [endpoint.id, endpoint.organisationId, endpoint.url, endpoint.description, endpoint.eventTypes, endpoint.active, secretSealed, createdBy],
    );
    return toEndpoint(rows[0]);
  }

  async endpointsOf(organisationId: string): Promise<WebhookEndpoint[]> {
    const rows: EndpointRow[] = await this.manager.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM jobs.webhook_endpoints WHERE organisation_id = $1 ORDER BY created_at, id`,
      [organisationId],
    );
    return rows.map(toEndpoint);
  }

  async endpoint(id: string, organisationId: string): Promise<WebhookEndpoint | undefined> {
    const rows: EndpointRow[] = await this.manager.query(`SELECT ${ENDPOINT_COLUMNS} FROM jobs.webhook_endpoints WHERE id = $1 AND organisation_id = $2`, [
      id,
      organisationId,
    ]);
    return rows[0] && toEndpoint(rows[0]);
  }

  async updateEndpoint(id: string, changes: Pick<WebhookEndpoint, 'url' | 'description' | 'eventTypes' | 'active'>): Promise<WebhookEndpoint> {
    const [rows]: [EndpointRow[], number] = await this.manager.query(
      `UPDATE jobs.webhook_endpoints SET url = $2, description = $3, event_types = $4, active = $5, updated_at = now()
       WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
      [id, changes.url, changes.description, changes.eventTypes, changes.active],
    );
    return toEndpoint(rows[0]);
  }

  async replaceSecret(id: string, secretSealed: string): Promise<void> {
    await this.manager.query('UPDATE jobs.webhook_endpoints SET secret_sealed = $2, updated_at = now() WHERE id = $1', [id, secretSealed]);
  }

  async deleteEndpoint(id: string): Promise<void> {
    await this.manager.query('DELETE FROM jobs.webhook_endpoints WHERE id = $1', [id]);
  }

  /** The endpoint's deliveries, newest first. */
  async deliveries(endpointId: string, limit: number, offset: number): Promise<{ count: number; items: WebhookDelivery[] }> {
    const [{ count }]: Array<{ count: string }> = await this.manager.query('SELECT count(*) FROM jobs.webhook_deliveries WHERE endpoint_id = $1', [endpointId]);
    const rows: DeliveryRow[] = await this.manager.query(
      `SELECT ${DELIVERY_COLUMNS} FROM jobs.webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [endpointId, limit, offset],
    );
    return { count: Number(count), items: rows.map(toDelivery) };
  }

  async delivery(id: string, endpointId: string): Promise<WebhookDelivery | undefined> {
    const rows: DeliveryRow[] = await this.manager.query(`SELECT ${DELIVERY_COLUMNS} FROM jobs.webhook_deliveries WHERE id = $1 AND endpoint_id = $2`, [
      id,
      endpointId,
    ]);
    return rows[0] && toDelivery(rows[0]);
  }

  /** A dead letter goes back to the queue, with a fresh count of attempts. */
  async resend(id: string): Promise<WebhookDelivery> {
    const [rows]: [DeliveryRow[], number] = await this.manager.query(
      `UPDATE jobs.webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = NULL
       WHERE id = $1 RETURNING ${DELIVERY_COLUMNS}`,
      [id],
    );
    return toDelivery(rows[0]);
  }

  // --- the consumer's side (in the transaction that applies the event) ---

  /** The active endpoints of these organisations that chose this event type. */
  async subscribedEndpoints(manager: EntityManager, organisationIds: string[], eventType: string): Promise<string[]> {
    if (organisationIds.length === 0) return [];
    const rows: Array<{ id: string }> = await manager.query(
      'SELECT id FROM jobs.webhook_endpoints WHERE active AND organisation_id = ANY($1) AND $2 = ANY(event_types)',
      [organisationIds, eventType],
    );
    return rows.map((r) => r.id);
  }

  /** One delivery per endpoint; the same event again adds nothing. */
  async enqueue(manager: EntityManager, endpointIds: string[], event: { id: string; type: string }, body: string): Promise<WebhookDelivery[]> {
    const queued: WebhookDelivery[] = [];
    for (const endpointId of endpointIds) {
      const rows: DeliveryRow[] = await manager.query(
        `INSERT INTO jobs.webhook_deliveries (id, endpoint_id, event_id, event_type, body) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING ${DELIVERY_COLUMNS}`,
        [randomUUID(), endpointId, event.id, event.type, body],
      );
      queued.push(...rows.map(toDelivery));
    }
    return queued;
  }

  async noteParties(manager: EntityManager, subjectId: string, organisationIds: string[]): Promise<void> {
    await manager.query(
      `INSERT INTO jobs.webhook_parties (subject_id, organisation_ids) VALUES ($1, $2)
       ON CONFLICT (subject_id) DO UPDATE SET organisation_ids = EXCLUDED.organisation_ids`,
      [subjectId, organisationIds],
    );
  }

  async parties(manager: EntityManager, subjectId: string): Promise<string[] | undefined> {
    const rows: Array<{ organisation_ids: string[] }> = await manager.query('SELECT organisation_ids FROM jobs.webhook_parties WHERE subject_id = $1', [
      subjectId,
    ]);
    return rows[0]?.organisation_ids;
  }

  // --- the delivery loop's side ---

  /**
   * Claims up to `limit` due deliveries of active endpoints until `leaseMs` from now, counting the
   * attempt. A claim that runs out (its process was killed mid-attempt) makes the delivery due again.
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    // TypeORM answers an UPDATE with [rows, count].
    const [rows]: [Array<{ id: string; event_id: string; body: string; attempts: number; url: string; endpoint_id: string; secret_sealed: string }>, number] =
      await this.manager.query(
        `WITH due AS (
           SELECT d.id FROM jobs.webhook_deliveries d JOIN jobs.webhook_endpoints e ON e.id = d.endpoint_id
           WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until < now()) AND e.active
           ORDER BY d.next_attempt_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED
         )
         UPDATE jobs.webhook_deliveries d SET locked_until = now() + $2 * interval '1 millisecond', attempts = d.attempts + 1,
           last_attempt_at = now()
         FROM due, jobs.webhook_endpoints e
         WHERE d.id = due.id AND e.id = d.endpoint_id
         RETURNING d.id, d.event_id, d.body, d.attempts, e.url, e.id AS endpoint_id, e.secret_sealed`,
        [limit, leaseMs],
      );
    return rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      body: r.body,
      attempts: r.attempts,
      url: r.url,
      endpointId: r.endpoint_id,
      secretSealed: r.secret_sealed,
    }));
  }

  async delivered(id: string, statusCode: number): Promise<void> {
    await this.manager.query(
      `UPDATE jobs.webhook_deliveries SET status = 'delivered', delivered_at = now(), last_status_code = $2, last_error = NULL, locked_until = NULL
       WHERE id = $1`,
      [id, statusCode],
    );
  }

  /** A failed attempt: due again after `retryInMs`, or dead-lettered when retryInMs is null. */
  async failed(id: string, statusCode: number | null, error: string, retryInMs: number | null): Promise<void> {
    if (retryInMs === null) {
      await this.manager.query(
        `UPDATE jobs.webhook_deliveries SET status = 'dead', last_status_code = $2, last_error = $3, locked_until = NULL WHERE id = $1`,
        [id, statusCode, error],
      );
      return;
    }
    await this.manager.query(
      `UPDATE jobs.webhook_deliveries SET last_status_code = $2, last_error = $3, locked_until = NULL,
         next_attempt_at = now() + $4 * interval '1 millisecond'
       WHERE id = $1`,
      [id, statusCode, error, retryInMs],
    );
  }

  /** Removes delivered and dead deliveries older than `days` (the log's retention); answers how many. */
  async pruneFinished(days: number): Promise<number> {
    const [, count]: [unknown[], number] = await this.manager.query(
      `DELETE FROM jobs.webhook_deliveries WHERE status IN ('delivered', 'dead') AND created_at < now() - $1 * interval '1 day'`,
      [days],
    );
    return count;
  }
}
