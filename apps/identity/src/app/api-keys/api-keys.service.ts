import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuthUser, DetailError, FieldValidationError } from '@dc/platform';
import { LoginThrottle } from '../auth/login-throttle';
import { WRONG_PASSWORD } from '../profile/profile.service';
import { PasswordHasher } from '../security/password-hasher';
import { SecretCipher } from '../security/secret-cipher';
import { ApiKeysRepository } from './api-keys.repository';

export interface ApiKeyPair {
  api_token: string | null;
  api_secret: string | null;
}

const NO_KEY: ApiKeyPair = { api_token: null, api_secret: null };

/**
 * API credentials: a public token (an identifier) and a secret, exchanged at POST /api-token-auth/
 * like a username and password. The secret is stored encrypted (AES-256-GCM) so its owner can
 * read it again; it is never logged.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly hasher: PasswordHasher,
    private readonly cipher: SecretCipher,
    private readonly throttle: LoginThrottle,
  ) {}

  async get(caller: AuthUser): Promise<ApiKeyPair> {
    const key = await this.keys.find(caller.id);
    if (!key) return NO_KEY;
    try {
      return { api_token: key.token, api_secret: this.cipher.decrypt(key.secretEncrypted, caller.id) };
    } catch {
      // Encrypted under an earlier ENCRYPTION_KEY: unusable, so shown as none until renewed.
      return NO_KEY;
    }
  }

  /** Needs the caller's password; replaces any earlier pair. */
  async create(caller: AuthUser, password: string): Promise<ApiKeyPair> {
    const account = await this.keys.findAccount(caller.id);
    if (!account) throw new DetailError('Not found.', 404);
    const attempt = { account: account.username };
    await this.throttle.assertAllowed(attempt);
    if (!(await this.hasher.verify(account.passwordHash, password))) {
      await this.throttle.recordFailure(attempt);
      throw new FieldValidationError({ password: [WRONG_PASSWORD] });
    }
    const token = `dc_${randomBytes(20).toString('hex')}`;
    const secret = randomBytes(32).toString('base64url');
    await this.keys.replace(account.id, { token, secretEncrypted: this.cipher.encrypt(secret, account.id) });
    return { api_token: token, api_secret: secret };
  }

  async revoke(caller: AuthUser): Promise<void> {
    await this.keys.delete(caller.id);
  }
}
