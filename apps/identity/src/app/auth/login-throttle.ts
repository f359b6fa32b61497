import { Injectable } from '@nestjs/common';
import { TooManyRequestsError } from '@dc/platform';
import { FailureCount, LoginThrottleRepository } from './login-throttle.repository';

export const TOO_MANY_ATTEMPTS = 'Too many failed login attempts. Please wait before trying again.';
export const TOO_MANY_SIGN_UPS = 'Too many sign-ups from your address. Please try again later.';

/**
 * Growing delays, never a lock: past `free` failures, each further attempt must wait
 * `firstDelay * 2^(failures - free)` seconds after the last failure, up to `maxDelay`.
 */
export interface DelayRule {
  free: number;
  firstDelaySeconds: number;
  maxDelaySeconds: number;
  windowSeconds: number;
}

/** One address guessing one account's password: 3 free tries, then 1 s, 2 s, 4 s ... up to 15 min, remembered a day. */
export const PAIR_RULE: DelayRule = { free: 3, firstDelaySeconds: 1, maxDelaySeconds: 15 * 60, windowSeconds: 24 * 60 * 60 };
/** One address guessing many accounts' passwords: 50 free in 15 min, then delays up to a minute (a NAT's users are slowed, not shut out). */
export const ADDRESS_RULE: DelayRule = { free: 50, firstDelaySeconds: 1, maxDelaySeconds: 60, windowSeconds: 15 * 60 };
/** Sign-ups per address and hour. */
export const SIGN_UPS_PER_HOUR = 10;

/** Seconds still to wait under a rule (0: go ahead). */
export function secondsToWait(rule: DelayRule, failures: FailureCount): number {
  if (failures.count < rule.free) return 0;
  const delay = Math.min(rule.maxDelaySeconds, rule.firstDelaySeconds * 2 ** (failures.count - rule.free));
  return Math.max(0, delay - failures.secondsSinceLast);
}

/** Who is trying: the account name as typed (known or not) and the client's address (none for a signed-in caller's own checks). */
export interface Attempt {
  account: string;
  address?: string;
}

/**
 * Slows password guessing without letting anyone lock an account: failures are counted per address
 * and account name, so the owner signing in from elsewhere is never held up by a guesser, and
 * too-early attempts get 429 with Retry-After before any password is checked. The same rule
 * guards other password checks (change password, API keys), there per account alone.
 */
@Injectable()
export class LoginThrottle {
  constructor(private readonly failures: LoginThrottleRepository) {}

  async assertAllowed(attempt: Attempt): Promise<void> {
    const address = attempt.address ?? null;
    let wait = secondsToWait(PAIR_RULE, await this.failures.pairFailures(accountName(attempt.account), address, PAIR_RULE.windowSeconds));
    if (address) wait = Math.max(wait, secondsToWait(ADDRESS_RULE, await this.failures.addressFailures(address, ADDRESS_RULE.windowSeconds)));
    if (wait > 0) throw new TooManyRequestsError(TOO_MANY_ATTEMPTS, wait);
  }

  async recordFailure(attempt: Attempt): Promise<void> {
    await this.failures.recordFailure(accountName(attempt.account), attempt.address ?? null, PAIR_RULE.windowSeconds);
  }

  /** A successful login forgives the failures of its address and account pair. */
  async clearPair(attempt: Attempt): Promise<void> {
    await this.failures.clearAccount(accountName(attempt.account), attempt.address ?? null);
  }

  /** A new password (reset by email) forgives the account's failures from every address. */
  async clearAccount(account: string): Promise<void> {
    await this.failures.clearAccount(accountName(account));
  }

  /** Sign-up: at most SIGN_UPS_PER_HOUR attempts per address and hour, each counted. */
  async admitSignUp(address: string | undefined): Promise<void> {
    // The machine's own users (the operator, scripts, tests) are not limited; behind a proxy the
    // address is the client's (TRUST_PROXY), so only a local client is ever loopback.
    if (!address || isLoopback(address)) return;
    const recent = await this.failures.signUps(address, 60 * 60);
    if (recent.count >= SIGN_UPS_PER_HOUR) throw new TooManyRequestsError(TOO_MANY_SIGN_UPS, 60 * 60 - recent.secondsSinceFirst);
    await this.failures.recordSignUp(address);
  }
}

const isLoopback = (address: string) => /^(127\.|::1$|::ffff:127\.)/.test(address);

const accountName = (account: string) => account.trim().toLowerCase();
