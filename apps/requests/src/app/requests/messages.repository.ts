import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RequestMessage } from './request';

interface MessageRow {
  id: string;
  request_id: string;
  user_id: string;
  message: string;
  created_at: Date;
}

const toMessage = (row: MessageRow): RequestMessage => ({
  id: row.id,
  requestId: row.request_id,
  userId: row.user_id,
  message: row.message,
  createdAt: row.created_at,
});

/** A request's message thread, on the caller's manager (the request's transaction when writing). */
@Injectable()
export class MessagesRepository {
  async insert(manager: EntityManager, message: RequestMessage): Promise<void> {
    await manager.query('INSERT INTO requests.messages (id, request_id, user_id, message, created_at) VALUES ($1, $2, $3, $4, $5)', [
      message.id,
      message.requestId,
      message.userId,
      message.message,
      message.createdAt,
    ]);
  }

  /** Oldest first, so the newest is last. */
  async thread(manager: EntityManager, requestId: string, page: { offset: number; limit: number }): Promise<{ count: number; messages: RequestMessage[] }> {
    const [{ count }]: Array<{ count: number }> = await manager.query('SELECT count(*)::int AS count FROM requests.messages WHERE request_id = $1', [
      requestId,
    ]);
    const rows: MessageRow[] = await manager.query('SELECT * FROM requests.messages WHERE request_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3', [
      requestId,
      page.limit,
      page.offset,
    ]);
    return { count, messages: rows.map(toMessage) };
  }

  /**
   * Marks the caller's reading of a request's thread up to a message of it (its time), or up to the
   * newest message when none is named; never moves the mark back. The time marked, null when there
   * is nothing to read (or the message is not the request's).
   */
  async markRead(manager: EntityManager, requestId: string, userId: string, messageId: string | null): Promise<Date | null> {
    const rows: Array<{ read_at: Date }> = await manager.query(
      `INSERT INTO requests.message_reads (request_id, user_id, read_at)
         SELECT $1, $2, max(created_at) FROM requests.messages WHERE request_id = $1 AND ($3::uuid IS NULL OR id = $3::uuid) HAVING max(created_at) IS NOT NULL
       ON CONFLICT (request_id, user_id) DO UPDATE SET read_at = GREATEST(requests.message_reads.read_at, EXCLUDED.read_at)
       RETURNING read_at`,
      [requestId, userId, messageId],
    );
    return rows[0]?.read_at ?? null;
  }
}
