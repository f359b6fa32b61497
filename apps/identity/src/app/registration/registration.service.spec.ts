import { FieldValidationError } from '@dc/platform';
import { registerSchema } from './dto/register.dto';
import { IdentityMailer, MailRecipient } from '../mail/identity-mailer';
import { hashToken } from '../security/one-time-token';
import { PasswordHasher } from '../security/password-hasher';
import { PasswordPolicy } from '../security/password-policy';
import { NewAccount, RegistrationRepository } from './registration.repository';
import { FOUNDER_GROUPS, REGISTRATION_SENT, RegistrationService } from './registration.service';

class InMemoryAccounts {
  accounts: NewAccount[] = [];
  async usernameOrEmailTaken(username: string, email: string) {
    return {
      username: this.accounts.some((a) => a.user.username.toLowerCase() === username.toLowerCase()),
      email: this.accounts.some((a) => a.user.email.toLowerCase() === email.toLowerCase()),
    };
  }
  async create(account: NewAccount) {
    this.accounts.push(account);
  }
  async accountWithEmail(email: string) {
    const user = this.accounts.find((a) => a.user.email.toLowerCase() === email.toLowerCase())?.user;
    return user ?? null;
  }
}

class ReversingHasher extends PasswordHasher {
  async hash(password: string) {
    return `hashed:${[...password].reverse().join('')}`;
  }
  async verify(hash: string, password: string) {
    return hash === (await this.hash(password));
  }
}

const valid = {
  username: 'ada',
  email: 'ada@example.org',
  first_name: 'Ada',
  last_name: 'Lovelace',
  description: 'Engines',
  password: 'correct horse',
  password_confirm: 'correct horse',
};

class SentActivations {
  sent: Array<{ to: MailRecipient; token: string }> = [];
  attempts: MailRecipient[] = [];
  async sendActivation(to: MailRecipient, token: string) {
    this.sent.push({ to, token });
    return true;
  }
  async sendSignUpAttempt(to: MailRecipient) {
    this.attempts.push(to);
    return true;
  }
}

describe('registration', () => {
  let accounts: InMemoryAccounts;
  let mails: SentActivations;
  let service: RegistrationService;
  beforeEach(() => {
    accounts = new InMemoryAccounts();
    mails = new SentActivations();
    service = new RegistrationService(
      accounts as unknown as RegistrationRepository,
      new ReversingHasher(),
      new PasswordPolicy(),
      mails as unknown as IdentityMailer,
    );
  });

  it('creates an inactive STANDARD founder with an organisation of their own and a hashed password', async () => {
    const result = await service.register(registerSchema.parse(valid));
    expect(result).toEqual({ message: REGISTRATION_SENT, username: 'ada', email: 'ada@example.org' });
    const [{ user, organisation }] = accounts.accounts;
    expect(user).toMatchObject({ username: 'ada', clientType: 'STANDARD', active: false, groups: FOUNDER_GROUPS, organisationId: organisation.id });
    expect(user.passwordHash).toBe('hashed:esroh tcerroc');
    expect(organisation).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.org', description: 'Engines' });
  });

  it('mails an activation token and stores only its hash, valid for 3 days', async () => {
    await service.register(registerSchema.parse(valid));
    const [{ activation }] = accounts.accounts;
    expect(mails.sent).toEqual([{ to: expect.objectContaining({ email: 'ada@example.org', firstName: 'Ada', username: 'ada' }), token: expect.any(String) }]);
    const { token } = mails.sent[0];
    expect(activation.tokenHash).toBe(hashToken(token));
    expect(activation.tokenHash).not.toContain(token);
    const days = (activation.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.99);
    expect(days).toBeLessThanOrEqual(3);
  });

  it('refuses a taken username whatever its case, without a word about the email', async () => {
    await service.register(registerSchema.parse(valid));
    const again = service.register(registerSchema.parse({ ...valid, username: 'ADA', email: 'Ada@Example.org' }));
    await expect(again).rejects.toBeInstanceOf(FieldValidationError);
    await expect(again).rejects.toMatchObject({ response: { username: ['A user with that username already exists.'] } });
    await expect(again).rejects.not.toMatchObject({ response: { email: expect.anything() } });
  });

  it('answers a taken email as a sign-up, makes nothing, and tells the owner (not a deactivated one)', async () => {
    await service.register(registerSchema.parse(valid));
    const answer = await service.register(registerSchema.parse({ ...valid, username: 'eve', email: 'Ada@Example.org' }));
    expect(answer).toEqual({ message: REGISTRATION_SENT, username: 'eve', email: 'Ada@Example.org' });
    expect(accounts.accounts).toHaveLength(1);
    expect(mails.sent).toHaveLength(1);
    expect(mails.attempts).toEqual([expect.objectContaining({ email: 'ada@example.org', username: 'ada' })]);

    Object.assign(accounts.accounts[0].user, { active: false, activatedAt: new Date() });
    await expect(service.register(registerSchema.parse({ ...valid, username: 'eve', email: 'ada@example.org' }))).resolves.toEqual({
      message: REGISTRATION_SENT,
      username: 'eve',
      email: 'ada@example.org',
    });
    expect(mails.attempts).toHaveLength(1);
  });

  it('validates with the spec messages', () => {
    const result = registerSchema.safeParse({ username: '', email: 'nope', password: 'short', password_confirm: 'other' });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(messages).toMatchObject({
      username: 'This field is required.',
      email: 'Enter a valid email address.',
      first_name: 'First Name is required',
      last_name: 'Last Name is required',
      description: 'A description is required.',
      password: 'This password is too short. It must contain at least 8 characters.',
    });
    const mismatch = registerSchema.safeParse({ ...valid, password_confirm: 'correct horsE' });
    expect(mismatch.error!.issues).toEqual([expect.objectContaining({ path: ['password_confirm'], message: "Passwords don't match." })]);
  });
});

describe('password rules at sign-up', () => {
  const service = new RegistrationService(
    new InMemoryAccounts() as unknown as RegistrationRepository,
    new ReversingHasher(),
    new PasswordPolicy(),
    new SentActivations() as unknown as IdentityMailer,
  );

  it.each([
    ['a common password', 'password', 'This password is too common or too easy to guess. Use a few uncommon words or a longer phrase.'],
    ['digits in a row', '12345678', 'This password is too common or too easy to guess. Use a few uncommon words or a longer phrase.'],
    ['a common password with substitutions', 'P@ssw0rd', 'This password is too common or too easy to guess. Use a few uncommon words or a longer phrase.'],
    ['the username', 'ada_lovelace', 'The password is too similar to the username.'],
    ['the username inside it', 'ADA_LOVELACE-2024', 'The password is too similar to the username.'],
  ])('refuses %s with a field error on password', async (_case, password) => {
    const dto = registerSchema.parse({ ...valid, username: 'ada_lovelace', password, password_confirm: password });
    const error = await service.register(dto).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FieldValidationError);
    expect((error as FieldValidationError).getResponse()).toEqual({ password: [expect.any(String)] });
  });

  it('accepts a phrase of uncommon words', async () => {
    await expect(
      service.register(
        registerSchema.parse({
          ...valid,
          username: 'grace',
          email: 'grace@example.org',
          password: 'ledger and quill 1850',
          password_confirm: 'ledger and quill 1850',
        }),
      ),
    ).resolves.toMatchObject({ username: 'grace' });
  });
});
