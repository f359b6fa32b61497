import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditContent, AuditEntry, chainedFields, chainEntry, ChainBreak, firstBreak } from './audit-chain';

interface AuditRow {
  seq: string;
  id: string;
  request_id: string;
  record_id: string;
  actor_id: string;
  action: AuditEntry['action'];
  details: AuditEntry['details'];
  occurred_at: Date;
  prev_hash: string;
  hash: string;
}

const toEntry = (row: AuditRow): AuditEntry => ({
  seq: Number(row.seq),
  id: row.id,
  requestId: row.request_id,
  recordId: row.record_id,
  actorId: row.actor_id,
  action: row.action,
  details: row.details,
  occurredAt: row.occurred_at,
  prevHash: row.prev_hash,
  hash: row.hash,
});

/** Entries checked per query while verifying. */
const VERIFY_BATCH = 1_000;

/** The audit trail's I/O: append (in the caller's transaction), read a record's trail, verify the chain. */
@Injectable()
export class AuditRepository {
  /**
   * Appends an entry after the current last one. A transaction lock serialises appenders, so the
   * chain stays one line; it is held until the caller's transaction ends.
   */
  async append(manager: EntityManager, content: AuditContent): Promise<AuditEntry> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('requests.audit_log', 0))`);
    const rows: Array<{ seq: string; hash: string }> = await manager.query('SELECT seq, hash FROM requests.audit_log ORDER BY seq DESC LIMIT 1');
    const entry = chainEntry(content, rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : null);
    await manager.query(
      `INSERT INTO requests.audit_log (seq, id, request_id, record_id, actor_id, action, details, occurred_at, prev_hash, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10)`,
      [...chainedFields({ ...entry, details: JSON.stringify(entry.details) }), entry.hash],
    );
    return entry;
  }

  async ofRecord(manager: EntityManager, recordId: string, page: { offset: number; limit: number }): Promise<{ count: number; entries: AuditEntry[] }> {
    const [{ count }]: Array<{ count: number }> = await manager.query('SELECT count(*)::int AS count FROM requests.audit_log WHERE record_id = $1', [recordId]);
    const rows: AuditRow[] = await manager.query('SELECT * FROM requests.audit_log WHERE record_id = $1 ORDER BY seq LIMIT $2 OFFSET $3', [
      recordId,
      page.limit,
      page.offset,
    ]);
    return { count, entries: rows.map(toEntry) };
  }

  /** Recomputes the whole chain in order, a batch at a time; the first broken entry, or null, and how many were checked. */
  async verify(manager: EntityManager): Promise<{ checked: number; broken: ChainBreak | null }> {
    let previous: AuditEntry | null = null;
    let checked = 0;
    for (;;) {
      const rows: AuditRow[] = await manager.query('SELECT * FROM requests.audit_log WHERE seq > $1 ORDER BY seq LIMIT $2', [previous?.seq ?? 0, VERIFY_BATCH]);
      if (rows.length === 0) return { checked, broken: null };
      const entries = rows.map(toEntry);
      const broken = firstBreak(entries, previous);
      if (broken) return { checked: checked + entries.findIndex((e) => e.seq === broken.seq), broken };
      checked += entries.length;
      previous = entries[entries.length - 1];
    }
  }
}
