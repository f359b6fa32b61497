import { Injectable } from '@nestjs/common';
import type { AuthUser } from './auth-user';

/** Says whether a validly signed token is still good (account active, password unchanged). */
export type TokenCheck = (user: AuthUser) => Promise<boolean>;

/**
 * Services that know more than the signature register checks here; the JWT guard runs them all.
 * The identity service registers one against its accounts, so after a password change or
 * deactivation earlier tokens stop working: in embedded mode for every service module of the
 * process. In distributed mode the other services have no check of their own; the gateway asks
 * identity about each token before forwarding a call to them (apps/gateway token-verification).
 */
@Injectable()
export class TokenChecks {
  private readonly checks: TokenCheck[] = [];

  register(check: TokenCheck): void {
    this.checks.push(check);
  }

  async isCurrent(user: AuthUser): Promise<boolean> {
    for (const check of this.checks) if (!(await check(user))) return false;
    return true;
  }
}
