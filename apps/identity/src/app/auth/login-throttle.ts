import { Injectable } from '@nestjs/common';
import { DetailError } from '@dc/platform';
import { LoginThrottleRepository } from './login-throttle.repository';

export const ACCOUNT_FAILURE_LIMIT = 5;
export const ADDRESS_FAILURE_LIMIT = 20;
export const FAILURE_WINDOW_SECONDS = 15 * 60;
export const TOO_MANY_ATTEMPTS = 'Too many login attempts. Please try again later.';

/** Who is trying: the account name as typed (known or not) and the client's address. */
export interface Attempt {
  account: string;
  address?: string;
}

/**
 * Limits password guessing: 5 failures per account name and 20 per address within 15 minutes;
 * past either limit every attempt is refused with 429 before any password is checked.
 * The same counts guard other password checks (change password, API keys).
 */
@Injectable()
export class LoginThrottle {
  constructor(private readonly failures: LoginThrottleRepository) {}

  async assertAllowed(attempt: Attempt): Promise<void> {
    const account = await this.failures.failuresSince('account', accountSubject(attempt.account), FAILURE_WINDOW_SECONDS);
    const address = attempt.address ? await this.failures.failuresSince('address', attempt.address, FAILURE_WINDOW_SECONDS) : 0;
    if (account >= ACCOUNT_FAILURE_LIMIT || address >= ADDRESS_FAILURE_LIMIT) throw new DetailError(TOO_MANY_ATTEMPTS, 429);
  }

  async recordFailure(attempt: Attempt): Promise<void> {
    const failures: Array<{ scope: 'account' | 'address'; subject: string }> = [{ scope: 'account', subject: accountSubject(attempt.account) }];
    if (attempt.address) failures.push({ scope: 'address', subject: attempt.address });
    await this.failures.recordFailures(failures, FAILURE_WINDOW_SECONDS);
  }

  /** A successful login (or a new password) forgives the account's earlier failures, not the address's. */
  async clearAccount(account: string): Promise<void> {
    await this.failures.clear('account', accountSubject(account));
  }
}

const accountSubject = (account: string) => account.trim().toLowerCase();
