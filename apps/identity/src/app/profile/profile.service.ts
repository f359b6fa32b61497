import { Injectable } from '@nestjs/common';
import { AuthUser, FieldValidationError, notFound } from '@dc/platform';
import { toUserAccountView } from '../accounts/account.views';
import { LoginThrottle } from '../auth/login-throttle';
import { PasswordHasher } from '../security/password-hasher';
import { PASSWORD_NOT_NEW, PasswordPolicy } from '../security/password-policy';
import { ChangePasswordDto, ProfileInformationDto } from './dto/profile.dto';
import { ProfileRepository } from './profile.repository';

export const WRONG_PASSWORD = 'Wrong password.';
export const PASSWORD_CHANGED = 'Your password was changed. Please log in again with your new password.';

@Injectable()
export class ProfileService {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly hasher: PasswordHasher,
    private readonly passwords: PasswordPolicy,
    private readonly throttle: LoginThrottle,
  ) {}

  async userAccount(caller: AuthUser) {
    const account = await this.profiles.findAccount(caller.id);
    const organisation = account && (await this.profiles.findOrganisation(account.organisationId));
    if (!account || !organisation) throw notFound();
    return toUserAccountView(account, organisation);
  }

  async changeInformation(caller: AuthUser, dto: ProfileInformationDto) {
    await this.profiles.updateNames(caller.id, dto.first_name, dto.last_name);
    return this.userAccount(caller);
  }

  /** Needs the current password; afterwards every earlier token (this caller's too) stops working. */
  async changePassword(caller: AuthUser, dto: ChangePasswordDto): Promise<{ message: string }> {
    const account = await this.profiles.findAccount(caller.id);
    if (!account) throw notFound();
    const attempt = { account: account.username };
    await this.throttle.assertAllowed(attempt);
    if (!(await this.hasher.verify(account.passwordHash, dto.old_password))) {
      await this.throttle.recordFailure(attempt);
      throw new FieldValidationError({ old_password: [WRONG_PASSWORD] });
    }
    this.passwords.assertAcceptable('new_password', dto.new_password, account);
    if (await this.hasher.verify(account.passwordHash, dto.new_password)) throw new FieldValidationError({ new_password: [PASSWORD_NOT_NEW] });
    const changed = await this.profiles.changePassword(account.id, account.passwordVersion, await this.hasher.hash(dto.new_password));
    if (!changed) throw new FieldValidationError({ old_password: [WRONG_PASSWORD] });
    return { message: PASSWORD_CHANGED };
  }
}
