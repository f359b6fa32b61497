import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import { Account } from './account';
import { userRegisteredEvent, userUpdatedEvent } from './account-events';
import { passwordChange, updateUser, usernameOrEmailTaken } from './account-store';
import { UserEntity } from './user.entity';

export type AccountChanges = Partial<Pick<Account, 'username' | 'email' | 'firstName' | 'lastName' | 'groups' | 'clientType' | 'active'>>;

/** The accounts of one organisation; every call is scoped by the organisation id. */
@Injectable()
export class AccountsRepository {
  constructor(private readonly db: ServiceDatabase) {}

  async list(organisationId: string, offset: number, limit: number): Promise<{ count: number; accounts: Account[] }> {
    const [accounts, count] = await this.db.dataSource
      .getRepository(UserEntity)
      .findAndCount({ where: { organisationId }, order: { dateJoined: 'ASC', username: 'ASC' }, skip: offset, take: limit });
    return { count, accounts };
  }

  find(organisationId: string, id: string): Promise<Account | null> {
    return this.db.dataSource.getRepository(UserEntity).findOneBy({ id, organisationId });
  }

  usernameOrEmailTaken(username: string | undefined, email: string | undefined, exceptUserId?: string) {
    return usernameOrEmailTaken(this.db.dataSource, username, email, exceptUserId);
  }

  /** user.registered, then user.updated: the account is active from the start. */
  async create(account: Omit<Account, 'dateJoined'>): Promise<Account> {
    return this.db.transaction(async (tx) => {
      await tx.manager.insert(UserEntity, account);
      const created = await tx.manager.findOneByOrFail(UserEntity, { id: account.id });
      await tx.publish(userRegisteredEvent(created), userUpdatedEvent(created));
      return created;
    });
  }

  async update(organisationId: string, id: string, changes: AccountChanges): Promise<Account | null> {
    return this.db.transaction(async (tx) => {
      if (!(await tx.manager.existsBy(UserEntity, { id, organisationId }))) return null;
      return updateUser(tx, id, changes);
    });
  }

  async setPassword(organisationId: string, id: string, passwordHash: string): Promise<Account | null> {
    return this.db.transaction(async (tx) => {
      if (!(await tx.manager.existsBy(UserEntity, { id, organisationId }))) return null;
      return updateUser(tx, id, passwordChange(passwordHash));
    });
  }

  /** Deletes the account (its tokens and API key go with it) and says so with user.updated. */
  async delete(organisationId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const account = await tx.manager.findOneBy(UserEntity, { id, organisationId });
      if (!account) return false;
      await tx.manager.delete(UserEntity, { id });
      await tx.publish(userUpdatedEvent(account, { deleted: true }));
      return true;
    });
  }
}
