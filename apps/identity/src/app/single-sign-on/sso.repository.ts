import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import { Account } from '../accounts/account';
import { userRegisteredEvent, userUpdatedEvent } from '../accounts/account-events';
import { usernameOrEmailTaken } from '../accounts/account-store';
import { UserEntity } from '../accounts/user.entity';
import type { SsoAttempt, SsoProvider } from './sso';

interface ProviderRow {
  id: string;
  organisation_id: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret_encrypted: string;
  allowed_domains: string[];
  client_type: SsoProvider['clientType'];
  updated_at: Date;
}

const toProvider = (row: ProviderRow): SsoProvider => ({
  id: row.id,
  organisationId: row.organisation_id,
  name: row.name,
  issuer: row.issuer,
  clientId: row.client_id,
  clientSecretSealed: row.client_secret_encrypted,
  allowedDomains: row.allowed_domains,
  clientType: row.client_type,
  updatedAt: row.updated_at,
});

/** Every SQL statement of single sign-on: providers, linked identities, sign-ins under way and their results. */
@Injectable()
export class SsoRepository {
  constructor(private readonly db: ServiceDatabase) {}

  async providerOf(organisationId: string): Promise<SsoProvider | null> {
    const rows: ProviderRow[] = await this.db.dataSource.query('SELECT * FROM identity.sso_providers WHERE organisation_id = $1', [organisationId]);
    return rows[0] ? toProvider(rows[0]) : null;
  }

  async provider(id: string): Promise<SsoProvider | null> {
    const rows: ProviderRow[] = await this.db.dataSource.query('SELECT * FROM identity.sso_providers WHERE id = $1', [id]);
    return rows[0] ? toProvider(rows[0]) : null;
  }

  /** The providers the login screen offers, by name. */
  async providers(): Promise<Array<{ id: string; name: string }>> {
    return this.db.dataSource.query('SELECT id, name FROM identity.sso_providers ORDER BY lower(name), id');
  }

  /** One provider per organisation: inserts or replaces the organisation's. */
  async saveProvider(provider: Omit<SsoProvider, 'updatedAt'>): Promise<SsoProvider> {
    const rows: ProviderRow[] = await this.db.dataSource.query(
      `INSERT INTO identity.sso_providers (id, organisation_id, name, issuer, client_id, client_secret_encrypted, allowed_domains, client_type, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
       ON CONFLICT (organisation_id) DO UPDATE SET name = $3, issuer = $4, client_id = $5, client_secret_encrypted = $6,
         allowed_domains = $7, client_type = $8, updated_at = now()
       RETURNING *`,
      [
        provider.id,
        provider.organisationId,
        provider.name,
        provider.issuer,
        provider.clientId,
        provider.clientSecretSealed,
        provider.allowedDomains,
        provider.clientType,
      ],
    );
    return toProvider(rows[0]);
  }

  async deleteProvider(organisationId: string): Promise<boolean> {
    const [, count] = (await this.db.dataSource.query('DELETE FROM identity.sso_providers WHERE organisation_id = $1', [organisationId])) as [unknown, number];
    return count > 0;
  }

  async saveAttempt(stateHash: string, attempt: SsoAttempt): Promise<void> {
    await this.db.dataSource.query('DELETE FROM identity.sso_attempts WHERE expires_at < now()');
    await this.db.dataSource.query(
      'INSERT INTO identity.sso_attempts (state_hash, browser_hash, provider_id, code_verifier, nonce, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [stateHash, attempt.browserHash, attempt.providerId, attempt.codeVerifier, attempt.nonce, attempt.expiresAt],
    );
  }

  /** Takes the attempt out (it is usable once), or null when there is none or it has expired. */
  async takeAttempt(stateHash: string): Promise<SsoAttempt | null> {
    const [rows] = (await this.db.dataSource.query(
      `DELETE FROM identity.sso_attempts WHERE state_hash = $1
       RETURNING browser_hash, provider_id, code_verifier, nonce, expires_at`,
      [stateHash],
    )) as [Array<{ browser_hash: string; provider_id: string; code_verifier: string; nonce: string; expires_at: Date }>, number];
    const row = rows[0];
    if (!row || row.expires_at.getTime() < Date.now()) return null;
    return { browserHash: row.browser_hash, providerId: row.provider_id, codeVerifier: row.code_verifier, nonce: row.nonce, expiresAt: row.expires_at };
  }

  async saveResult(codeHash: string, result: { userId: string } | { error: string }, expiresAt: Date): Promise<void> {
    await this.db.dataSource.query('DELETE FROM identity.sso_results WHERE expires_at < now()');
    await this.db.dataSource.query('INSERT INTO identity.sso_results (code_hash, user_id, error, expires_at) VALUES ($1, $2, $3, $4)', [
      codeHash,
      'userId' in result ? result.userId : null,
      'error' in result ? result.error : null,
      expiresAt,
    ]);
  }

  /** Takes the result out (one exchange only), or null. */
  async takeResult(codeHash: string): Promise<{ userId: string | null; error: string | null } | null> {
    const [rows] = (await this.db.dataSource.query('DELETE FROM identity.sso_results WHERE code_hash = $1 AND expires_at >= now() RETURNING user_id, error', [
      codeHash,
    ])) as [Array<{ user_id: string | null; error: string | null }>, number];
    return rows[0] ? { userId: rows[0].user_id, error: rows[0].error } : null;
  }

  /** The account linked to the provider identity (issuer + subject), if any. */
  async linkedAccount(issuer: string, subject: string): Promise<Account | null> {
    const rows: Array<{ user_id: string }> = await this.db.dataSource.query('SELECT user_id FROM identity.sso_identities WHERE issuer = $1 AND subject = $2', [
      issuer,
      subject,
    ]);
    return rows[0] ? this.db.dataSource.getRepository(UserEntity).findOneBy({ id: rows[0].user_id }) : null;
  }

  account(id: string): Promise<Account | null> {
    return this.db.dataSource.getRepository(UserEntity).findOneBy({ id });
  }

  usernameOrEmailTaken(username: string | undefined, email: string | undefined) {
    return usernameOrEmailTaken(this.db.dataSource, username, email);
  }

  /**
   * Just-in-time provisioning: the account and its link to the provider identity in one transaction,
   * with user.registered and user.updated like an account an Access Admin creates. Null when the
   * username or email was taken meanwhile, or the identity was linked meanwhile.
   */
  async createLinkedAccount(account: Omit<Account, 'dateJoined'>, identity: { issuer: string; subject: string }): Promise<Account | null> {
    try {
      return await this.db.transaction(async (tx) => {
        const taken = await usernameOrEmailTaken(tx.manager, account.username, account.email);
        if (taken.username || taken.email) return null;
        await tx.manager.insert(UserEntity, account);
        await tx.manager.query('INSERT INTO identity.sso_identities (issuer, subject, user_id) VALUES ($1, $2, $3)', [
          identity.issuer,
          identity.subject,
          account.id,
        ]);
        const created = await tx.manager.findOneByOrFail(UserEntity, { id: account.id });
        await tx.publish(userRegisteredEvent(created), userUpdatedEvent(created));
        return created;
      });
    } catch (error) {
      // Two first sign-ins of the same person at once: the second finds the identity linked.
      if ((error as { code?: string }).code === '23505') return null;
      throw error;
    }
  }
}
