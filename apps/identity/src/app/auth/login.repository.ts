import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import { Account } from '../accounts/account';
import { UserEntity } from '../accounts/user.entity';

@Injectable()
export class LoginRepository {
  constructor(private readonly db: ServiceDatabase) {}

  findByUsername(username: string): Promise<Account | null> {
    return this.db.dataSource.getRepository(UserEntity).createQueryBuilder('u').where('lower(u.username) = lower(:username)', { username }).getOne();
  }

  findById(id: string): Promise<Account | null> {
    return this.db.dataSource.getRepository(UserEntity).findOneBy({ id });
  }

  async findApiKey(token: string): Promise<{ userId: string; secretEncrypted: string } | null> {
    const rows: Array<{ user_id: string; secret_encrypted: string }> = await this.db.dataSource.query('SELECT user_id, secret_encrypted FROM identity.api_keys WHERE token = $1', [token]);
    return rows[0] ? { userId: rows[0].user_id, secretEncrypted: rows[0].secret_encrypted } : null;
  }
}
