import { Injectable, Logger } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { DATA_VIEWER, isUuid } from '@dc/contracts';
import { DetailError, SecretCipher } from '@dc/platform';
import { Account } from '../accounts/account';
import { TokenIssuer } from '../auth/token-issuer';
import { hashToken, sameSecret } from '../security/one-time-token';
import { PasswordHasher } from '../security/password-hasher';
import { IdentityProviderClient, IdentityProviderError, type ProviderClientSettings } from './identity-provider-client';
import { ATTEMPT_TTL_MS, emailDomainAllowed, RESULT_TTL_MS, SSO_ERRORS, usernameBase, type ProviderIdentity, type SsoProvider } from './sso';
import { SsoRepository } from './sso.repository';

const random = () => randomBytes(32).toString('base64url');

/** Where the browser goes next, and (at the start) the value of the cookie that binds the sign-in to it. */
export interface SsoStep {
  location: string;
  browserToken?: string;
}

export interface SsoLinks {
  /** The callback URL registered at the provider. */
  redirectUri: string;
  /** The web app's page that exchanges a result code. */
  completion: (resultCode: string) => string;
}

/**
 * Sign-in with an organisation's OpenID Connect provider. The start keeps the state (hashed), the
 * nonce and the PKCE verifier server-side, bound to the browser by a cookie; the callback takes them
 * out (once), has the client exchange the code and verify the ID token, matches the account on
 * issuer + subject (never on email alone) or provisions one, and stores a one-time result that the
 * web app exchanges for the product's JWT. Any failure is a message for the login screen and
 * creates nothing.
 */
@Injectable()
export class SsoLoginService {
  private readonly logger = new Logger('SingleSignOn');

  constructor(
    private readonly sso: SsoRepository,
    private readonly cipher: SecretCipher,
    private readonly client: IdentityProviderClient,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenIssuer,
  ) {}

  providers() {
    return this.sso.providers();
  }

  async start(providerId: string, links: SsoLinks): Promise<SsoStep> {
    const provider = isUuid(providerId) ? await this.sso.provider(providerId) : null;
    if (!provider) return this.fail(links, SSO_ERRORS.unknownProvider);
    const state = random();
    const browserToken = random();
    const attempt = {
      providerId: provider.id,
      browserHash: hashToken(browserToken),
      codeVerifier: random(),
      nonce: random(),
      expiresAt: new Date(Date.now() + ATTEMPT_TTL_MS),
    };
    let location: string;
    try {
      location = await this.client.authorizationUrl(this.settings(provider), {
        redirectUri: links.redirectUri,
        state,
        nonce: attempt.nonce,
        codeVerifier: attempt.codeVerifier,
      });
    } catch (error) {
      return this.fail(links, this.providerMessage(error, provider));
    }
    await this.sso.saveAttempt(hashToken(state), attempt);
    return { location, browserToken };
  }

  async callback(query: { state?: string }, rawQuery: string, browserToken: string | undefined, links: SsoLinks): Promise<SsoStep> {
    const attempt = query.state ? await this.sso.takeAttempt(hashToken(query.state)) : null;
    if (!attempt) return this.fail(links, SSO_ERRORS.unknownAttempt);
    if (!browserToken || !sameSecret(hashToken(browserToken), attempt.browserHash)) return this.fail(links, SSO_ERRORS.otherBrowser);
    const provider = await this.sso.provider(attempt.providerId);
    if (!provider) return this.fail(links, SSO_ERRORS.unknownProvider);
    let identity: ProviderIdentity;
    try {
      identity = await this.client.exchange(this.settings(provider), {
        redirectUri: links.redirectUri,
        query: rawQuery,
        state: query.state!,
        nonce: attempt.nonce,
        codeVerifier: attempt.codeVerifier,
      });
    } catch (error) {
      return this.fail(links, this.providerMessage(error, provider));
    }
    const outcome = await this.accountFor(provider, identity);
    if (typeof outcome === 'string') return this.fail(links, outcome);
    const code = random();
    await this.sso.saveResult(hashToken(code), { userId: outcome.id }, new Date(Date.now() + RESULT_TTL_MS));
    return { location: links.completion(code) };
  }

  /** The web app's half: a result code for the product's JWT (or the sign-in's error), once. */
  async exchange(resultCode: string): Promise<{ token: string }> {
    const result = await this.sso.takeResult(hashToken(resultCode));
    if (!result) throw new DetailError(SSO_ERRORS.unknownResult, 400);
    if (result.error || !result.userId) throw new DetailError(result.error ?? SSO_ERRORS.unknownResult, 400);
    const account = await this.sso.account(result.userId);
    if (!account?.active) throw new DetailError(SSO_ERRORS.inactive, 400);
    return { token: await this.tokens.issue(account) };
  }

  /** The linked account, a new one, or the message why there is none. */
  private async accountFor(provider: SsoProvider, identity: ProviderIdentity): Promise<Account | string> {
    if (!identity.email) return SSO_ERRORS.noEmail;
    if (identity.emailVerified === false) return SSO_ERRORS.emailUnverified;
    if (!emailDomainAllowed(identity.email, provider.allowedDomains)) return SSO_ERRORS.wrongDomain;
    const linked = await this.sso.linkedAccount(identity.issuer, identity.subject);
    if (linked) {
      if (linked.organisationId !== provider.organisationId) return SSO_ERRORS.otherOrganisation;
      return linked.active ? linked : SSO_ERRORS.inactive;
    }
    if ((await this.sso.usernameOrEmailTaken(undefined, identity.email)).email) return SSO_ERRORS.emailTaken;
    const base = usernameBase(identity);
    for (let tries = 0; tries < 5; tries++) {
      const username = tries === 0 ? base : `${base}-${randomBytes(3).toString('hex')}`;
      if ((await this.sso.usernameOrEmailTaken(username, undefined)).username) continue;
      const created = await this.sso.createLinkedAccount(
        {
          id: randomUUID(),
          username,
          email: identity.email,
          firstName: identity.givenName ?? '',
          lastName: identity.familyName ?? '',
          description: '',
          // Nobody knows this password: the person signs in at the provider (or sets one by password reset).
          passwordHash: await this.hasher.hash(random()),
          passwordVersion: 1,
          organisationId: provider.organisationId,
          clientType: provider.clientType,
          active: true,
          activatedAt: new Date(),
          groups: [DATA_VIEWER],
        },
        identity,
      );
      if (created) {
        this.logger.log(`Account ${created.id} made at first sign-in with ${provider.issuer} (organisation ${provider.organisationId})`);
        return created;
      }
      const again = await this.sso.linkedAccount(identity.issuer, identity.subject);
      if (again) return again.organisationId !== provider.organisationId ? SSO_ERRORS.otherOrganisation : again.active ? again : SSO_ERRORS.inactive;
      if ((await this.sso.usernameOrEmailTaken(undefined, identity.email)).email) return SSO_ERRORS.emailTaken;
    }
    return SSO_ERRORS.emailTaken;
  }

  private settings(provider: SsoProvider): ProviderClientSettings {
    return { issuer: provider.issuer, clientId: provider.clientId, clientSecret: this.cipher.decrypt(provider.clientSecretSealed, provider.id) };
  }

  private providerMessage(error: unknown, provider: SsoProvider): string {
    if (!(error instanceof IdentityProviderError)) throw error;
    this.logger.warn(`Sign-in with ${provider.issuer} failed (${error.failure}): ${error.message}`);
    switch (error.failure) {
      case 'address-refused':
      case 'unreachable':
        return SSO_ERRORS.providerUnreachable;
      case 'client-refused':
        return SSO_ERRORS.providerRefusedClient;
      case 'code-rejected':
        return SSO_ERRORS.codeRejected;
      case 'token-invalid':
        return SSO_ERRORS.tokenInvalid;
      case 'denied':
        return `${SSO_ERRORS.providerDenied}: ${error.message.slice(0, 200)}`;
    }
  }

  private async fail(links: SsoLinks, message: string): Promise<SsoStep> {
    const code = random();
    await this.sso.saveResult(hashToken(code), { error: message }, new Date(Date.now() + RESULT_TTL_MS));
    return { location: links.completion(code) };
  }
}
