import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';
import { updateReturning, updateUser } from '../accounts/account-store';

@Injectable()
export class ActivationRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /** Uses the token (once, before it expires) and activates its account; false if it cannot. */
  async activate(tokenHash: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const used = await updateReturning<{ user_id: string }>(
        tx.manager,
        `UPDATE identity.one_time_tokens SET used_at = now()
          WHERE token_hash = $1 AND purpose = 'activation' AND used_at IS NULL AND expires_at > now()
          RETURNING user_id`,
        [tokenHash],
      );
      if (used.length === 0) return false;
      const user = await updateUser(tx, used[0].user_id, { active: true, activatedAt: () => 'now()' });
      return user !== null;
    });
  }
}
