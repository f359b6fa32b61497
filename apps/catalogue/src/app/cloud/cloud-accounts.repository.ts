import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import type { CloudAccount } from './cloud-account';

interface AccountRow {
  id: string;
  owner_id: string;
  organisation_id: string;
  access_key_id: string;
  sealed_secret: string;
  endpoint: string;
  region: string;
  created_at: Date;
}

const toAccount = (row: AccountRow): CloudAccount => ({
  id: row.id,
  ownerId: row.owner_id,
  organisationId: row.organisation_id,
  accessKeyId: row.access_key_id,
  sealedSecret: row.sealed_secret,
  endpoint: row.endpoint,
  region: row.region,
  createdAt: row.created_at,
});

/** Cloud accounts, always looked up together with their owner: nobody reaches another's. */
@Injectable()
export class CloudAccountsRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /** Saves the account, or replaces the secret and region of the owner's account with the same key id and endpoint. */
  async save(account: CloudAccount, seal: (id: string) => string): Promise<CloudAccount> {
    return this.db.transaction(async ({ manager }) => {
      const existing: AccountRow[] = await manager.query(
        'SELECT * FROM catalogue.cloud_accounts WHERE owner_id = $1 AND access_key_id = $2 AND endpoint = $3 FOR UPDATE',
        [account.ownerId, account.accessKeyId, account.endpoint],
      );
      const id = existing[0]?.id ?? account.id;
      const rows: AccountRow[] = await manager.query(
        `INSERT INTO catalogue.cloud_accounts (id, owner_id, organisation_id, access_key_id, sealed_secret, endpoint, region, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (id) DO UPDATE SET sealed_secret = excluded.sealed_secret, region = excluded.region
         RETURNING *`,
        [id, account.ownerId, account.organisationId, account.accessKeyId, seal(id), account.endpoint, account.region, account.createdAt],
      );
      return toAccount(rows[0]);
    });
  }

  async listOwned(ownerId: string): Promise<CloudAccount[]> {
    const rows: AccountRow[] = await this.db.dataSource.query('SELECT * FROM catalogue.cloud_accounts WHERE owner_id = $1 ORDER BY created_at, id LIMIT 1000', [
      ownerId,
    ]);
    return rows.map(toAccount);
  }

  async findOwned(id: string, ownerId: string): Promise<CloudAccount | null> {
    const rows: AccountRow[] = await this.db.dataSource.query('SELECT * FROM catalogue.cloud_accounts WHERE id = $1 AND owner_id = $2', [id, ownerId]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async deleteOwned(id: string, ownerId: string): Promise<boolean> {
    const [, affected]: [unknown[], number] = await this.db.dataSource.query('DELETE FROM catalogue.cloud_accounts WHERE id = $1 AND owner_id = $2', [
      id,
      ownerId,
    ]);
    return affected > 0;
  }
}
