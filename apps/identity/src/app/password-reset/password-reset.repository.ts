import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import { Account } from '../accounts/account';
import { passwordChange, updateReturning, updateUser } from '../accounts/account-store';
import { UserEntity } from '../accounts/user.entity';

@Injectable()
export class PasswordResetRepository {
  constructor(private readonly db: ServiceDatabase) {}

  findByEmail(email: string): Promise<Account | null> {
    return this.db.dataSource.getRepository(UserEntity).createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  /**
   * Stores a new reset token, unless `maxPerWindow` were issued in the window already (so the
   * form cannot be used to flood someone's mailbox). Earlier unused tokens stop working.
   */
  async issue(userId: string, tokenHash: string, expiresAt: Date, limit: { maxPerWindow: number; windowSeconds: number }): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // Serialises concurrent requests for the same account.
      await tx.manager.query('SELECT id FROM identity.users WHERE id = $1 FOR UPDATE', [userId]);
      const recent: Array<{ count: number }> = await tx.manager.query(
        `SELECT count(*)::int AS count FROM identity.one_time_tokens WHERE user_id = $1 AND purpose = 'password_reset' AND created_at > now() - make_interval(secs => $2)`,
        [userId, limit.windowSeconds],
      );
      if ((recent[0]?.count ?? 0) >= limit.maxPerWindow) return false;
      await tx.manager.query(`UPDATE identity.one_time_tokens SET used_at = now() WHERE user_id = $1 AND purpose = 'password_reset' AND used_at IS NULL`, [
        userId,
      ]);
      await tx.manager.query(
        `DELETE FROM identity.one_time_tokens WHERE user_id = $1 AND purpose = 'password_reset' AND expires_at < now() - interval '1 day'`,
        [userId],
      );
      await tx.manager.query(`INSERT INTO identity.one_time_tokens (token_hash, purpose, user_id, expires_at) VALUES ($1, 'password_reset', $2, $3)`, [
        tokenHash,
        userId,
        expiresAt,
      ]);
      return true;
    });
  }

  /** The account a reset token may still be used for (unused, unexpired, with its account's email). */
  async accountForToken(tokenHash: string, email: string): Promise<Account | null> {
    return this.db.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .where(
        `u.id IN (SELECT t.user_id FROM identity.one_time_tokens t WHERE t.token_hash = :tokenHash AND t.purpose = 'password_reset' AND t.used_at IS NULL AND t.expires_at > now()) AND lower(u.email) = lower(:email)`,
        { tokenHash, email },
      )
      .getOne();
  }

  /**
   * Uses the token (once, before it expires, only with its account's email) and sets the new
   * password. An account that never proved its email is activated by it; one that an admin
   * deactivated stays inactive. Null when the token cannot be used.
   */
  async resetPassword(tokenHash: string, email: string, passwordHash: string): Promise<Account | null> {
    return this.db.transaction(async (tx) => {
      const used = await updateReturning<{ user_id: string; activated: boolean }>(
        tx.manager,
        `UPDATE identity.one_time_tokens t SET used_at = now()
           FROM identity.users u
          WHERE t.token_hash = $1 AND t.purpose = 'password_reset' AND t.used_at IS NULL AND t.expires_at > now()
            AND u.id = t.user_id AND lower(u.email) = lower($2)
          RETURNING t.user_id, u.activated_at IS NOT NULL AS activated`,
        [tokenHash, email],
      );
      if (used.length === 0) return null;
      const { user_id: userId, activated } = used[0];
      return updateUser(tx, userId, { ...passwordChange(passwordHash), ...(activated ? {} : { active: true, activatedAt: () => 'now()' }) });
    });
  }
}
