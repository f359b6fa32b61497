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

  async findApiKey(token: string): Promise<{ userId: string; secretVerifier: string } | null> {
    const rows: Array<{ user_id: string; secret_verifier: string }> = await this.db.dataSource.query(
      'SELECT user_id, secret_verifier FROM identity.api_keys WHERE token = $1',
      [token],
    );
    return rows[0] ? { userId: rows[0].user_id, secretVerifier: rows[0].secret_verifier } : null;
  }

  /** Replaces what a pair's secret is checked against (an old ciphertext by a digest), if the pair is still that one. */
  async replaceApiSecretVerifier(token: string, previous: string, next: string): Promise<void> {
    await this.db.dataSource.query('UPDATE identity.api_keys SET secret_verifier = $3 WHERE token = $1 AND secret_verifier = $2', [token, previous, next]);
  }
}
