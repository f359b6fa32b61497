import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuthUser, FieldValidationError, notFound } from '@dc/platform';
import { LoginThrottle } from '../auth/login-throttle';
import { WRONG_PASSWORD } from '../profile/profile.service';
import { PasswordHasher } from '../security/password-hasher';
import { apiSecretDigest } from '../security/api-secret';
import { ApiKeysRepository } from './api-keys.repository';

export interface ApiKeyPair {
  api_token: string | null;
  /** Only in the answer that made the pair: it is not kept and cannot be shown again. */
  api_secret: string | null;
  /** When the pair was made (ISO 8601), or null without a pair. */
  created: string | null;
}

const NO_KEY: ApiKeyPair = { api_token: null, api_secret: null, created: null };

/**
 * API credentials: a public token (an identifier) and a secret, exchanged at POST /api-token-auth/
 * like a username and password. The secret is shown once, when the pair is made; only a digest of
 * it is stored, so later calls can say that a pair exists and when it was made, never the secret.
 * It is never logged.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
  ) {}

  async get(caller: AuthUser): Promise<ApiKeyPair> {
    const key = await this.keys.find(caller.id);
    return key ? { api_token: key.token, api_secret: null, created: key.createdAt.toISOString() } : NO_KEY;
  }

  /** Needs the caller's password; replaces any earlier pair. */
  async create(caller: AuthUser, password: string): Promise<ApiKeyPair> {
    const account = await this.keys.findAccount(caller.id);
    if (!account) throw notFound();
    const attempt = { account: account.username };
    await this.throttle.assertAllowed(attempt);
    if (!(await this.hasher.verify(account.passwordHash, password))) {
      await this.throttle.recordFailure(attempt);
      throw new FieldValidationError({ password: [WRONG_PASSWORD] });
    }
    const token = `dc_${randomBytes(20).toString('hex')}`;
    const secret = randomBytes(32).toString('base64url');
    const created = await this.keys.replace(account.id, { token, secretVerifier: apiSecretDigest(account.id, secret) });
    return { api_token: token, api_secret: secret, created: created.toISOString() };
  }

  async revoke(caller: AuthUser): Promise<void> {
    await this.keys.delete(caller.id);
  }
}
