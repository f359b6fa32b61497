import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import { Account } from '../accounts/account';
import { UserEntity } from '../accounts/user.entity';

export interface StoredApiKey {
  token: string;
  secretEncrypted: string;
}

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly db: ServiceDatabase) {}

  findAccount(id: string): Promise<Account | null> {
    return this.db.dataSource.getRepository(UserEntity).findOneBy({ id });
  }

  async find(userId: string): Promise<StoredApiKey | null> {
    const rows: Array<{ token: string; secret_encrypted: string }> = await this.db.dataSource.query('SELECT token, secret_encrypted FROM identity.api_keys WHERE user_id = $1', [userId]);
    return rows[0] ? { token: rows[0].token, secretEncrypted: rows[0].secret_encrypted } : null;
  }

  /** One pair per account: a new one replaces the old. */
  async replace(userId: string, key: StoredApiKey): Promise<void> {
    await this.db.dataSource.query(
      `INSERT INTO identity.api_keys (user_id, token, secret_encrypted) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET token = excluded.token, secret_encrypted = excluded.secret_encrypted, created_at = now()`,
      [userId, key.token, key.secretEncrypted],
    );
  }

  async delete(userId: string): Promise<void> {
    await this.db.dataSource.query('DELETE FROM identity.api_keys WHERE user_id = $1', [userId]);
  }
}
