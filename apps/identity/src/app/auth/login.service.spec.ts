import { NonFieldError } from '@dc/platform';
import { randomBytes } from 'node:crypto';
import { Account } from '../accounts/account';
import { PasswordHasher } from '../security/password-hasher';
import { SecretCipher } from '@dc/platform';
import { LoginRepository } from './login.repository';
import { LoginService } from './login.service';
import { LoginThrottle } from './login-throttle';
import { TokenIssuer } from './token-issuer';

/** Counts how many password checks each attempt costs. */
class CountingHasher extends PasswordHasher {
  checks = 0;
  async hash(password: string) {
    return `hash:${password}`;
  }
  async verify(hash: string, password: string) {
    this.checks += 1;
    return hash === `hash:${password}`;
  }
}

const account = (overrides: Partial<Account> = {}): Account => ({
  id: '7d3c1a52-3f0e-4b8e-9a55-1f8f3c7e2b10',
  username: 'ada',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  description: '',
  passwordHash: 'hash:secret pass',
  passwordVersion: 1,
  organisationId: 'org',
  clientType: 'STANDARD',
  active: true,
  activatedAt: new Date(),
  groups: [1, 2, 3],
  dateJoined: new Date(),
  ...overrides,
});

describe('login rules', () => {
  let hasher: CountingHasher;
  let users: Account[];
  let failures: string[];
  let service: LoginService;

  beforeEach(() => {
    hasher = new CountingHasher();
    users = [account(), account({ id: 'b4d1b9a2-4f4c-4c3e-8f52-5b6f0f2f7d11', username: 'idle', active: false })];
    failures = [];
    const repository = {
      findByUsername: async (name: string) => users.find((u) => u.username === name.toLowerCase()) ?? null,
      findById: async (id: string) => users.find((u) => u.id === id) ?? null,
      findApiKey: async () => null,
    } as unknown as LoginRepository;
    const throttle = {
      assertAllowed: async () => undefined,
      recordFailure: async (attempt: { account: string }) => void failures.push(attempt.account),
      clearPair: async () => undefined,
    } as unknown as LoginThrottle;
    const tokens = { issue: async (a: Account) => `token-for-${a.username}` } as unknown as TokenIssuer;
    service = new LoginService(repository, hasher, new SecretCipher(randomBytes(32)), throttle, tokens);
  });

  it('issues a token for the right password', async () => {
    await expect(service.login({ username: 'ada', password: 'secret pass' }, '10.0.0.1')).resolves.toEqual({ token: 'token-for-ada' });
  });

  it.each([
    ['a wrong password', 'ada', 'guess'],
    ['an unknown user', 'nobody', 'secret pass'],
    ['an inactive account', 'idle', 'secret pass'],
  ])('answers %s the same way, after exactly one password check, and counts the failure', async (_case, username, password) => {
    const attempt = service.login({ username, password }, '10.0.0.1');
    await expect(attempt).rejects.toBeInstanceOf(NonFieldError);
    await expect(attempt).rejects.toMatchObject({ response: { non_field_errors: ['Unable to log in with provided credentials.'] } });
    // Unknown users run a check against a dummy hash, so timing tells nothing either.
    expect(hasher.checks).toBe(1);
    expect(failures).toEqual([username]);
  });
});
