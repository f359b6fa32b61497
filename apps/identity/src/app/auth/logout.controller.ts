import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, TOKEN_LIFETIME_SECONDS } from '@dc/platform';
import { RevocationList } from './revocation-list';

/**
 * POST /api/logout/ ends the caller's token on the server: every service refuses it from then on
 * (in distributed mode through the gateway's token check), not only the browser that forgets it.
 */
@Controller('api/logout')
export class LogoutController {
  constructor(private readonly revoked: RevocationList) {}

  @ApiContract({ summary: 'Log out: ends the calling token on the server; every service refuses it afterwards', responses: { 204: null } })
  @Post()
  @HttpCode(204)
  async logout(@CurrentUser() caller: AuthUser): Promise<void> {
    // Tokens issued before logout existed carry no id; they run out within their 24 hours.
    if (!caller.tokenId) return;
    const expiresAt = new Date(1000 * (caller.expiresAt ?? Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_SECONDS));
    await this.revoked.revoke(caller.tokenId, expiresAt);
  }
}
