import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { NotificationChannel } from '@dc/persistence';
import { LOGGER, TOKEN_LIFETIME_SECONDS } from '@dc/platform';
import { RevokedTokens, TOKEN_REVOKED_CHANNEL } from './revoked-tokens.repository';

/**
 * The ids of the tokens ended by logout, held in memory so that the token check, which every
 * authenticated call asks, does not ask PostgreSQL. Kept in step with identity.revoked_tokens:
 * loaded at start, a logout in this process added at once, one in another identity process heard
 * through PostgreSQL NOTIFY (milliseconds after its commit). While the channel is not listened to
 * (start-up, a lost connection) nothing would tell of a logout elsewhere, so the table is asked
 * on every call as before until the list is listened to and reloaded again.
 */
@Injectable()
export class RevocationList implements OnModuleInit, OnModuleDestroy {
  /** Token id → when the token expires anyway (ms); after that the signature check refuses it. */
  private readonly revoked = new Map<string, number>();
  private inStep = false;
  private readonly channel: NotificationChannel;

  constructor(
    private readonly tokens: RevokedTokens,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.channel = new NotificationChannel(tokens.databaseUrl, TOKEN_REVOKED_CHANNEL, {
      message: (payload) => this.heard(payload),
      connected: () => this.reload(),
      lost: (error) => {
        this.inStep = false;
        this.logger.warn({ err: error }, 'revoked-token channel lost; asking the database on every call until it is back');
      },
    });
  }

  async onModuleInit(): Promise<void> {
    await this.channel.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.inStep = false;
    await this.channel.stop();
  }

  /** Whether the list is kept in step (listened to and loaded), so isRevoked needs no query. */
  get current(): boolean {
    return this.inStep;
  }

  async isRevoked(tokenId: string): Promise<boolean> {
    if (this.inStep) return this.revoked.has(tokenId);
    return this.tokens.isRevoked(tokenId);
  }

  async revoke(tokenId: string, expiresAt: Date): Promise<void> {
    await this.tokens.revoke(tokenId, expiresAt);
    this.remember(tokenId, expiresAt.getTime());
  }

  /** Listening again: what was sent meanwhile is lost, so the whole list is read afresh. */
  private async reload(): Promise<void> {
    const unexpired = await this.tokens.unexpired();
    // Whatever was heard since LISTEN began stays: it may be newer than this read.
    for (const { tokenId, expiresAt } of unexpired) this.remember(tokenId, expiresAt.getTime());
    // Lost again while reading: the next reconnection reloads.
    this.inStep = this.channel.listening;
  }

  /** `<token id> <expiry in ms>`, as RevokedTokens.revoke sends it. */
  private heard(payload: string): void {
    const [tokenId, expiresAt] = payload.split(' ');
    if (tokenId) this.remember(tokenId, Number(expiresAt) || Date.now() + TOKEN_LIFETIME_SECONDS * 1000);
  }

  private remember(tokenId: string, expiresAt: number): void {
    const now = Date.now();
    // Logouts are rare; dropping the expired ones on each keeps the list to a day's logouts.
    for (const [id, until] of this.revoked) if (until < now) this.revoked.delete(id);
    this.revoked.set(tokenId, expiresAt);
  }
}
