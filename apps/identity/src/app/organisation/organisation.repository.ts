import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import { Organisation } from '../accounts/account';
import { organisationUpdatedEvent } from '../accounts/account-events';
import { OrganisationEntity } from '../accounts/organisation.entity';

@Injectable()
export class OrganisationRepository {
  constructor(private readonly db: ServiceDatabase) {}

  find(id: string): Promise<Organisation | null> {
    return this.db.dataSource.getRepository(OrganisationEntity).findOneBy({ id });
  }

  async memberIds(id: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.dataSource.query(
      'SELECT id FROM identity.users WHERE organisation_id = $1 ORDER BY date_joined, username',
      [id],
    );
    return rows.map((row) => row.id);
  }

  /** Saves the changes and records organisation.updated with the new state. */
  async update(id: string, changes: Partial<Omit<Organisation, 'id'>>): Promise<Organisation | null> {
    return this.db.transaction(async (tx) => {
      const result = await tx.manager.update(OrganisationEntity, { id }, changes);
      if (!result.affected) return null;
      const organisation = await tx.manager.findOneByOrFail(OrganisationEntity, { id });
      await tx.publish(organisationUpdatedEvent(organisation));
      return organisation;
    });
  }
}
