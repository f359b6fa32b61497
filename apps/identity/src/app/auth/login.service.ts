import { Injectable } from '@nestjs/common';
import { NonFieldError, SecretCipher } from '@dc/platform';
import { Account } from '../accounts/account';
import { apiSecretDigest, isApiSecretDigest, matchesApiSecretDigest } from '../security/api-secret';
import { sameSecret } from '../security/one-time-token';
import { PasswordHasher } from '../security/password-hasher';
import { LoginDto } from './dto/login.dto';
import { LoginRepository } from './login.repository';
import { LoginThrottle } from './login-throttle';
import { TokenIssuer } from './token-issuer';

export const BAD_CREDENTIALS = 'Unable to log in with provided credentials.';

@Injectable()
export class LoginService {
  constructor(
    private readonly accounts: LoginRepository,
    private readonly hasher: PasswordHasher,
    private readonly cipher: SecretCipher,
    private readonly throttle: LoginThrottle,
    private readonly tokens: TokenIssuer,
  ) {}

  /**
   * A wrong password, an unknown name and an inactive account get the same answer, and each costs
   * one password check, so neither the answer nor its timing tells whether an account exists.
   */
  async login(dto: LoginDto, address: string | undefined): Promise<{ token: string }> {
    const attempt = { account: dto.username, address };
    await this.throttle.assertAllowed(attempt);
    const account = await this.authenticate(dto.username, dto.password);
    if (!account) {
      await this.throttle.recordFailure(attempt);
      throw new NonFieldError(BAD_CREDENTIALS);
    }
    await this.throttle.clearPair(attempt);
    return { token: await this.tokens.issue(account) };
  }

  private async authenticate(name: string, secret: string): Promise<Account | null> {
    const user = await this.accounts.findByUsername(name);
    if (user) return (await this.hasher.verify(user.passwordHash, secret)) && user.active ? user : null;
    // Scripts send their api_token and api_secret in place of a username and password.
    const key = await this.accounts.findApiKey(name);
    if (key && (await this.apiSecretMatches(name, key.secretVerifier, key.userId, secret))) {
      const owner = await this.accounts.findById(key.userId);
      return owner?.active ? owner : null;
    }
    await this.hasher.verifyAgainstNothing(secret);
    return null;
  }

  private async apiSecretMatches(token: string, verifier: string, userId: string, secret: string): Promise<boolean> {
    if (isApiSecretDigest(verifier)) return matchesApiSecretDigest(verifier, userId, secret);
    // A pair made before secrets were shown once: its secret was kept encrypted. Once it has been
    // used, only a digest is kept.
    let matches = false;
    try {
      matches = sameSecret(this.cipher.decrypt(verifier, userId), secret);
    } catch {
      // Encrypted with another key (ENCRYPTION_KEY changed): the pair must be renewed.
    }
    if (matches) await this.accounts.replaceApiSecretVerifier(token, verifier, apiSecretDigest(userId, secret));
    return matches;
  }
}
