import type { ProviderIdentity } from './sso';

/** Why a call to the identity provider failed; the service turns each into a message for the login screen. */
export type ProviderFailure = 'address-refused' | 'unreachable' | 'client-refused' | 'denied' | 'code-rejected' | 'token-invalid';

export class IdentityProviderError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    message: string,
  ) {
    super(message);
  }
}

/** An organisation's provider as the client needs it (the secret unsealed). */
export interface ProviderClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Port: the OpenID Connect calls of a sign-in (discovery, the authorization URL, the code exchange
 * with verification of the ID token). The adapter is openid-client-provider.ts; every failure is an
 * IdentityProviderError.
 */
export abstract class IdentityProviderClient {
  /** Reads the issuer's discovery document; fails when it cannot be read or names another issuer. */
  abstract check(settings: ProviderClientSettings): Promise<void>;

  /** Where to send the browser: authorization code flow with PKCE (S256), state and nonce. */
  abstract authorizationUrl(
    settings: ProviderClientSettings,
    request: { redirectUri: string; state: string; nonce: string; codeVerifier: string },
  ): Promise<string>;

  /** Exchanges the code of the callback (its query string) and returns the verified identity. */
  abstract exchange(
    settings: ProviderClientSettings,
    callback: { redirectUri: string; query: string; state: string; nonce: string; codeVerifier: string },
  ): Promise<ProviderIdentity>;
}
