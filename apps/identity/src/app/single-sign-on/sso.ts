import type { AccountClientType } from '@dc/contracts';

/** An organisation's OpenID Connect provider, as stored (the client secret still sealed). */
export interface SsoProvider {
  id: string;
  organisationId: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecretSealed: string;
  allowedDomains: string[];
  clientType: AccountClientType;
  updatedAt: Date;
}

/** What the provider says about the person after a verified ID token (and userinfo if needed). */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean | undefined;
  givenName: string | undefined;
  familyName: string | undefined;
  preferredUsername: string | undefined;
}

/** A sign-in under way: what the callback checks against. */
export interface SsoAttempt {
  providerId: string;
  browserHash: string;
  codeVerifier: string;
  nonce: string;
  expiresAt: Date;
}

/** How long a started sign-in and its one-time result stay usable. */
export const ATTEMPT_TTL_MS = 10 * 60 * 1000;
export const RESULT_TTL_MS = 2 * 60 * 1000;

/** The cookie that binds a started sign-in to the browser that started it. */
export const SSO_BROWSER_COOKIE = 'dc_sso';

// The messages the login screen shows; nothing is created when one of them is the answer.
export const SSO_ERRORS = {
  unknownProvider: 'This sign-in provider is not configured (any more). Ask your organisation’s Data Admin.',
  unknownAttempt: 'This sign-in link is not valid: it was already used, has expired or was altered. Please sign in again.',
  otherBrowser: 'This sign-in was started in another browser or the sign-in cookie was lost. Please sign in again.',
  providerUnreachable: 'The identity provider could not be reached. Please try again later or ask your Data Admin.',
  providerRefusedClient: 'The identity provider refused the product’s client id or secret. Ask your Data Admin to check the single sign-on settings.',
  providerDenied: 'The identity provider did not complete the sign-in',
  codeRejected: 'The identity provider did not accept this sign-in (the code was already used or has expired). Please sign in again.',
  tokenInvalid: 'The identity provider’s answer could not be verified (the ID token is invalid or has expired). Please sign in again.',
  noEmail: 'The identity provider did not say which email address you have, so no account can be matched or created.',
  emailUnverified: 'The identity provider says your email address is not verified.',
  wrongDomain: 'Your email address is not in a domain this organisation allows for single sign-on.',
  emailTaken: 'An account with your email address already exists and is not linked to this provider. Sign in with your password, or ask an Access Admin.',
  otherOrganisation: 'Your identity is linked to an account of another organisation.',
  inactive: 'Your account is deactivated. Ask an Access Admin of your organisation.',
  unknownResult: 'This sign-in has already been completed or has expired. Please sign in again.',
} as const;

/** Domains as the admin typed them: trimmed, lower case, without a leading "@", no duplicates. */
export function normaliseDomains(domains: string[]): string[] {
  return [...new Set(domains.map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean))];
}

/** The email's domain is one of the allowed ones (exactly; subdomains must be listed). */
export function emailDomainAllowed(email: string, allowedDomains: string[]): boolean {
  const at = email.lastIndexOf('@');
  if (at < 1) return false;
  const domain = email.slice(at + 1).toLowerCase();
  return allowedDomains.some((allowed) => allowed.toLowerCase() === domain);
}

/** A username for a new account from the provider's preferred username or the email's local part. */
export function usernameBase(identity: Pick<ProviderIdentity, 'email' | 'preferredUsername'>): string {
  const raw = identity.preferredUsername && !identity.preferredUsername.includes('@') ? identity.preferredUsername : (identity.email ?? '').split('@')[0];
  const cleaned = raw.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 30);
  return cleaned || 'user';
}

/** The callback's redirect URI: what the operator registers at the provider. */
export const callbackPath = '/api/sso/callback/';
