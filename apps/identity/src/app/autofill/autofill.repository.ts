import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';

export interface AutofillUser {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
}

/** `filter` is a lowercase substring; empty means everything. */
@Injectable()
export class AutofillRepository {
  constructor(private readonly db: ServiceDatabase) {}

  async activeUsers(filter: string): Promise<AutofillUser[]> {
    const rows: Array<{ id: string; username: string; first_name: string; last_name: string }> = await this.db.dataSource.query(
      `SELECT id, username, first_name, last_name FROM identity.users
        WHERE active AND ($1 = '' OR strpos(lower(first_name || ' ' || last_name || ' (' || username || ')'), $1) > 0)
        ORDER BY lower(first_name), lower(last_name), lower(username)`,
      [filter],
    );
    return rows.map((row) => ({ id: row.id, username: row.username, firstName: row.first_name, lastName: row.last_name }));
  }

  /** Organisations with at least one active member (a never-activated sign-up is not offered). */
  async organisations(filter: string): Promise<Array<{ id: string; name: string }>> {
    return this.db.dataSource.query(
      `SELECT o.id, o.name FROM identity.organisations o
        WHERE EXISTS (SELECT 1 FROM identity.users u WHERE u.organisation_id = o.id AND u.active)
          AND ($1 = '' OR strpos(lower(o.name), $1) > 0)
        ORDER BY lower(o.name), o.id`,
      [filter],
    );
  }
}
