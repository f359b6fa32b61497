import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AccountClientType, DEFAULT_SUB_ACCOUNT_CLIENT_TYPE, isUuid, listPage, Permission } from '@dc/contracts';
import { AuthUser, DetailError, FieldErrors, FieldValidationError, notFound } from '@dc/platform';
import { PasswordHasher } from '../security/password-hasher';
import { PasswordPolicy } from '../security/password-policy';
import { Account } from './account';
import { toAccountView } from './account.views';
import { AccountChanges, AccountsRepository } from './accounts.repository';
import { CreateAccountDto, ListAccountsDto, SetPasswordDto, UpdateAccountDto } from './dto/account.dto';
import { EMAIL_TAKEN, USERNAME_TAKEN } from './dto/fields';
import { requirePermission } from './permissions';

export const OWN_GROUPS = 'You cannot change your own group membership.';
export const OWN_DEACTIVATION = 'You cannot deactivate your own account.';
export const OWN_DELETION = 'You cannot delete your own account.';
export const OWN_PASSWORD = 'Use Change Password in your profile to change your own password.';
export const CLIENT_TYPE_ABOVE_OWN = 'You cannot give an account a higher client type than your own.';
export const PASSWORD_SET = 'The password was set.';

const sameSet = (a: number[], b: number[]) => [...new Set(a)].sort((x, y) => x - y).join() === [...new Set(b)].sort((x, y) => x - y).join();

/**
 * Sub-accounts of the caller's organisation. Reading needs membership only; creating needs
 * account.add_userprofile, editing and setting passwords account.change_userprofile, deleting
 * account.delete_userprofile. Nobody changes their own groups. Other organisations' accounts are
 * not found.
 */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly hasher: PasswordHasher,
    private readonly passwords: PasswordPolicy,
  ) {}

  async list(caller: AuthUser, query: ListAccountsDto, pageUrl: (page: number) => string) {
    const offset = (query.page - 1) * query.page_size;
    const { count, accounts } = await this.accounts.list(caller.organisationId, offset, query.page_size);
    const lastPage = Math.max(1, Math.ceil(count / query.page_size));
    if (query.page > lastPage) throw notFound('Invalid page.');
    return listPage(accounts.map(toAccountView), count, { page: query.page, offset }, pageUrl);
  }

  async get(caller: AuthUser, id: string) {
    return toAccountView(await this.find(caller, id));
  }

  async create(caller: AuthUser, dto: CreateAccountDto) {
    requirePermission(caller, Permission.AddAccount);
    const clientType = dto.client_type ?? DEFAULT_SUB_ACCOUNT_CLIENT_TYPE;
    const errors = await this.uniquenessErrors(dto.username, dto.email);
    if (!clientTypeAllowed(caller.clientType, clientType)) errors.client_type = [CLIENT_TYPE_ABOVE_OWN];
    const weak = this.passwords.problems(dto.password, { username: dto.username, email: dto.email, firstName: dto.first_name, lastName: dto.last_name });
    if (weak.length) errors.password = weak;
    if (Object.keys(errors).length) throw new FieldValidationError(errors);
    const created = await this.accounts.create({
      id: randomUUID(),
      username: dto.username,
      email: dto.email,
      firstName: dto.first_name,
      lastName: dto.last_name,
      description: '',
      passwordHash: await this.hasher.hash(dto.password),
      passwordVersion: 1,
      organisationId: caller.organisationId,
      clientType,
      // An admin vouches for the account: active at once, no activation mail.
      active: dto.active ?? true,
      activatedAt: new Date(),
      groups: dto.groups ?? [],
    });
    return toAccountView(created);
  }

  async update(caller: AuthUser, id: string, dto: UpdateAccountDto) {
    requirePermission(caller, Permission.ChangeAccount);
    const account = await this.find(caller, id);
    const self = account.id === caller.id;
    const errors = await this.uniquenessErrors(changed(dto.username, account.username), changed(dto.email, account.email), account.id);
    if (self && dto.groups && !sameSet(dto.groups, account.groups)) errors.change_group = [OWN_GROUPS];
    if (self && dto.active === false) errors.active = [OWN_DEACTIVATION];
    if (dto.client_type && dto.client_type !== account.clientType && !clientTypeAllowed(caller.clientType, dto.client_type))
      errors.client_type = [CLIENT_TYPE_ABOVE_OWN];
    if (Object.keys(errors).length) throw new FieldValidationError(errors);
    const changes: AccountChanges = {};
    if (dto.username !== undefined) changes.username = dto.username;
    if (dto.email !== undefined) changes.email = dto.email;
    if (dto.first_name !== undefined) changes.firstName = dto.first_name;
    if (dto.last_name !== undefined) changes.lastName = dto.last_name;
    if (dto.groups !== undefined) changes.groups = dto.groups;
    if (dto.client_type !== undefined) changes.clientType = dto.client_type;
    if (dto.active !== undefined) changes.active = dto.active;
    if (Object.keys(changes).length === 0) return toAccountView(account);
    const updated = await this.accounts.update(caller.organisationId, account.id, changes);
    if (!updated) throw notFound();
    return toAccountView(updated);
  }

  async setPassword(caller: AuthUser, id: string, dto: SetPasswordDto): Promise<{ message: string }> {
    requirePermission(caller, Permission.ChangeAccount);
    const account = await this.find(caller, id);
    // Changing one's own password needs the old one (PUT /api/change-password/).
    if (account.id === caller.id) throw new DetailError(OWN_PASSWORD, 400);
    this.passwords.assertAcceptable('new_password', dto.new_password, account);
    if (!(await this.accounts.setPassword(caller.organisationId, account.id, await this.hasher.hash(dto.new_password)))) throw notFound();
    return { message: PASSWORD_SET };
  }

  async delete(caller: AuthUser, id: string): Promise<void> {
    requirePermission(caller, Permission.DeleteAccount);
    const account = await this.find(caller, id);
    if (account.id === caller.id) throw new DetailError(OWN_DELETION, 400);
    if (!(await this.accounts.delete(caller.organisationId, account.id))) throw notFound();
  }

  private async find(caller: AuthUser, id: string): Promise<Account> {
    const account = isUuid(id) ? await this.accounts.find(caller.organisationId, id) : null;
    if (!account) throw notFound();
    return account;
  }

  private async uniquenessErrors(username: string | undefined, email: string | undefined, exceptUserId?: string): Promise<FieldErrors> {
    const errors: FieldErrors = {};
    if (username === undefined && email === undefined) return errors;
    const taken = await this.accounts.usernameOrEmailTaken(username, email, exceptUserId);
    if (taken.username) errors.username = [USERNAME_TAKEN];
    if (taken.email) errors.email = [EMAIL_TAKEN];
    return errors;
  }
}

/** A BASIC caller makes BASIC accounts only; a STANDARD caller either kind. */
function clientTypeAllowed(own: AccountClientType, wanted: AccountClientType): boolean {
  return own === 'STANDARD' || wanted === 'BASIC';
}

/** A value to check for uniqueness only if it differs from the current one (ignoring case). */
function changed(value: string | undefined, current: string): string | undefined {
  return value !== undefined && value.toLowerCase() !== current.toLowerCase() ? value : undefined;
}
