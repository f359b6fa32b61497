import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';

/** How many failures a subject has in a window, and how long ago the last and first were. */
export interface FailureCount {
  count: number;
  secondsSinceLast: number;
  secondsSinceFirst: number;
}

/** Failed attempts live in the database, so every identity process sees the same counts. */
@Injectable()
export class LoginThrottleRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /** Failures for this account name from this address (null: an authenticated caller's own checks). */
  pairFailures(account: string, address: string | null, windowSeconds: number): Promise<FailureCount> {
    return this.count(`scope = 'pair' AND subject = $1 AND address IS NOT DISTINCT FROM $2`, [account, address], windowSeconds);
  }

  addressFailures(address: string, windowSeconds: number): Promise<FailureCount> {
    return this.count(`scope = 'address' AND subject = $1`, [address], windowSeconds);
  }

  signUps(address: string, windowSeconds: number): Promise<FailureCount> {
    return this.count(`scope = 'signup' AND subject = $1`, [address], windowSeconds);
  }

  /** Records a failed password check, and forgets what is too old to matter, so the table stays small. */
  async recordFailure(account: string, address: string | null, keepSeconds: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.manager.query(`INSERT INTO identity.login_failures (scope, subject, address) VALUES ('pair', $1, $2)`, [account, address]);
      if (address) await tx.manager.query(`INSERT INTO identity.login_failures (scope, subject) VALUES ('address', $1)`, [address]);
      await tx.manager.query('DELETE FROM identity.login_failures WHERE failed_at < now() - make_interval(secs => $1)', [keepSeconds]);
    });
  }

  async recordSignUp(address: string): Promise<void> {
    await this.db.dataSource.query(`INSERT INTO identity.login_failures (scope, subject) VALUES ('signup', $1)`, [address]);
  }

  /** Forgets an account's failures: from one address (a successful login there) or from all (a new password). */
  async clearAccount(account: string, address?: string | null): Promise<void> {
    if (address === undefined) await this.db.dataSource.query(`DELETE FROM identity.login_failures WHERE scope = 'pair' AND subject = $1`, [account]);
    else
      await this.db.dataSource.query(`DELETE FROM identity.login_failures WHERE scope = 'pair' AND subject = $1 AND address IS NOT DISTINCT FROM $2`, [
        account,
        address,
      ]);
  }

  private async count(where: string, params: unknown[], windowSeconds: number): Promise<FailureCount> {
    const rows: Array<{ count: number; since_last: number | null; since_first: number | null }> = await this.db.dataSource.query(
      `SELECT count(*)::int AS count,
              extract(epoch FROM now() - max(failed_at))::float8 AS since_last,
              extract(epoch FROM now() - min(failed_at))::float8 AS since_first
         FROM identity.login_failures
        WHERE ${where} AND failed_at > now() - make_interval(secs => $${params.length + 1})`,
      [...params, windowSeconds],
    );
    const row = rows[0];
    return { count: row?.count ?? 0, secondsSinceLast: row?.since_last ?? 0, secondsSinceFirst: row?.since_first ?? 0 };
  }
}
