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
}
