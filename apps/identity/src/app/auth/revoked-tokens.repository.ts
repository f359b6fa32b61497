import { Injectable } from '@nestjs/common';
import { ServiceDatabase } from '@dc/platform';

/** The PostgreSQL channel on which every identity process hears of a logout (the token id). */
export const TOKEN_REVOKED_CHANNEL = 'identity_token_revoked';

export interface RevokedToken {
  tokenId: string;
  expiresAt: Date;
}

/** Token ids ended by logout, kept until the token would have expired anyway. */
@Injectable()
export class RevokedTokens {
  constructor(private readonly db: ServiceDatabase) {}

  /** Records the logout and, at its commit, tells every identity process on TOKEN_REVOKED_CHANNEL. */
  async revoke(tokenId: string, expiresAt: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.manager.query('INSERT INTO identity.revoked_tokens (token_id, expires_at) VALUES ($1, $2) ON CONFLICT (token_id) DO NOTHING', [
        tokenId,
        expiresAt,
      ]);
      await tx.manager.query('DELETE FROM identity.revoked_tokens WHERE expires_at < now()');
      await tx.manager.query('SELECT pg_notify($1, $2)', [TOKEN_REVOKED_CHANNEL, `${tokenId} ${expiresAt.getTime()}`]);
    });
  }

  async isRevoked(tokenId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.dataSource.query('SELECT 1 FROM identity.revoked_tokens WHERE token_id = $1', [tokenId]);
    return rows.length > 0;
  }

  /** Every revocation whose token has not expired yet. */
  async unexpired(): Promise<RevokedToken[]> {
    const rows: Array<{ token_id: string; expires_at: Date }> = await this.db.dataSource.query(
      'SELECT token_id, expires_at FROM identity.revoked_tokens WHERE expires_at >= now()',
    );
    return rows.map((row) => ({ tokenId: row.token_id, expiresAt: new Date(row.expires_at) }));
  }

  /** Where the service's database is, for a connection of one's own (LISTEN). */
  get databaseUrl(): string {
    return (this.db.dataSource.options as { url?: string }).url!;
  }
}
