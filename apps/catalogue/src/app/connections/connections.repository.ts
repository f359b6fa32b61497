import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import type { Connection } from './connection';

interface ConnectionRow {
  id: string;
  owner_id: string;
  organisation_id: string;
  name: string;
  sqltype: Connection['sqltype'];
  host: string;
  port: number;
  username: string;
  sealed_password: string;
  created_at: Date;
}

const toConnection = (row: ConnectionRow): Connection => ({
  id: row.id,
  ownerId: row.owner_id,
  organisationId: row.organisation_id,
  name: row.name,
  sqltype: row.sqltype,
  host: row.host,
  port: row.port,
  username: row.username,
  sealedPassword: row.sealed_password,
  createdAt: row.created_at,
});

/** Connections, always looked up together with their owner: nobody reaches another's. */
@Injectable()
export class ConnectionsRepository {
  constructor(private readonly db: ServiceDatabase) {}

  async insert(connection: Connection): Promise<void> {
    await this.db.dataSource.query(
      `INSERT INTO catalogue.connections (id, owner_id, organisation_id, name, sqltype, host, port, username, sealed_password, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        connection.id,
        connection.ownerId,
        connection.organisationId,
        connection.name,
        connection.sqltype,
        connection.host,
        connection.port,
        connection.username,
        connection.sealedPassword,
        connection.createdAt,
      ],
    );
  }

  async listOwned(ownerId: string, page: { offset: number; limit: number }): Promise<{ count: number; connections: Connection[] }> {
    const [{ count }]: Array<{ count: string }> = await this.db.dataSource.query('SELECT count(*) FROM catalogue.connections WHERE owner_id = $1', [ownerId]);
    const rows: ConnectionRow[] = await this.db.dataSource.query(
      'SELECT * FROM catalogue.connections WHERE owner_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3',
      [ownerId, page.limit, page.offset],
    );
    return { count: Number(count), connections: rows.map(toConnection) };
  }

  async findOwned(id: string, ownerId: string): Promise<Connection | null> {
    const rows: ConnectionRow[] = await this.db.dataSource.query('SELECT * FROM catalogue.connections WHERE id = $1 AND owner_id = $2', [id, ownerId]);
    return rows[0] ? toConnection(rows[0]) : null;
  }

  /** True when it was there (and the caller's). */
  async deleteOwned(id: string, ownerId: string): Promise<boolean> {
    const [, affected]: [unknown[], number] = await this.db.dataSource.query('DELETE FROM catalogue.connections WHERE id = $1 AND owner_id = $2', [
      id,
      ownerId,
    ]);
    return affected > 0;
  }
}
