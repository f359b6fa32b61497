import { Injectable } from '@nestjs/common';
import * as oidc from 'openid-client';
import { OutgoingAddressRefusedError } from '@dc/platform';
import { ProviderAddressGuard } from './provider-address-guard';
import { IdentityProviderClient, IdentityProviderError, type ProviderClientSettings } from './identity-provider-client';
import type { ProviderIdentity } from './sso';

const TIMEOUT_SECONDS = 10;
/** Seconds of difference between our clock and the provider's that ID token times may show. */
const CLOCK_TOLERANCE_SECONDS = 30;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** openid-client 6 through the outgoing address guard. */
@Injectable()
export class OpenIdClientProvider extends IdentityProviderClient {
  constructor(private readonly guard: ProviderAddressGuard) {
    super();
  }

  private async configuration(settings: ProviderClientSettings): Promise<oidc.Configuration> {
    let issuer: URL;
    try {
      issuer = new URL(settings.issuer);
    } catch {
      throw new IdentityProviderError('unreachable', 'The issuer URL is not a URL.');
    }
    // Plain http only for a provider the operator allowed on a private address (a lab or test provider).
    const insecure = issuer.protocol === 'http:' && this.guard.allowsPrivateEndpoints();
    try {
      const config = await oidc.discovery(
        issuer,
        settings.clientId,
        { client_secret: settings.clientSecret, [oidc.clockTolerance]: CLOCK_TOLERANCE_SECONDS },
        oidc.ClientSecretBasic(settings.clientSecret),
        {
          [oidc.customFetch]: this.guard.fetch as unknown as oidc.CustomFetch,
          timeout: TIMEOUT_SECONDS,
          execute: insecure ? [oidc.allowInsecureRequests] : [],
        },
      );
      config[oidc.customFetch] = this.guard.fetch as unknown as oidc.CustomFetch;
      config.timeout = TIMEOUT_SECONDS;
      return config;
    } catch (error) {
      throw classify(error, 'discovery');
    }
  }

  async check(settings: ProviderClientSettings): Promise<void> {
    await this.configuration(settings);
  }

  async authorizationUrl(
    settings: ProviderClientSettings,
    request: { redirectUri: string; state: string; nonce: string; codeVerifier: string },
  ): Promise<string> {
    const config = await this.configuration(settings);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: request.redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: request.state,
      nonce: request.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
    });
    return url.href;
  }

  async exchange(
    settings: ProviderClientSettings,
    callback: { redirectUri: string; query: string; state: string; nonce: string; codeVerifier: string },
  ): Promise<ProviderIdentity> {
    const config = await this.configuration(settings);
    const currentUrl = new URL(callback.redirectUri);
    currentUrl.search = callback.query;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: callback.codeVerifier,
        expectedState: callback.state,
        expectedNonce: callback.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new IdentityProviderError('token-invalid', 'No ID token');
      let info: Record<string, unknown> = claims;
      // Providers that keep the email out of the ID token give it at the userinfo endpoint.
      if (claims.email === undefined && tokens.access_token) info = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
      const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: text(info.email),
        emailVerified: typeof info.email_verified === 'boolean' ? info.email_verified : info.email_verified === 'true' ? true : undefined,
        givenName: text(info.given_name),
        familyName: text(info.family_name),
        preferredUsername: text(info.preferred_username),
      };
    } catch (error) {
      throw classify(error, 'exchange');
    }
  }
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current && chain.length < 8; current = (current as { cause?: unknown }).cause) chain.push(current);
  return chain;
}

/** Sorts what openid-client threw into the few failures a person can act on. */
function classify(error: unknown, step: 'discovery' | 'exchange'): IdentityProviderError {
  if (error instanceof IdentityProviderError) return error;
  const chain = causes(error);
  if (chain.some((e) => e instanceof OutgoingAddressRefusedError)) return new IdentityProviderError('address-refused', String((error as Error).message));
  // Every message of the chain, for the log (e.g. "JWT timestamp claim value failed validation: unexpected JWT "exp" ...").
  const message = chain
    .filter((e): e is Error => e instanceof Error)
    .map((e) => e.message)
    .join(': ');
  if (error instanceof oidc.AuthorizationResponseError) return new IdentityProviderError('denied', error.error_description ?? error.error);
  if (error instanceof oidc.WWWAuthenticateChallengeError) return new IdentityProviderError('client-refused', message);
  if (error instanceof oidc.ResponseBodyError) {
    if (error.error === 'invalid_client' || error.error === 'unauthorized_client') return new IdentityProviderError('client-refused', message);
    if (error.error === 'invalid_grant') return new IdentityProviderError('code-rejected', message);
    return new IdentityProviderError('denied', error.error_description ?? error.error);
  }
  if (
    chain.some((e) => {
      const code = (e as { code?: unknown }).code;
      const name = (e as { name?: unknown }).name;
      return (typeof code === 'string' && NETWORK_CODES.has(code)) || name === 'TimeoutError' || name === 'AbortError';
    })
  )
    return new IdentityProviderError('unreachable', message);
  // Discovery that answered something other than the issuer's metadata: the provider is not usable.
  if (step === 'discovery') return new IdentityProviderError('unreachable', message);
  return new IdentityProviderError('token-invalid', message);
}
