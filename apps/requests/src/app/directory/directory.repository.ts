import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrganisation } from '@dc/platform';

export interface Person {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  organisationId: string;
  groups: number[];
  active: boolean;
  deleted: boolean;
}

export interface Organisation {
  id: string;
  name: string;
  description: string;
}

interface PersonRow {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  organisation_id: string;
  groups: number[];
  active: boolean;
  deleted: boolean;
}

const toPerson = (row: PersonRow): Person => ({
  id: row.id,
  username: row.username,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  organisationId: row.organisation_id,
  groups: row.groups,
  active: row.active,
  deleted: row.deleted,
});

/**
 * The requests service's copy of identity's users and organisations: names for views, addresses for
 * mail. `updated_at` is the applied event's time: an older event arriving late changes nothing.
 */
@Injectable()
export class DirectoryRepository {
  /** Applies the organisation unless a newer event was applied already (then false). */
  upsertOrganisation(manager: EntityManager, organisation: Organisation, occurredAt: string): Promise<boolean> {
    return applyOrganisation(manager, 'requests.organisations', organisation, occurredAt);
  }

  /** Applies the user unless a newer event was applied already (then false); fields an event leaves out (undefined) keep what is known. */
  async upsertUser(
    manager: EntityManager,
    user: Pick<Person, 'id' | 'username' | 'organisationId' | 'active' | 'deleted'> & Partial<Pick<Person, 'firstName' | 'lastName' | 'email' | 'groups'>>,
    occurredAt: string,
  ): Promise<boolean> {
    const applied: unknown[] = await manager.query(
      `INSERT INTO requests.users (id, username, first_name, last_name, email, organisation_id, groups, active, deleted, updated_at)
       VALUES ($1, $2, COALESCE($3, ''), COALESCE($4, ''), COALESCE($5, ''), $6, COALESCE($7::int[], '{}'), $8, $9, $10)
       ON CONFLICT (id) DO UPDATE SET username = excluded.username, organisation_id = excluded.organisation_id,
         first_name = COALESCE($3, requests.users.first_name), last_name = COALESCE($4, requests.users.last_name),
         email = COALESCE($5, requests.users.email), groups = COALESCE($7::int[], requests.users.groups),
         active = excluded.active, deleted = excluded.deleted, updated_at = excluded.updated_at
       WHERE requests.users.updated_at <= excluded.updated_at
       RETURNING id`,
      [
        user.id,
        user.username,
        user.firstName ?? null,
        user.lastName ?? null,
        user.email ?? null,
        user.organisationId,
        user.groups ?? null,
        user.active,
        user.deleted,
        occurredAt,
      ],
    );
    return applied.length === 1;
  }

  /** The caller as the token describes them, when no event has told us of them yet (identity's events overwrite it: updated_at stays -infinity). */
  async rememberCaller(manager: EntityManager, user: { id: string; username: string; organisationId: string; groups: number[] }): Promise<void> {
    await manager.query(`INSERT INTO requests.users (id, username, organisation_id, groups) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`, [
      user.id,
      user.username,
      user.organisationId,
      user.groups,
    ]);
  }

  async person(manager: EntityManager, id: string): Promise<Person | null> {
    const rows: PersonRow[] = await manager.query('SELECT * FROM requests.users WHERE id = $1', [id]);
    return rows[0] ? toPerson(rows[0]) : null;
  }

  async usernames(manager: EntityManager, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: string; username: string }> = await manager.query('SELECT id, username FROM requests.users WHERE id = ANY($1)', [
      [...new Set(ids)],
    ]);
    return new Map(rows.map((row) => [row.id, row.username]));
  }

  async organisation(manager: EntityManager, id: string): Promise<Organisation | null> {
    const rows: Organisation[] = await manager.query('SELECT id, name, description FROM requests.organisations WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  async organisations(manager: EntityManager, ids: string[]): Promise<Map<string, Organisation>> {
    if (ids.length === 0) return new Map();
    const rows: Organisation[] = await manager.query('SELECT id, name, description FROM requests.organisations WHERE id = ANY($1)', [[...new Set(ids)]]);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The active members of an organisation holding a group (Data Admins reviewing its requests). */
  async membersInGroup(manager: EntityManager, organisationId: string, group: number): Promise<Person[]> {
    const rows: PersonRow[] = await manager.query(
      'SELECT * FROM requests.users WHERE organisation_id = $1 AND $2 = ANY(groups) AND active AND NOT deleted ORDER BY username',
      [organisationId, group],
    );
    return rows.map(toPerson);
  }
}
