import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import { Account, Organisation } from '../accounts/account';
import { organisationUpdatedEvent, userRegisteredEvent } from '../accounts/account-events';
import { usernameOrEmailTaken } from '../accounts/account-store';
import { OrganisationEntity } from '../accounts/organisation.entity';
import { UserEntity } from '../accounts/user.entity';

export interface NewAccount {
  user: Omit<Account, 'dateJoined'>;
  organisation: Organisation;
  /** Hash of the emailed activation token. */
  activation: { tokenHash: string; expiresAt: Date };
}

@Injectable()
export class RegistrationRepository {
  constructor(private readonly db: ServiceDatabase) {}

  usernameOrEmailTaken(username: string, email: string): Promise<{ username: boolean; email: boolean }> {
    return usernameOrEmailTaken(this.db.dataSource, username, email);
  }

  /** The account an email address belongs to, whatever its case. */
  accountWithEmail(email: string): Promise<Pick<Account, 'email' | 'firstName' | 'username' | 'active' | 'activatedAt'> | null> {
    return this.db.dataSource.getRepository(UserEntity).createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  /** Organisation, user, activation token and their events in one transaction. */
  async create(account: NewAccount): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.manager.insert(OrganisationEntity, account.organisation);
      await tx.manager.insert(UserEntity, account.user);
      await tx.manager.query(`INSERT INTO identity.one_time_tokens (token_hash, purpose, user_id, expires_at) VALUES ($1, 'activation', $2, $3)`, [
        account.activation.tokenHash,
        account.user.id,
        account.activation.expiresAt,
      ]);
      const user = await tx.manager.findOneByOrFail(UserEntity, { id: account.user.id });
      await tx.publish(organisationUpdatedEvent(account.organisation), userRegisteredEvent(user));
    });
  }
}
