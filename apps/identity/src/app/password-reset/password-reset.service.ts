import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER, NonFieldError } from '@dc/platform';
import { LoginThrottle } from '../auth/login-throttle';
import { IdentityMailer } from '../mail/identity-mailer';
import { newOneTimeToken, hashToken } from '../security/one-time-token';
import { PasswordHasher } from '../security/password-hasher';
import { PasswordPolicy } from '../security/password-policy';
import { ResetConfirmDto } from './dto/password-reset.dto';
import { PasswordResetRepository } from './password-reset.repository';

export const RESET_REQUESTED = 'If an account exists for this email address, we have sent it a link to reset the password. The link expires in 1 hour.';
export const RESET_DONE = 'Your password has been reset. You can now log in with your new password.';
export const RESET_LINK_INVALID = 'This password reset link is invalid or has expired. Please ask for a new one.';
export const RESET_LIFETIME_MS = 60 * 60 * 1000;
/** At most this many reset mails per account and hour. */
export const RESET_MAILS_PER_HOUR = 5;

@Injectable()
export class PasswordResetService implements OnApplicationShutdown {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly resets: PasswordResetRepository,
    private readonly hasher: PasswordHasher,
    private readonly passwords: PasswordPolicy,
    private readonly mail: IdentityMailer,
    private readonly throttle: LoginThrottle,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Answers at once and the same way whether or not the email belongs to an account; the token
   * and the mail are made after the answer, so the response time does not tell either.
   */
  requestReset(email: string): { message: string } {
    const work = this.issue(email)
      .catch((error: unknown) => this.logger.error({ err: error }, 'password reset could not be issued'))
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
    return { message: RESET_REQUESTED };
  }

  async confirm(dto: ResetConfirmDto): Promise<{ message: string; status: 'success' }> {
    const owner = await this.resets.accountForToken(hashToken(dto.token), dto.email);
    if (!owner) throw new NonFieldError(RESET_LINK_INVALID);
    this.passwords.assertAcceptable('password', dto.password, owner);
    const account = await this.resets.resetPassword(hashToken(dto.token), dto.email, await this.hasher.hash(dto.password));
    if (!account) throw new NonFieldError(RESET_LINK_INVALID);
    await this.throttle.clearAccount(account.username);
    return { message: RESET_DONE, status: 'success' };
  }

  /** Resolves once the reset requests answered so far have been processed. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Lets reset mails still being written finish before the process stops. */
  async onApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  private async issue(email: string): Promise<void> {
    const account = await this.resets.findByEmail(email);
    // An account an admin deactivated gets no link; one never activated may prove its email here.
    if (!account || (!account.active && account.activatedAt !== null)) return;
    const token = newOneTimeToken();
    const issued = await this.resets.issue(account.id, token.hash, new Date(Date.now() + RESET_LIFETIME_MS), {
      maxPerWindow: RESET_MAILS_PER_HOUR,
      windowSeconds: 3600,
    });
    if (issued) await this.mail.sendPasswordReset(account, token.token);
  }
}
