import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrganisation } from '@dc/platform';
import type { DirectoryNames } from '../projection/record-document';

export interface DirectoryOrganisation {
  id: string;
  name: string;
  description: string;
}

export interface DirectoryUser {
  id: string;
  username: string;
  organisationId: string;
  clientType: string;
  active: boolean;
}

/** Search's copy of identity's organisations and users. `updated_at` is the applied event's time. */
@Injectable()
export class DirectoryRepository {
  /** Applies the organisation unless a newer event was applied already (then false). */
  upsertOrganisation(manager: EntityManager, organisation: DirectoryOrganisation, occurredAt: string): Promise<boolean> {
    return applyOrganisation(manager, 'search.organisations', organisation, occurredAt);
  }

  /** Applies the user unless a newer event was applied already (then false). */
  async upsertUser(manager: EntityManager, user: DirectoryUser, occurredAt: string): Promise<boolean> {
    const applied: unknown[] = await manager.query(
      `INSERT INTO search.users (id, username, organisation_id, client_type, active, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET username = excluded.username, organisation_id = excluded.organisation_id,
         client_type = excluded.client_type, active = excluded.active, updated_at = excluded.updated_at
       WHERE search.users.updated_at <= excluded.updated_at
       RETURNING id`,
      [user.id, user.username, user.organisationId, user.clientType, user.active, occurredAt],
    );
    return applied.length === 1;
  }

  /** The owner's username and the organisation's name, where identity's events have told them. */
  async names(manager: EntityManager, ownerId: string, organisationId: string): Promise<DirectoryNames> {
    const [row]: Array<{ username: string | null; organisation_name: string | null }> = await manager.query(
      `SELECT (SELECT username FROM search.users WHERE id = $1) AS username, (SELECT name FROM search.organisations WHERE id = $2) AS organisation_name`,
      [ownerId, organisationId],
    );
    return {
      ...(row.username !== null ? { username: row.username } : {}),
      ...(row.organisation_name !== null ? { organisationName: row.organisation_name } : {}),
    };
  }
}
