import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ClientType } from '@dc/platform';
import { UnitOfWork } from '../unit-of-work/unit-of-work';

export interface DirectoryUser {
  id: string;
  username: string;
  organisationId: string;
  clientType: ClientType;
  active: boolean;
  deleted: boolean;
  /** Undefined keeps what is known (events may omit them). */
  groups?: number[];
}

export interface DirectoryOrganisation {
  id: string;
  name: string;
  description: string;
}

export interface NamedId {
  id: string;
  name: string;
}

/**
 * The catalogue's copy of identity's users and organisations (names, client types). event_at is the
 * applied event's time: an older event arriving after a newer one is ignored (as search does).
 * updated_at is when the catalogue learnt the state (download links compare it with their issue time).
 */
@Injectable()
export class DirectoryRepository {
  constructor(private readonly work: UnitOfWork) {}

  private get manager(): EntityManager {
    return this.work.manager;
  }

  /** Applies the organisation unless a newer event was applied already (then false). */
  async upsertOrganisation(organisation: DirectoryOrganisation, occurredAt: string): Promise<boolean> {
    const applied: unknown[] = await this.manager.query(
      `INSERT INTO catalogue.organisations (id, name, description, updated_at, event_at) VALUES ($1, $2, $3, now(), $4)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, updated_at = now(), event_at = excluded.event_at
       WHERE catalogue.organisations.event_at IS NULL OR catalogue.organisations.event_at <= excluded.event_at
       RETURNING id`,
      [organisation.id, organisation.name, organisation.description, occurredAt],
    );
    return applied.length === 1;
  }

  /** Applies the user unless a newer event was applied already (then false). */
  async upsertUser(user: DirectoryUser, occurredAt: string): Promise<boolean> {
    const applied: unknown[] = await this.manager.query(
      `INSERT INTO catalogue.users (id, username, organisation_id, client_type, active, deleted, groups, updated_at, event_at)
       VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7::int[], '{}'), now(), $8)
       ON CONFLICT (id) DO UPDATE SET username = excluded.username, organisation_id = excluded.organisation_id,
         client_type = excluded.client_type, active = excluded.active, deleted = excluded.deleted,
         groups = COALESCE($7::int[], catalogue.users.groups), updated_at = now(), event_at = excluded.event_at
       WHERE catalogue.users.event_at IS NULL OR catalogue.users.event_at <= excluded.event_at
       RETURNING id`,
      [user.id, user.username, user.organisationId, user.clientType, user.active, user.deleted, user.groups ?? null, occurredAt],
    );
    return applied.length === 1;
  }

  /**
   * Records the caller as the signed token describes them when no event has told us of them yet
   * (the projection can lag behind a fresh registration); identity's events overwrite it.
   */
  async rememberCaller(user: { id: string; username: string; organisationId: string; clientType: ClientType; groups: number[] }): Promise<void> {
    await this.manager.query(
      `INSERT INTO catalogue.users (id, username, organisation_id, client_type, active, groups) VALUES ($1, $2, $3, $4, true, $5)
       ON CONFLICT (id) DO NOTHING`,
      [user.id, user.username, user.organisationId, user.clientType, user.groups],
    );
  }

  /** A user as identity last told of them, with when the catalogue learnt it; null when unknown. */
  async user(id: string): Promise<(Required<DirectoryUser> & { updatedAt: Date }) | null> {
    const rows: Array<{
      id: string;
      username: string;
      organisation_id: string;
      client_type: ClientType;
      active: boolean;
      deleted: boolean;
      groups: number[];
      updated_at: Date;
    }> = await this.manager.query('SELECT id, username, organisation_id, client_type, active, deleted, groups, updated_at FROM catalogue.users WHERE id = $1', [
      id,
    ]);
    const row = rows[0];
    return row
      ? {
          id: row.id,
          username: row.username,
          organisationId: row.organisation_id,
          clientType: row.client_type,
          active: row.active,
          deleted: row.deleted,
          groups: row.groups,
          updatedAt: row.updated_at,
        }
      : null;
  }

  async clientTypeOf(userId: string): Promise<ClientType | null> {
    const rows: Array<{ client_type: ClientType }> = await this.manager.query('SELECT client_type FROM catalogue.users WHERE id = $1', [userId]);
    return rows[0]?.client_type ?? null;
  }

  /** The known, undeleted users among the ids, with their usernames as names. */
  async users(ids: string[]): Promise<NamedId[]> {
    if (ids.length === 0) return [];
    return this.manager.query('SELECT id, username AS name FROM catalogue.users WHERE id = ANY($1) AND NOT deleted ORDER BY username', [ids]);
  }

  async organisations(ids: string[]): Promise<NamedId[]> {
    if (ids.length === 0) return [];
    return this.manager.query('SELECT id, name FROM catalogue.organisations WHERE id = ANY($1) ORDER BY name', [ids]);
  }
}
