import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import { Account, Organisation } from '../accounts/account';
import { passwordChange, updateUser } from '../accounts/account-store';
import { OrganisationEntity } from '../accounts/organisation.entity';
import { UserEntity } from '../accounts/user.entity';

@Injectable()
export class ProfileRepository {
  constructor(private readonly db: ServiceDatabase) {}

  findAccount(id: string): Promise<Account | null> {
    return this.db.dataSource.getRepository(UserEntity).findOneBy({ id });
  }

  findOrganisation(id: string): Promise<Organisation | null> {
    return this.db.dataSource.getRepository(OrganisationEntity).findOneBy({ id });
  }

  updateNames(id: string, firstName: string, lastName: string): Promise<Account | null> {
    return this.db.transaction((tx) => updateUser(tx, id, { firstName, lastName }));
  }

  /** Only if the password is still the one checked (a concurrent change wins, this one fails). */
  async changePassword(id: string, expectedVersion: number, passwordHash: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const current = await tx.manager.findOne(UserEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!current || current.passwordVersion !== expectedVersion) return false;
      return (await updateUser(tx, id, passwordChange(passwordHash))) !== null;
    });
  }
}
