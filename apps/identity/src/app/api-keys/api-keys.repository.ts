import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import { Account } from '../accounts/account';
import { UserEntity } from '../accounts/user.entity';

export interface StoredApiKey {
  token: string;
  /** A digest of the secret (`s1.`), or its AES-GCM ciphertext for pairs made before (`v1.`). */
  secretVerifier: string;
}

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly db: ServiceDatabase) {}

  findAccount(id: string): Promise<Account | null> {
    return this.db.dataSource.getRepository(UserEntity).findOneBy({ id });
  }

  async find(userId: string): Promise<(StoredApiKey & { createdAt: Date }) | null> {
    const rows: Array<{ token: string; secret_verifier: string; created_at: Date }> = await this.db.dataSource.query(
      'SELECT token, secret_verifier, created_at FROM identity.api_keys WHERE user_id = $1',
      [userId],
    );
    return rows[0] ? { token: rows[0].token, secretVerifier: rows[0].secret_verifier, createdAt: rows[0].created_at } : null;
  }

  /** One pair per account: a new one replaces the old. Answers when it was made. */
  async replace(userId: string, key: StoredApiKey): Promise<Date> {
    const rows: Array<{ created_at: Date }> = await this.db.dataSource.query(
      `INSERT INTO identity.api_keys (user_id, token, secret_verifier) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET token = excluded.token, secret_verifier = excluded.secret_verifier, created_at = now()
       RETURNING created_at`,
      [userId, key.token, key.secretVerifier],
    );
    return rows[0].created_at;
  }

  async delete(userId: string): Promise<void> {
    await this.db.dataSource.query('DELETE FROM identity.api_keys WHERE user_id = $1', [userId]);
  }
}
