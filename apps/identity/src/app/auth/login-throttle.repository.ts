import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';

export type ThrottleScope = 'account' | 'address';

/** Failed attempts live in the database, so every identity process sees the same counts. */
@Injectable()
export class LoginThrottleRepository {
  constructor(private readonly db: ServiceDatabase) {}

  async failuresSince(scope: ThrottleScope, subject: string, windowSeconds: number): Promise<number> {
    const rows: Array<{ count: number }> = await this.db.dataSource.query(
      `SELECT count(*)::int AS count FROM identity.login_failures WHERE scope = $1 AND subject = $2 AND failed_at > now() - make_interval(secs => $3)`,
      [scope, subject, windowSeconds],
    );
    return rows[0]?.count ?? 0;
  }

  /** Records failures and forgets those too old to matter, so the table stays small. */
  async recordFailures(failures: Array<{ scope: ThrottleScope; subject: string }>, windowSeconds: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const { scope, subject } of failures) await tx.manager.query('INSERT INTO identity.login_failures (scope, subject) VALUES ($1, $2)', [scope, subject]);
      await tx.manager.query('DELETE FROM identity.login_failures WHERE failed_at < now() - make_interval(secs => $1)', [windowSeconds]);
    });
  }

  async clear(scope: ThrottleScope, subject: string): Promise<void> {
    await this.db.dataSource.query('DELETE FROM identity.login_failures WHERE scope = $1 AND subject = $2', [scope, subject]);
  }
}
