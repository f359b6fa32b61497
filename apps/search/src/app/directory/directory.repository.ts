import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

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

@Injectable()
export class DirectoryRepository {
  async upsertOrganisation(manager: EntityManager, organisation: DirectoryOrganisation): Promise<void> {
    await manager.query(
      `INSERT INTO search.organisations (id, name, description, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, updated_at = now()`,
      [organisation.id, organisation.name, organisation.description],
    );
  }

  async upsertUser(manager: EntityManager, user: DirectoryUser): Promise<void> {
    await manager.query(
      `INSERT INTO search.users (id, username, organisation_id, client_type, active, updated_at) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (id) DO UPDATE SET username = excluded.username, organisation_id = excluded.organisation_id,
         client_type = excluded.client_type, active = excluded.active, updated_at = now()`,
      [user.id, user.username, user.organisationId, user.clientType, user.active],
    );
  }
}
