import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ACCESS_ADMIN, DATA_ADMIN, DATA_VIEWER } from '@dc/contracts';
import { FieldErrors, FieldValidationError } from '@dc/platform';
import { USERNAME_TAKEN } from '../accounts/dto/fields';
import { IdentityMailer } from '../mail/identity-mailer';
import { newOneTimeToken } from '../security/one-time-token';
import { PasswordHasher } from '../security/password-hasher';
import { PasswordPolicy } from '../security/password-policy';
import { RegisterDto } from './dto/register.dto';
import { RegistrationRepository } from './registration.repository';

export const REGISTRATION_SENT = 'An email was sent to your account. Please confirm your account.';

/** Whoever registers creates an organisation and holds all three groups (ARCHITECTURE section 8). */
export const FOUNDER_GROUPS = [ACCESS_ADMIN, DATA_ADMIN, DATA_VIEWER];

export const ACTIVATION_LIFETIME_MS = 3 * 24 * 60 * 60 * 1000;

@Injectable()
export class RegistrationService {
  constructor(
    private readonly accounts: RegistrationRepository,
    private readonly hasher: PasswordHasher,
    private readonly passwords: PasswordPolicy,
    private readonly mail: IdentityMailer,
  ) {}

  /**
   * A taken username is said (usernames are public: cards and autofill show them). A taken email is
   * not: the answer is a sign-up's, nothing is made, and the address's owner is mailed instead, as
   * password reset answers the same whether or not an account exists.
   */
  async register(dto: RegisterDto): Promise<{ message: string; username: string; email: string }> {
    const taken = await this.accounts.usernameOrEmailTaken(dto.username, dto.email);
    const errors: FieldErrors = {};
    if (taken.username) errors.username = [USERNAME_TAKEN];
    const weak = this.passwords.problems(dto.password, { username: dto.username, email: dto.email, firstName: dto.first_name, lastName: dto.last_name });
    if (weak.length) errors.password = weak;
    if (Object.keys(errors).length) throw new FieldValidationError(errors);
    const answer = { message: REGISTRATION_SENT, username: dto.username, email: dto.email };
    // Hashed either way, so a taken email is not answered sooner.
    const passwordHash = await this.hasher.hash(dto.password);
    if (taken.email) {
      await this.tellOwner(dto.email);
      return answer;
    }

    const organisationId = randomUUID();
    const activation = newOneTimeToken();
    const user = {
      id: randomUUID(),
      username: dto.username,
      email: dto.email,
      firstName: dto.first_name,
      lastName: dto.last_name,
      description: dto.description,
      passwordHash,
      passwordVersion: 1,
      organisationId,
      clientType: 'STANDARD' as const,
      // Inactive, and unable to log in, until the emailed link is followed.
      active: false,
      activatedAt: null,
      groups: FOUNDER_GROUPS,
    };
    await this.accounts.create({
      organisation: { id: organisationId, name: dto.organisation_name ?? `${dto.first_name} ${dto.last_name}`, email: dto.email, description: dto.description },
      user,
      activation: { tokenHash: activation.hash, expiresAt: new Date(Date.now() + ACTIVATION_LIFETIME_MS) },
    });
    // A lost mail is logged; the owner can still prove their email through a password reset.
    await this.mail.sendActivation(user, activation.token);
    return answer;
  }

  /** An account an admin deactivated is not mailed, as password reset sends it nothing either. */
  private async tellOwner(email: string): Promise<void> {
    const owner = await this.accounts.accountWithEmail(email);
    if (!owner || (!owner.active && owner.activatedAt !== null)) return;
    await this.mail.sendSignUpAttempt(owner);
  }
}
